# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 128, 28, 28), "float32"), W1: T.Buffer((32, 128, 1, 1), "float32"), b1: T.Buffer((32,), "float32"), W2: T.Buffer((32, 32, 3, 3), "float32"), b2: T.Buffer((32,), "float32"), W3: T.Buffer((128, 32, 1, 1), "float32"), b3: T.Buffer((128,), "float32"), T_expand_add_relu: T.Buffer((1, 128, 28, 28), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        conv2d_nchw = T.sblock_alloc_buffer((1, 32, 28, 28))
        conv2d_nchw_1 = T.sblock_alloc_buffer((1, 32, 28, 28))
        conv2d_nchw_2 = T.sblock_alloc_buffer((1, 128, 28, 28))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(98, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv2d_nchw_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                    v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                    v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                    T.reads()
                    T.writes(conv2d_nchw[0, v0, v1, v2])
                    conv2d_nchw[0, v0, v1, v2] = T.float32(0.0)
                for ax3 in range(128):
                    with T.sblock("conv2d_nchw_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                        v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                        v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                        v3 = T.axis.reduce(128, ax3)
                        T.reads(conv2d_nchw[0, v0, v1, v2], X[0, v3, v1, v2], W1[v0, v3, 0, 0])
                        T.writes(conv2d_nchw[0, v0, v1, v2])
                        conv2d_nchw[0, v0, v1, v2] = conv2d_nchw[0, v0, v1, v2] + X[0, v3, v1, v2] * W1[v0, v3, 0, 0]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(98, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv2d_nchw_1_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                    v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                    v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                    T.reads()
                    T.writes(conv2d_nchw_1[0, v0, v1, v2])
                    conv2d_nchw_1[0, v0, v1, v2] = T.float32(0.0)
                for ax3, ax4, ax5 in T.grid(32, 3, 3):
                    with T.sblock("conv2d_nchw_1_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                        v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                        v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                        v3, v4, v5 = T.axis.remap("RRR", [ax3, ax4, ax5])
                        T.reads(conv2d_nchw_1[0, v0, v1, v2], conv2d_nchw[0, v3, v1 + v4 - 1, v2 + v5 - 1], b1[v3], W2[v0, v3, v4, v5])
                        T.writes(conv2d_nchw_1[0, v0, v1, v2])
                        conv2d_nchw_1[0, v0, v1, v2] = conv2d_nchw_1[0, v0, v1, v2] + T.if_then_else(1 <= v1 + v4 and v1 + v4 < 29 and 1 <= v2 + v5 and v2 + v5 < 29, T.max(conv2d_nchw[0, v3, v1 + v4 - 1, v2 + v5 - 1] + b1[v3], T.float32(0.0)), T.float32(0.0)) * W2[v0, v3, v4, v5]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(392, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv2d_nchw_2_init"):
                    v0 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                    v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                    v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                    T.reads()
                    T.writes(conv2d_nchw_2[0, v0, v1, v2])
                    conv2d_nchw_2[0, v0, v1, v2] = T.float32(0.0)
                for ax3 in range(32):
                    with T.sblock("conv2d_nchw_2_update"):
                        v0 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                        v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                        v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                        v3 = T.axis.reduce(32, ax3)
                        T.reads(conv2d_nchw_2[0, v0, v1, v2], conv2d_nchw_1[0, v3, v1, v2], b2[v3], W3[v0, v3, 0, 0])
                        T.writes(conv2d_nchw_2[0, v0, v1, v2])
                        conv2d_nchw_2[0, v0, v1, v2] = conv2d_nchw_2[0, v0, v1, v2] + T.max(conv2d_nchw_1[0, v3, v1, v2] + b2[v3], T.float32(0.0)) * W3[v0, v3, 0, 0]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(392, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_expand_add_relu"):
                    v0 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                    v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                    v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                    T.reads(conv2d_nchw_2[0, v0, v1, v2], b3[v0], X[0, v0, v1, v2])
                    T.writes(T_expand_add_relu[0, v0, v1, v2])
                    T_expand_add_relu[0, v0, v1, v2] = T.max(conv2d_nchw_2[0, v0, v1, v2] + b3[v0] + X[0, v0, v1, v2], T.float32(0.0))
