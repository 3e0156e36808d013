# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 56, 56, 144), "float16"), W: T.Buffer((3, 3, 144, 1), "float16"), DepthwiseConv2d_f16: T.Buffer((1, 28, 28, 144), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        DepthwiseConv2d_shared = T.sblock_alloc_buffer((1, 28, 28, 144), scope="shared")
        for ax0_ax1_ax2_fused in T.thread_binding(112896, thread="blockIdx.x"):
            for ax0, ax1, ax2 in T.grid(1, 1, 1):
                for ax3_ax4_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax3_ax4_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("DepthwiseConv2d"):
                            v0 = T.axis.spatial(28, ax0_ax1_ax2_fused // 4032 + ax0)
                            v1 = T.axis.spatial(28, ax0_ax1_ax2_fused % 4032 // 144 + ax1)
                            v2 = T.axis.spatial(144, ax0_ax1_ax2_fused % 144 + ax2)
                            v3 = T.axis.reduce(3, (ax3_ax4_fused_0 * 256 + ax3_ax4_fused_1) // 3)
                            v4 = T.axis.reduce(3, (ax3_ax4_fused_0 * 256 + ax3_ax4_fused_1) % 3)
                            T.where(ax3_ax4_fused_0 * 256 + ax3_ax4_fused_1 < 9)
                            T.reads(X[0, v0 * 2 + v3 - 1, v1 * 2 + v4 - 1, v2], W[v3, v4, v2, 0])
                            T.writes(DepthwiseConv2d_shared[0, v0, v1, v2])
                            with T.init():
                                DepthwiseConv2d_shared[0, v0, v1, v2] = T.float32(0.0)
                            DepthwiseConv2d_shared[0, v0, v1, v2] = DepthwiseConv2d_shared[0, v0, v1, v2] + T.if_then_else(1 <= v0 * 2 + v3 and v0 * 2 + v3 < 57 and 1 <= v1 * 2 + v4 and v1 * 2 + v4 < 57, T.Cast("float32", X[0, v0 * 2 + v3 - 1, v1 * 2 + v4 - 1, v2]), T.float32(0.0)) * T.Cast("float32", W[v3, v4, v2, 0])
            for ax3 in range(T.int64(1)):
                for ax4_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                    for ax4_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("DepthwiseConv2d_f16"):
                            v0 = T.axis.spatial(28, ax0_ax1_ax2_fused // 4032)
                            v1 = T.axis.spatial(28, ax0_ax1_ax2_fused % 4032 // 144)
                            v2 = T.axis.spatial(144, ax0_ax1_ax2_fused % 144)
                            v3 = T.axis.spatial(T.int64(1), ax3)
                            v4 = T.axis.spatial(T.int64(1), ax4_0 * T.int64(256) + ax4_1)
                            T.where(ax4_0 * T.int64(256) + ax4_1 < T.int64(1))
                            T.reads(DepthwiseConv2d_shared[0, v0, v1, v2])
                            T.writes(DepthwiseConv2d_f16[0, v0, v1, v2])
                            DepthwiseConv2d_f16[0, v0, v1, v2] = T.Cast("float16", DepthwiseConv2d_shared[0, v0, v1, v2])
