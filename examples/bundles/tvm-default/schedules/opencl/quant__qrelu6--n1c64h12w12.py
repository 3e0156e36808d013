# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(Q: T.Buffer((1, 64, 12, 12), "int8"), T_qrelu6: T.Buffer((1, 64, 12, 12), "int8")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(36, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_qrelu6"):
                    v0 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 144)
                    v1 = T.axis.spatial(12, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 144 // 12)
                    v2 = T.axis.spatial(12, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 12)
                    T.reads(Q[0, v0, v1, v2])
                    T.writes(T_qrelu6[0, v0, v1, v2])
                    T_qrelu6[0, v0, v1, v2] = T.min(T.max(Q[0, v0, v1, v2], T.int8(3)), T.int8(99))
