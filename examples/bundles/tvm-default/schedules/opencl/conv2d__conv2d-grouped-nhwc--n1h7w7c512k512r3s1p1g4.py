# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 7, 7, 512), "float32"), W: T.Buffer((3, 3, 128, 512), "float32"), group_conv2d_nhwc: T.Buffer((1, 7, 7, 512), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(98, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("group_conv2d_nhwc_init"):
                    v0 = T.axis.spatial(7, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3584)
                    v1 = T.axis.spatial(7, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3584 // 512)
                    v2 = T.axis.spatial(512, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 512)
                    T.reads()
                    T.writes(group_conv2d_nhwc[0, v0, v1, v2])
                    group_conv2d_nhwc[0, v0, v1, v2] = T.float32(0.0)
                for ax3, ax4, ax5 in T.grid(3, 3, 128):
                    with T.sblock("group_conv2d_nhwc_update"):
                        v0 = T.axis.spatial(7, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3584)
                        v1 = T.axis.spatial(7, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3584 // 512)
                        v2 = T.axis.spatial(512, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 512)
                        v3, v4, v5 = T.axis.remap("RRR", [ax3, ax4, ax5])
                        T.reads(group_conv2d_nhwc[0, v0, v1, v2], X[0, v0 + v3 - 1, v1 + v4 - 1, v2 // 128 * 128 + v5], W[v3, v4, v5, v2])
                        T.writes(group_conv2d_nhwc[0, v0, v1, v2])
                        group_conv2d_nhwc[0, v0, v1, v2] = group_conv2d_nhwc[0, v0, v1, v2] + T.if_then_else(1 <= v0 + v3 and v0 + v3 < 8 and 1 <= v1 + v4 and v1 + v4 < 8, X[0, v0 + v3 - 1, v1 + v4 - 1, v2 // 128 * 128 + v5], T.float32(0.0)) * W[v3, v4, v5, v2]
