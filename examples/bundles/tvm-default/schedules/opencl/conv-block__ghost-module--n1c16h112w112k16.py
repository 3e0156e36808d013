# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 16, 112, 112), "float32"), Wp: T.Buffer((8, 16, 1, 1), "float32"), bp: T.Buffer((8,), "float32"), Wc: T.Buffer((8, 1, 3, 3), "float32"), bc: T.Buffer((8,), "float32"), T_concat: T.Buffer((1, 16, 112, 112), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        conv2d_nchw = T.sblock_alloc_buffer((1, 8, 112, 112))
        DepthwiseConv2d = T.sblock_alloc_buffer((1, 8, 112, 112))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(392, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv2d_nchw_init"):
                    v0 = T.axis.spatial(8, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 12544)
                    v1 = T.axis.spatial(112, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 12544 // 112)
                    v2 = T.axis.spatial(112, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 112)
                    T.reads()
                    T.writes(conv2d_nchw[0, v0, v1, v2])
                    conv2d_nchw[0, v0, v1, v2] = T.float32(0.0)
                for ax3 in range(16):
                    with T.sblock("conv2d_nchw_update"):
                        v0 = T.axis.spatial(8, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 12544)
                        v1 = T.axis.spatial(112, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 12544 // 112)
                        v2 = T.axis.spatial(112, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 112)
                        v3 = T.axis.reduce(16, ax3)
                        T.reads(conv2d_nchw[0, v0, v1, v2], X[0, v3, v1, v2], Wp[v0, v3, 0, 0])
                        T.writes(conv2d_nchw[0, v0, v1, v2])
                        conv2d_nchw[0, v0, v1, v2] = conv2d_nchw[0, v0, v1, v2] + X[0, v3, v1, v2] * Wp[v0, v3, 0, 0]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(392, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("DepthwiseConv2d_init"):
                    v0 = T.axis.spatial(8, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 12544)
                    v1 = T.axis.spatial(112, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 12544 // 112)
                    v2 = T.axis.spatial(112, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 112)
                    T.reads()
                    T.writes(DepthwiseConv2d[0, v0, v1, v2])
                    DepthwiseConv2d[0, v0, v1, v2] = T.float32(0.0)
                for ax3, ax4 in T.grid(3, 3):
                    with T.sblock("DepthwiseConv2d_update"):
                        v0 = T.axis.spatial(8, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 12544)
                        v1 = T.axis.spatial(112, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 12544 // 112)
                        v2 = T.axis.spatial(112, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 112)
                        v3, v4 = T.axis.remap("RR", [ax3, ax4])
                        T.reads(DepthwiseConv2d[0, v0, v1, v2], conv2d_nchw[0, v0, v1 + v3 - 1, v2 + v4 - 1], bp[v0], Wc[v0, 0, v3, v4])
                        T.writes(DepthwiseConv2d[0, v0, v1, v2])
                        DepthwiseConv2d[0, v0, v1, v2] = DepthwiseConv2d[0, v0, v1, v2] + T.if_then_else(1 <= v1 + v3 and v1 + v3 < 113 and 1 <= v2 + v4 and v2 + v4 < 113, T.max(conv2d_nchw[0, v0, v1 + v3 - 1, v2 + v4 - 1] + bp[v0], T.float32(0.0)), T.float32(0.0)) * Wc[v0, 0, v3, v4]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(784, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_concat"):
                    v0 = T.axis.spatial(16, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 12544)
                    v1 = T.axis.spatial(112, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 12544 // 112)
                    v2 = T.axis.spatial(112, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 112)
                    T.reads(DepthwiseConv2d[0, v0 - 8, v1, v2], bc[v0 - 8], conv2d_nchw[0, v0, v1, v2], bp[v0])
                    T.writes(T_concat[0, v0, v1, v2])
                    T_concat[0, v0, v1, v2] = T.if_then_else(8 <= v0, T.max(DepthwiseConv2d[0, v0 - 8, v1, v2] + bc[v0 - 8], T.float32(0.0)), T.max(conv2d_nchw[0, v0, v1, v2] + bp[v0], T.float32(0.0)))
