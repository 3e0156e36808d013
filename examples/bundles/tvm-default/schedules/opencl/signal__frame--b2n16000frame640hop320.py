# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((2, 16000), "float32"), T_frame: T.Buffer((2, 49, 640), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(245, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_frame"):
                    v0 = T.axis.spatial(2, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 31360)
                    v1 = T.axis.spatial(49, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 31360 // 640)
                    v2 = T.axis.spatial(640, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 640)
                    T.reads(x[v0, v1 * 320 + v2])
                    T.writes(T_frame[v0, v1, v2])
                    T_frame[v0, v1, v2] = x[v0, v1 * 320 + v2]
