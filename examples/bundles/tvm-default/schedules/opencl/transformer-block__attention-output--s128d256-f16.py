# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(C: T.Buffer((128, 256), "float16"), W: T.Buffer((256, 256), "float16"), b: T.Buffer((256,), "float16"), R_1: T.Buffer((128, 256), "float16"), gamma: T.Buffer((256,), "float16"), beta: T.Buffer((256,), "float16"), T_layer_norm_f16: T.Buffer((128, 256), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_matmul = T.sblock_alloc_buffer((128, 256))
        T_residual_sum = T.sblock_alloc_buffer((128,))
        T_residual_var_sum = T.sblock_alloc_buffer((128,))
        for ax0_ax1_fused_0 in T.thread_binding(128, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_matmul_init"):
                    v0 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 256)
                    v1 = T.axis.spatial(256, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 256)
                    T.reads()
                    T.writes(T_matmul[v0, v1])
                    T_matmul[v0, v1] = T.float32(0.0)
                for ax2 in range(256):
                    with T.sblock("T_matmul_update"):
                        v0 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 256)
                        v1 = T.axis.spatial(256, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 256)
                        v2 = T.axis.reduce(256, ax2)
                        T.reads(T_matmul[v0, v1], C[v0, v2], W[v1, v2])
                        T.writes(T_matmul[v0, v1])
                        T_matmul[v0, v1] = T_matmul[v0, v1] + T.Cast("float32", C[v0, v2]) * T.Cast("float32", W[v1, v2])
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_residual_sum_init"):
                    v0 = T.axis.spatial(128, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 128)
                    T.reads()
                    T.writes(T_residual_sum[v0])
                    T_residual_sum[v0] = T.float32(0.0)
                for ax1 in range(256):
                    with T.sblock("T_residual_sum_update"):
                        v0 = T.axis.spatial(128, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(256, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 128)
                        T.reads(T_residual_sum[v0], T_matmul[v0, v1], b[v1], R_1[v0, v1])
                        T.writes(T_residual_sum[v0])
                        T_residual_sum[v0] = T_residual_sum[v0] + (T_matmul[v0, v1] + T.Cast("float32", b[v1]) + T.Cast("float32", R_1[v0, v1]))
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_residual_var_sum_init"):
                    v0 = T.axis.spatial(128, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 128)
                    T.reads()
                    T.writes(T_residual_var_sum[v0])
                    T_residual_var_sum[v0] = T.float32(0.0)
                for ax1 in range(256):
                    with T.sblock("T_residual_var_sum_update"):
                        v0 = T.axis.spatial(128, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(256, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 128)
                        T.reads(T_residual_var_sum[v0], T_matmul[v0, v1], b[v1], R_1[v0, v1], T_residual_sum[v0])
                        T.writes(T_residual_var_sum[v0])
                        T_residual_var_sum[v0] = T_residual_var_sum[v0] + (T_matmul[v0, v1] + T.Cast("float32", b[v1]) + T.Cast("float32", R_1[v0, v1]) - T_residual_sum[v0] / T.float32(256.0)) * (T_matmul[v0, v1] + T.Cast("float32", b[v1]) + T.Cast("float32", R_1[v0, v1]) - T_residual_sum[v0] / T.float32(256.0))
        for ax0_ax1_fused_0 in T.thread_binding(128, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_layer_norm_f16"):
                    v0 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 256)
                    v1 = T.axis.spatial(256, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 256)
                    T.reads(T_matmul[v0, v1], b[v1], R_1[v0, v1], T_residual_sum[v0], T_residual_var_sum[v0], gamma[v1], beta[v1])
                    T.writes(T_layer_norm_f16[v0, v1])
                    T_layer_norm_f16[v0, v1] = T.Cast("float16", (T_matmul[v0, v1] + T.Cast("float32", b[v1]) + T.Cast("float32", R_1[v0, v1]) - T_residual_sum[v0] / T.float32(256.0)) * T.rsqrt(T_residual_var_sum[v0] / T.float32(256.0) + T.float32(1.0000000000000001e-05)) * T.Cast("float32", gamma[v1]) + T.Cast("float32", beta[v1]))
