# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 7, 7, 1024), "float32"), W: T.Buffer((3, 3, 1024, 1), "float32"), DepthwiseConv2d: T.Buffer((1, 7, 7, 1024), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(196, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("DepthwiseConv2d_init"):
                    v0 = T.axis.spatial(7, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 7168)
                    v1 = T.axis.spatial(7, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 7168 // 1024)
                    v2 = T.axis.spatial(1024, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 1024)
                    T.reads()
                    T.writes(DepthwiseConv2d[0, v0, v1, v2])
                    DepthwiseConv2d[0, v0, v1, v2] = T.float32(0.0)
                for ax3, ax4 in T.grid(3, 3):
                    with T.sblock("DepthwiseConv2d_update"):
                        v0 = T.axis.spatial(7, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 7168)
                        v1 = T.axis.spatial(7, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 7168 // 1024)
                        v2 = T.axis.spatial(1024, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 1024)
                        v3, v4 = T.axis.remap("RR", [ax3, ax4])
                        T.reads(DepthwiseConv2d[0, v0, v1, v2], X[0, v0 + v3 - 1, v1 + v4 - 1, v2], W[v3, v4, v2, 0])
                        T.writes(DepthwiseConv2d[0, v0, v1, v2])
                        DepthwiseConv2d[0, v0, v1, v2] = DepthwiseConv2d[0, v0, v1, v2] + T.if_then_else(1 <= v0 + v3 and v0 + v3 < 8 and 1 <= v1 + v4 and v1 + v4 < 8, X[0, v0 + v3 - 1, v1 + v4 - 1, v2], T.float32(0.0)) * W[v3, v4, v2, 0]
