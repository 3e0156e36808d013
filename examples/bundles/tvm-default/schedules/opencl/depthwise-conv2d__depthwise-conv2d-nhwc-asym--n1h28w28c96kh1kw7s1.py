# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 28, 28, 96), "float32"), W: T.Buffer((1, 7, 96, 1), "float32"), DepthwiseConv2d: T.Buffer((1, 28, 28, 96), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(294, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("DepthwiseConv2d_init"):
                    v0 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 2688)
                    v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 2688 // 96)
                    v2 = T.axis.spatial(96, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 96)
                    T.reads()
                    T.writes(DepthwiseConv2d[0, v0, v1, v2])
                    DepthwiseConv2d[0, v0, v1, v2] = T.float32(0.0)
                for ax3 in range(7):
                    with T.sblock("DepthwiseConv2d_update"):
                        v0 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 2688)
                        v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 2688 // 96)
                        v2 = T.axis.spatial(96, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 96)
                        v3 = T.axis.reduce(7, ax3)
                        T.reads(DepthwiseConv2d[0, v0, v1, v2], X[0, v0, v1 + v3 - 3, v2], W[0, v3, v2, 0])
                        T.writes(DepthwiseConv2d[0, v0, v1, v2])
                        DepthwiseConv2d[0, v0, v1, v2] = DepthwiseConv2d[0, v0, v1, v2] + T.if_then_else(3 <= v1 + v3 and v1 + v3 < 31, X[0, v0, v1 + v3 - 3, v2], T.float32(0.0)) * W[0, v3, v2, 0]
