# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 64, 12, 12), "int8"), W: T.Buffer((64, 1, 3, 3), "int8"), DepthwiseConv2d: T.Buffer((1, 64, 12, 12), "int32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(36, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("DepthwiseConv2d_init"):
                    v0 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 144)
                    v1 = T.axis.spatial(12, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 144 // 12)
                    v2 = T.axis.spatial(12, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 12)
                    T.reads()
                    T.writes(DepthwiseConv2d[0, v0, v1, v2])
                    DepthwiseConv2d[0, v0, v1, v2] = 0
                for ax3, ax4 in T.grid(3, 3):
                    with T.sblock("DepthwiseConv2d_update"):
                        v0 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 144)
                        v1 = T.axis.spatial(12, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 144 // 12)
                        v2 = T.axis.spatial(12, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 12)
                        v3, v4 = T.axis.remap("RR", [ax3, ax4])
                        T.reads(DepthwiseConv2d[0, v0, v1, v2], X[0, v0, v1 + v3 - 1, v2 + v4 - 1], W[v0, 0, v3, v4])
                        T.writes(DepthwiseConv2d[0, v0, v1, v2])
                        DepthwiseConv2d[0, v0, v1, v2] = DepthwiseConv2d[0, v0, v1, v2] + T.if_then_else(1 <= v1 + v3 and v1 + v3 < 13 and 1 <= v2 + v4 and v2 + v4 < 13, T.Cast("int32", X[0, v0, v1 + v3 - 1, v2 + v4 - 1]) + 5, 0) * T.Cast("int32", W[v0, 0, v3, v4])
