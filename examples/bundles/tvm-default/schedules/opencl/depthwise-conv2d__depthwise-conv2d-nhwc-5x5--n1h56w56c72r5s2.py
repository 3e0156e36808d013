# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 56, 56, 72), "float32"), W: T.Buffer((5, 5, 72, 1), "float32"), DepthwiseConv2d: T.Buffer((1, 28, 28, 72), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(221, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("DepthwiseConv2d_init"):
                    v0 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 2016)
                    v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 2016 // 72)
                    v2 = T.axis.spatial(72, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 72)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 56448)
                    T.reads()
                    T.writes(DepthwiseConv2d[0, v0, v1, v2])
                    DepthwiseConv2d[0, v0, v1, v2] = T.float32(0.0)
                for ax3, ax4 in T.grid(5, 5):
                    with T.sblock("DepthwiseConv2d_update"):
                        v0 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 2016)
                        v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 2016 // 72)
                        v2 = T.axis.spatial(72, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 72)
                        v3, v4 = T.axis.remap("RR", [ax3, ax4])
                        T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 56448)
                        T.reads(DepthwiseConv2d[0, v0, v1, v2], X[0, v0 * 2 + v3 - 2, v1 * 2 + v4 - 2, v2], W[v3, v4, v2, 0])
                        T.writes(DepthwiseConv2d[0, v0, v1, v2])
                        DepthwiseConv2d[0, v0, v1, v2] = DepthwiseConv2d[0, v0, v1, v2] + T.if_then_else(2 <= v0 * 2 + v3 and v0 * 2 + v3 < 58 and 2 <= v1 * 2 + v4 and v1 * 2 + v4 < 58, X[0, v0 * 2 + v3 - 2, v1 * 2 + v4 - 2, v2], T.float32(0.0)) * W[v3, v4, v2, 0]
