# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 40, 28, 28), "float32"), Wp: T.Buffer((60, 40, 1, 1), "float32"), bp: T.Buffer((60,), "float32"), Wc: T.Buffer((60, 1, 3, 3), "float32"), bc: T.Buffer((60,), "float32"), T_concat: T.Buffer((1, 120, 28, 28), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        conv2d_nchw = T.sblock_alloc_buffer((1, 60, 28, 28))
        DepthwiseConv2d = T.sblock_alloc_buffer((1, 60, 28, 28))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(184, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv2d_nchw_init"):
                    v0 = T.axis.spatial(60, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                    v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                    v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 47040)
                    T.reads()
                    T.writes(conv2d_nchw[0, v0, v1, v2])
                    conv2d_nchw[0, v0, v1, v2] = T.float32(0.0)
                for ax3 in range(40):
                    with T.sblock("conv2d_nchw_update"):
                        v0 = T.axis.spatial(60, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                        v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                        v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                        v3 = T.axis.reduce(40, ax3)
                        T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 47040)
                        T.reads(conv2d_nchw[0, v0, v1, v2], X[0, v3, v1, v2], Wp[v0, v3, 0, 0])
                        T.writes(conv2d_nchw[0, v0, v1, v2])
                        conv2d_nchw[0, v0, v1, v2] = conv2d_nchw[0, v0, v1, v2] + X[0, v3, v1, v2] * Wp[v0, v3, 0, 0]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(184, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("DepthwiseConv2d_init"):
                    v0 = T.axis.spatial(60, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                    v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                    v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 47040)
                    T.reads()
                    T.writes(DepthwiseConv2d[0, v0, v1, v2])
                    DepthwiseConv2d[0, v0, v1, v2] = T.float32(0.0)
                for ax3, ax4 in T.grid(3, 3):
                    with T.sblock("DepthwiseConv2d_update"):
                        v0 = T.axis.spatial(60, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                        v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                        v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                        v3, v4 = T.axis.remap("RR", [ax3, ax4])
                        T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 47040)
                        T.reads(DepthwiseConv2d[0, v0, v1, v2], conv2d_nchw[0, v0, v1 + v3 - 1, v2 + v4 - 1], bp[v0], Wc[v0, 0, v3, v4])
                        T.writes(DepthwiseConv2d[0, v0, v1, v2])
                        DepthwiseConv2d[0, v0, v1, v2] = DepthwiseConv2d[0, v0, v1, v2] + T.if_then_else(1 <= v1 + v3 and v1 + v3 < 29 and 1 <= v2 + v4 and v2 + v4 < 29, T.max(conv2d_nchw[0, v0, v1 + v3 - 1, v2 + v4 - 1] + bp[v0], T.float32(0.0)), T.float32(0.0)) * Wc[v0, 0, v3, v4]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(368, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_concat"):
                    v0 = T.axis.spatial(120, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                    v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                    v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 94080)
                    T.reads(DepthwiseConv2d[0, v0 - 60, v1, v2], bc[v0 - 60], conv2d_nchw[0, v0, v1, v2], bp[v0])
                    T.writes(T_concat[0, v0, v1, v2])
                    T_concat[0, v0, v1, v2] = T.if_then_else(60 <= v0, T.max(DepthwiseConv2d[0, v0 - 60, v1, v2] + bc[v0 - 60], T.float32(0.0)), T.max(conv2d_nchw[0, v0, v1, v2] + bp[v0], T.float32(0.0)))
