# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 128, 28, 28), "float32"), W: T.Buffer((128, 16, 3, 3), "float32"), group_conv2d_nchw: T.Buffer((1, 128, 28, 28), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(392, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("group_conv2d_nchw_init"):
                    v0 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                    v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                    v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                    T.reads()
                    T.writes(group_conv2d_nchw[0, v0, v1, v2])
                    group_conv2d_nchw[0, v0, v1, v2] = T.float32(0.0)
                for ax3, ax4, ax5 in T.grid(16, 3, 3):
                    with T.sblock("group_conv2d_nchw_update"):
                        v0 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                        v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                        v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                        v3, v4, v5 = T.axis.remap("RRR", [ax3, ax4, ax5])
                        T.reads(group_conv2d_nchw[0, v0, v1, v2], X[0, v0 // 16 * 16 + v3, v1 + v4 - 1, v2 + v5 - 1], W[v0, v3, v4, v5])
                        T.writes(group_conv2d_nchw[0, v0, v1, v2])
                        group_conv2d_nchw[0, v0, v1, v2] = group_conv2d_nchw[0, v0, v1, v2] + T.if_then_else(1 <= v1 + v4 and v1 + v4 < 29 and 1 <= v2 + v5 and v2 + v5 < 29, X[0, v0 // 16 * 16 + v3, v1 + v4 - 1, v2 + v5 - 1], T.float32(0.0)) * W[v0, v3, v4, v5]
