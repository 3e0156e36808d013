# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((128, 768), "bfloat16"), gamma: T.Buffer((768,), "bfloat16"), beta: T.Buffer((768,), "bfloat16"), T_layer_norm_bf16: T.Buffer((128, 768), "bfloat16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        X_f32_sum_shared = T.sblock_alloc_buffer((128,), scope="shared")
        X_f32_var_sum_shared = T.sblock_alloc_buffer((128,), scope="shared")
        for ax0_fused in T.thread_binding(128, thread="blockIdx.x"):
            for ax0 in range(1):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(3, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("X_f32_sum"):
                            v0 = T.axis.spatial(128, ax0_fused + ax0)
                            v1 = T.axis.reduce(768, ax1_fused_0 * 256 + ax1_fused_1)
                            T.reads(X[v0, v1])
                            T.writes(X_f32_sum_shared[v0])
                            with T.init():
                                X_f32_sum_shared[v0] = T.float32(0.0)
                            X_f32_sum_shared[v0] = X_f32_sum_shared[v0] + T.Cast("float32", X[v0, v1])
            for ax0 in range(1):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(3, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("X_f32_var_sum"):
                            v0 = T.axis.spatial(128, ax0_fused + ax0)
                            v1 = T.axis.reduce(768, ax1_fused_0 * 256 + ax1_fused_1)
                            T.reads(X[v0, v1], X_f32_sum_shared[v0])
                            T.writes(X_f32_var_sum_shared[v0])
                            with T.init():
                                X_f32_var_sum_shared[v0] = T.float32(0.0)
                            X_f32_var_sum_shared[v0] = X_f32_var_sum_shared[v0] + (T.Cast("float32", X[v0, v1]) - X_f32_sum_shared[v0] / T.float32(768.0)) * (T.Cast("float32", X[v0, v1]) - X_f32_sum_shared[v0] / T.float32(768.0))
            for ax1_1 in T.thread_binding(256, thread="threadIdx.x"):
                for ax1_0 in T.serial(3, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_layer_norm_bf16"):
                        v0 = T.axis.spatial(128, ax0_fused)
                        v1 = T.axis.spatial(768, ax1_0 * 256 + ax1_1)
                        T.reads(X[v0, v1], X_f32_sum_shared[v0], X_f32_var_sum_shared[v0], gamma[v1], beta[v1])
                        T.writes(T_layer_norm_bf16[v0, v1])
                        T_layer_norm_bf16[v0, v1] = T.Cast("bfloat16", (T.Cast("float32", X[v0, v1]) - X_f32_sum_shared[v0] / T.float32(768.0)) * T.rsqrt(X_f32_var_sum_shared[v0] / T.float32(768.0) + T.float32(1.0000000000000001e-05)) * T.Cast("float32", gamma[v1]) + T.Cast("float32", beta[v1]))
