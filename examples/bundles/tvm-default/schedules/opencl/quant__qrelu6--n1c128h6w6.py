# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(Q: T.Buffer((1, 128, 6, 6), "int8"), T_qrelu6: T.Buffer((1, 128, 6, 6), "int8")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(18, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_qrelu6"):
                    v0 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 36)
                    v1 = T.axis.spatial(6, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 36 // 6)
                    v2 = T.axis.spatial(6, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 6)
                    T.reads(Q[0, v0, v1, v2])
                    T.writes(T_qrelu6[0, v0, v1, v2])
                    T_qrelu6[0, v0, v1, v2] = T.min(T.max(Q[0, v0, v1, v2], T.int8(3)), T.int8(99))
