# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 144, 56, 56), "float32"), W: T.Buffer((144, 1, 3, 3), "float32"), b: T.Buffer((144,), "float32"), T_bias_relu6: T.Buffer((1, 144, 28, 28), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        DepthwiseConv2d_local = T.sblock_alloc_buffer((1, 144, 28, 28), scope="local")
        DepthwiseConv2d_rf_local = T.sblock_alloc_buffer((8, 1, 144, 28, 28), scope="local")
        for ax0_ax1_ax2_fused in T.thread_binding(112896, thread="blockIdx.x"):
            for ax3_ax4_fused_1 in T.thread_binding(8, thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                with T.sblock("DepthwiseConv2d_rf_init"):
                    vax3_ax4_fused_1 = T.axis.spatial(8, ax3_ax4_fused_1)
                    v0 = T.axis.spatial(144, ax0_ax1_ax2_fused // 784)
                    v1 = T.axis.spatial(28, ax0_ax1_ax2_fused % 784 // 28)
                    v2 = T.axis.spatial(28, ax0_ax1_ax2_fused % 28)
                    T.reads()
                    T.writes(DepthwiseConv2d_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2])
                    DepthwiseConv2d_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2] = T.float32(0.0)
                for ax3_ax4_fused_0, u in T.grid(2, 1):
                    with T.sblock("DepthwiseConv2d_rf_update"):
                        vax3_ax4_fused_1 = T.axis.spatial(8, ax3_ax4_fused_1)
                        v0 = T.axis.spatial(144, ax0_ax1_ax2_fused // 784)
                        v1 = T.axis.spatial(28, ax0_ax1_ax2_fused % 784 // 28)
                        v2 = T.axis.spatial(28, ax0_ax1_ax2_fused % 28)
                        vax3_ax4_fused_0 = T.axis.reduce(2, ax3_ax4_fused_0)
                        T.where(ax3_ax4_fused_0 * 8 + ax3_ax4_fused_1 < 9)
                        T.reads(DepthwiseConv2d_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2], X[0, v0, v1 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) // 3, v2 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) % 3], W[v0, 0, (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) // 3, (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) % 3])
                        T.writes(DepthwiseConv2d_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2])
                        DepthwiseConv2d_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2] = DepthwiseConv2d_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2] + T.if_then_else(0 <= v1 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) // 3 and v1 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) // 3 < 56 and 0 <= v2 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) % 3 and v2 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) % 3 < 56, X[0, v0, v1 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) // 3, v2 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) % 3], T.float32(0.0)) * W[v0, 0, (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) // 3, (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) % 3]
            for ax1_ax2_ax3_fused in range(1):
                for ax0 in T.thread_binding(8, thread="threadIdx.x"):
                    with T.sblock("DepthwiseConv2d"):
                        vax3_ax4_fused_1 = T.axis.reduce(8, ax0)
                        v0 = T.axis.spatial(144, ax0_ax1_ax2_fused // 784)
                        v1 = T.axis.spatial(28, ax0_ax1_ax2_fused % 784 // 28)
                        v2 = T.axis.spatial(28, ax0_ax1_ax2_fused % 28)
                        T.reads(DepthwiseConv2d_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2])
                        T.writes(DepthwiseConv2d_local[0, v0, v1, v2])
                        with T.init():
                            DepthwiseConv2d_local[0, v0, v1, v2] = T.float32(0.0)
                        DepthwiseConv2d_local[0, v0, v1, v2] = DepthwiseConv2d_local[0, v0, v1, v2] + DepthwiseConv2d_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2]
            for ax0, ax1, ax2 in T.grid(1, 1, 1):
                with T.sblock("T_bias_relu6"):
                    v0 = T.axis.spatial(144, ax0_ax1_ax2_fused // 784 + ax0)
                    v1 = T.axis.spatial(28, ax0_ax1_ax2_fused % 784 // 28 + ax1)
                    v2 = T.axis.spatial(28, ax0_ax1_ax2_fused % 28 + ax2)
                    T.reads(DepthwiseConv2d_local[0, v0, v1, v2], b[v0])
                    T.writes(T_bias_relu6[0, v0, v1, v2])
                    T_bias_relu6[0, v0, v1, v2] = T.min(T.max(DepthwiseConv2d_local[0, v0, v1, v2] + b[v0], T.float32(0.0)), T.float32(6.0))
