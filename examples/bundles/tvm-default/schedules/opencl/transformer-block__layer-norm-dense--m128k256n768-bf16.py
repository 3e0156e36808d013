# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((128, 256), "bfloat16"), gamma: T.Buffer((256,), "bfloat16"), beta: T.Buffer((256,), "bfloat16"), W: T.Buffer((768, 256), "bfloat16"), b: T.Buffer((768,), "bfloat16"), T_bias_bf16: T.Buffer((128, 768), "bfloat16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        X_f32_sum = T.sblock_alloc_buffer((128,))
        X_f32_var_sum = T.sblock_alloc_buffer((128,))
        T_matmul = T.sblock_alloc_buffer((128, 768))
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("X_f32_sum_init"):
                    v0 = T.axis.spatial(128, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 128)
                    T.reads()
                    T.writes(X_f32_sum[v0])
                    X_f32_sum[v0] = T.float32(0.0)
                for ax1 in range(256):
                    with T.sblock("X_f32_sum_update"):
                        v0 = T.axis.spatial(128, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(256, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 128)
                        T.reads(X_f32_sum[v0], X[v0, v1])
                        T.writes(X_f32_sum[v0])
                        X_f32_sum[v0] = X_f32_sum[v0] + T.Cast("float32", X[v0, v1])
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("X_f32_var_sum_init"):
                    v0 = T.axis.spatial(128, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 128)
                    T.reads()
                    T.writes(X_f32_var_sum[v0])
                    X_f32_var_sum[v0] = T.float32(0.0)
                for ax1 in range(256):
                    with T.sblock("X_f32_var_sum_update"):
                        v0 = T.axis.spatial(128, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(256, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 128)
                        T.reads(X_f32_var_sum[v0], X[v0, v1], X_f32_sum[v0])
                        T.writes(X_f32_var_sum[v0])
                        X_f32_var_sum[v0] = X_f32_var_sum[v0] + (T.Cast("float32", X[v0, v1]) - X_f32_sum[v0] / T.float32(256.0)) * (T.Cast("float32", X[v0, v1]) - X_f32_sum[v0] / T.float32(256.0))
        for ax0_ax1_fused_0 in T.thread_binding(384, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_matmul_init"):
                    v0 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 768)
                    v1 = T.axis.spatial(768, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 768)
                    T.reads()
                    T.writes(T_matmul[v0, v1])
                    T_matmul[v0, v1] = T.float32(0.0)
                for ax2 in range(256):
                    with T.sblock("T_matmul_update"):
                        v0 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 768)
                        v1 = T.axis.spatial(768, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 768)
                        v2 = T.axis.reduce(256, ax2)
                        T.reads(T_matmul[v0, v1], X[v0, v2], X_f32_sum[v0], X_f32_var_sum[v0], gamma[v2], beta[v2], W[v1, v2])
                        T.writes(T_matmul[v0, v1])
                        T_matmul[v0, v1] = T_matmul[v0, v1] + ((T.Cast("float32", X[v0, v2]) - X_f32_sum[v0] / T.float32(256.0)) * T.rsqrt(X_f32_var_sum[v0] / T.float32(256.0) + T.float32(1.0000000000000001e-05)) * T.Cast("float32", gamma[v2]) + T.Cast("float32", beta[v2])) * T.Cast("float32", W[v1, v2])
        for ax0_ax1_fused_0 in T.thread_binding(384, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_bias_bf16"):
                    v0 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 768)
                    v1 = T.axis.spatial(768, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 768)
                    T.reads(T_matmul[v0, v1], b[v1])
                    T.writes(T_bias_bf16[v0, v1])
                    T_bias_bf16[v0, v1] = T.Cast("bfloat16", T_matmul[v0, v1] + T.Cast("float32", b[v1]))
