# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 56, 56, 64), "float32"), W: T.Buffer((1, 1, 16, 64), "float32"), group_conv2d_nhwc: T.Buffer((1, 56, 56, 64), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(784, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("group_conv2d_nhwc_init"):
                    v0 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3584)
                    v1 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3584 // 64)
                    v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                    T.reads()
                    T.writes(group_conv2d_nhwc[0, v0, v1, v2])
                    group_conv2d_nhwc[0, v0, v1, v2] = T.float32(0.0)
                for ax3 in range(16):
                    with T.sblock("group_conv2d_nhwc_update"):
                        v0 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3584)
                        v1 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3584 // 64)
                        v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                        v3 = T.axis.reduce(16, ax3)
                        T.reads(group_conv2d_nhwc[0, v0, v1, v2], X[0, v0, v1, v2 // 16 * 16 + v3], W[0, 0, v3, v2])
                        T.writes(group_conv2d_nhwc[0, v0, v1, v2])
                        group_conv2d_nhwc[0, v0, v1, v2] = group_conv2d_nhwc[0, v0, v1, v2] + X[0, v0, v1, v2 // 16 * 16 + v3] * W[0, 0, v3, v2]
