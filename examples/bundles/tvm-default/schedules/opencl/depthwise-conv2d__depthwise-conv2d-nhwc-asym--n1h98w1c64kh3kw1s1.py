# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 98, 1, 64), "float32"), W: T.Buffer((3, 1, 64, 1), "float32"), DepthwiseConv2d: T.Buffer((1, 98, 1, 64), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(25, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("DepthwiseConv2d_init"):
                    v0 = T.axis.spatial(98, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 64)
                    v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 64)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 6272)
                    T.reads()
                    T.writes(DepthwiseConv2d[0, v0, 0, v1])
                    DepthwiseConv2d[0, v0, 0, v1] = T.float32(0.0)
                for ax2 in range(3):
                    with T.sblock("DepthwiseConv2d_update"):
                        v0 = T.axis.spatial(98, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 64)
                        v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 64)
                        v2 = T.axis.reduce(3, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 6272)
                        T.reads(DepthwiseConv2d[0, v0, 0, v1], X[0, v0 + v2 - 1, 0, v1], W[v2, 0, v1, 0])
                        T.writes(DepthwiseConv2d[0, v0, 0, v1])
                        DepthwiseConv2d[0, v0, 0, v1] = DepthwiseConv2d[0, v0, 0, v1] + T.if_then_else(1 <= v0 + v2 and v0 + v2 < 99, X[0, v0 + v2 - 1, 0, v1], T.float32(0.0)) * W[v2, 0, v1, 0]
