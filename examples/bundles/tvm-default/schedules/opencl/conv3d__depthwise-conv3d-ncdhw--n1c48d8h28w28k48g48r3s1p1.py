# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 48, 8, 28, 28), "float32"), W: T.Buffer((48, 1, 3, 3, 3), "float32"), group_conv3d_ncdhw: T.Buffer((1, 48, 8, 28, 28), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_ax3_fused_0 in T.thread_binding(1176, thread="blockIdx.x"):
            for ax0_ax1_ax2_ax3_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("group_conv3d_ncdhw_init"):
                    v0 = T.axis.spatial(48, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) // 6272)
                    v1 = T.axis.spatial(8, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 6272 // 784)
                    v2 = T.axis.spatial(28, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 784 // 28)
                    v3 = T.axis.spatial(28, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 28)
                    T.reads()
                    T.writes(group_conv3d_ncdhw[0, v0, v1, v2, v3])
                    group_conv3d_ncdhw[0, v0, v1, v2, v3] = T.float32(0.0)
                for ax4, ax5, ax6 in T.grid(3, 3, 3):
                    with T.sblock("group_conv3d_ncdhw_update"):
                        v0 = T.axis.spatial(48, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) // 6272)
                        v1 = T.axis.spatial(8, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 6272 // 784)
                        v2 = T.axis.spatial(28, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 784 // 28)
                        v3 = T.axis.spatial(28, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 28)
                        v4, v5, v6 = T.axis.remap("RRR", [ax4, ax5, ax6])
                        T.reads(group_conv3d_ncdhw[0, v0, v1, v2, v3], X[0, v0, v1 + v4 - 1, v2 + v5 - 1, v3 + v6 - 1], W[v0, 0, v4, v5, v6])
                        T.writes(group_conv3d_ncdhw[0, v0, v1, v2, v3])
                        group_conv3d_ncdhw[0, v0, v1, v2, v3] = group_conv3d_ncdhw[0, v0, v1, v2, v3] + T.if_then_else(1 <= v1 + v4 and v1 + v4 < 9 and 1 <= v2 + v5 and v2 + v5 < 29 and 1 <= v3 + v6 and v3 + v6 < 29, X[0, v0, v1 + v4 - 1, v2 + v5 - 1, v3 + v6 - 1], T.float32(0.0)) * W[v0, 0, v4, v5, v6]
