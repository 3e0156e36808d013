# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 49, 10, 64), "float32"), W: T.Buffer((1, 3, 64, 1), "float32"), DepthwiseConv2d: T.Buffer((1, 49, 10, 64), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(123, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("DepthwiseConv2d_init"):
                    v0 = T.axis.spatial(49, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 640)
                    v1 = T.axis.spatial(10, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 640 // 64)
                    v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 31360)
                    T.reads()
                    T.writes(DepthwiseConv2d[0, v0, v1, v2])
                    DepthwiseConv2d[0, v0, v1, v2] = T.float32(0.0)
                for ax3 in range(3):
                    with T.sblock("DepthwiseConv2d_update"):
                        v0 = T.axis.spatial(49, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 640)
                        v1 = T.axis.spatial(10, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 640 // 64)
                        v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                        v3 = T.axis.reduce(3, ax3)
                        T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 31360)
                        T.reads(DepthwiseConv2d[0, v0, v1, v2], X[0, v0, v1 + v3 - 1, v2], W[0, v3, v2, 0])
                        T.writes(DepthwiseConv2d[0, v0, v1, v2])
                        DepthwiseConv2d[0, v0, v1, v2] = DepthwiseConv2d[0, v0, v1, v2] + T.if_then_else(1 <= v1 + v3 and v1 + v3 < 11, X[0, v0, v1 + v3 - 1, v2], T.float32(0.0)) * W[0, v3, v2, 0]
