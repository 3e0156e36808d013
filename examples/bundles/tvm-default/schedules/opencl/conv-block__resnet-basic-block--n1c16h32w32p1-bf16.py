# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 16, 32, 32), "bfloat16"), W1: T.Buffer((16, 16, 3, 3), "bfloat16"), bn1_gamma: T.Buffer((16,), "bfloat16"), bn1_beta: T.Buffer((16,), "bfloat16"), bn1_mean: T.Buffer((16,), "bfloat16"), bn1_var: T.Buffer((16,), "bfloat16"), W2: T.Buffer((16, 16, 3, 3), "bfloat16"), bn2_gamma: T.Buffer((16,), "bfloat16"), bn2_beta: T.Buffer((16,), "bfloat16"), bn2_mean: T.Buffer((16,), "bfloat16"), bn2_var: T.Buffer((16,), "bfloat16"), T_add_relu_bf16: T.Buffer((1, 16, 32, 32), "bfloat16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        conv2d_nchw = T.sblock_alloc_buffer((1, 16, 32, 32))
        conv2d_nchw_1 = T.sblock_alloc_buffer((1, 16, 32, 32))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(64, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv2d_nchw_init"):
                    v0 = T.axis.spatial(16, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 1024)
                    v1 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 1024 // 32)
                    v2 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32)
                    T.reads()
                    T.writes(conv2d_nchw[0, v0, v1, v2])
                    conv2d_nchw[0, v0, v1, v2] = T.float32(0.0)
                for ax3, ax4, ax5 in T.grid(16, 3, 3):
                    with T.sblock("conv2d_nchw_update"):
                        v0 = T.axis.spatial(16, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 1024)
                        v1 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 1024 // 32)
                        v2 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32)
                        v3, v4, v5 = T.axis.remap("RRR", [ax3, ax4, ax5])
                        T.reads(conv2d_nchw[0, v0, v1, v2], X[0, v3, v1 + v4 - 1, v2 + v5 - 1], W1[v0, v3, v4, v5])
                        T.writes(conv2d_nchw[0, v0, v1, v2])
                        conv2d_nchw[0, v0, v1, v2] = conv2d_nchw[0, v0, v1, v2] + T.if_then_else(1 <= v1 + v4 and v1 + v4 < 33 and 1 <= v2 + v5 and v2 + v5 < 33, T.Cast("float32", X[0, v3, v1 + v4 - 1, v2 + v5 - 1]), T.float32(0.0)) * T.Cast("float32", W1[v0, v3, v4, v5])
        for ax0_ax1_ax2_fused_0 in T.thread_binding(64, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv2d_nchw_1_init"):
                    v0 = T.axis.spatial(16, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 1024)
                    v1 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 1024 // 32)
                    v2 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32)
                    T.reads()
                    T.writes(conv2d_nchw_1[0, v0, v1, v2])
                    conv2d_nchw_1[0, v0, v1, v2] = T.float32(0.0)
                for ax3, ax4, ax5 in T.grid(16, 3, 3):
                    with T.sblock("conv2d_nchw_1_update"):
                        v0 = T.axis.spatial(16, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 1024)
                        v1 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 1024 // 32)
                        v2 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32)
                        v3, v4, v5 = T.axis.remap("RRR", [ax3, ax4, ax5])
                        T.reads(conv2d_nchw_1[0, v0, v1, v2], conv2d_nchw[0, v3, v1 + v4 - 1, v2 + v5 - 1], bn1_mean[v3], bn1_var[v3], bn1_gamma[v3], bn1_beta[v3], W2[v0, v3, v4, v5])
                        T.writes(conv2d_nchw_1[0, v0, v1, v2])
                        conv2d_nchw_1[0, v0, v1, v2] = conv2d_nchw_1[0, v0, v1, v2] + T.if_then_else(1 <= v1 + v4 and v1 + v4 < 33 and 1 <= v2 + v5 and v2 + v5 < 33, T.max((conv2d_nchw[0, v3, v1 + v4 - 1, v2 + v5 - 1] - T.Cast("float32", bn1_mean[v3])) * T.rsqrt(T.Cast("float32", bn1_var[v3]) + T.float32(0.001)) * T.Cast("float32", bn1_gamma[v3]) + T.Cast("float32", bn1_beta[v3]), T.float32(0.0)), T.float32(0.0)) * T.Cast("float32", W2[v0, v3, v4, v5])
        for ax0_ax1_ax2_fused_0 in T.thread_binding(64, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_add_relu_bf16"):
                    v0 = T.axis.spatial(16, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 1024)
                    v1 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 1024 // 32)
                    v2 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32)
                    T.reads(conv2d_nchw_1[0, v0, v1, v2], bn2_mean[v0], bn2_var[v0], bn2_gamma[v0], bn2_beta[v0], X[0, v0, v1, v2])
                    T.writes(T_add_relu_bf16[0, v0, v1, v2])
                    T_add_relu_bf16[0, v0, v1, v2] = T.Cast("bfloat16", T.max((conv2d_nchw_1[0, v0, v1, v2] - T.Cast("float32", bn2_mean[v0])) * T.rsqrt(T.Cast("float32", bn2_var[v0]) + T.float32(0.001)) * T.Cast("float32", bn2_gamma[v0]) + T.Cast("float32", bn2_beta[v0]) + T.Cast("float32", X[0, v0, v1, v2]), T.float32(0.0)))
