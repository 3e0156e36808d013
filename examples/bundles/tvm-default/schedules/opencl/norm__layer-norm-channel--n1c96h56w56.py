# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 96, 56, 56), "float32"), gamma: T.Buffer((96,), "float32"), beta: T.Buffer((96,), "float32"), T_layer_norm: T.Buffer((1, 96, 56, 56), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        X_sum_shared = T.sblock_alloc_buffer((1, 56, 56), scope="shared")
        X_var_sum_shared = T.sblock_alloc_buffer((1, 56, 56), scope="shared")
        for ax1_ax2_fused in T.thread_binding(3136, thread="blockIdx.x"):
            for ax0, ax1 in T.grid(1, 1):
                for ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax2_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("X_sum"):
                            v0 = T.axis.spatial(56, ax1_ax2_fused // 56 + ax0)
                            v1 = T.axis.spatial(56, ax1_ax2_fused % 56 + ax1)
                            v2 = T.axis.reduce(96, ax2_fused_0 * 256 + ax2_fused_1)
                            T.where(ax2_fused_0 * 256 + ax2_fused_1 < 96)
                            T.reads(X[0, v2, v0, v1])
                            T.writes(X_sum_shared[0, v0, v1])
                            with T.init():
                                X_sum_shared[0, v0, v1] = T.float32(0.0)
                            X_sum_shared[0, v0, v1] = X_sum_shared[0, v0, v1] + X[0, v2, v0, v1]
            for ax0, ax1 in T.grid(1, 1):
                for ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax2_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("X_var_sum"):
                            v0 = T.axis.spatial(56, ax1_ax2_fused // 56 + ax0)
                            v1 = T.axis.spatial(56, ax1_ax2_fused % 56 + ax1)
                            v2 = T.axis.reduce(96, ax2_fused_0 * 256 + ax2_fused_1)
                            T.where(ax2_fused_0 * 256 + ax2_fused_1 < 96)
                            T.reads(X[0, v2, v0, v1], X_sum_shared[0, v0, v1])
                            T.writes(X_var_sum_shared[0, v0, v1])
                            with T.init():
                                X_var_sum_shared[0, v0, v1] = T.float32(0.0)
                            X_var_sum_shared[0, v0, v1] = X_var_sum_shared[0, v0, v1] + (X[0, v2, v0, v1] - X_sum_shared[0, v0, v1] / T.float32(96.0)) * (X[0, v2, v0, v1] - X_sum_shared[0, v0, v1] / T.float32(96.0))
            for ax0_1 in T.thread_binding(256, thread="threadIdx.x"):
                for ax0_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_layer_norm"):
                        v0 = T.axis.spatial(96, ax0_0 * 256 + ax0_1)
                        v1 = T.axis.spatial(56, ax1_ax2_fused // 56)
                        v2 = T.axis.spatial(56, ax1_ax2_fused % 56)
                        T.where(ax0_0 * 256 + ax0_1 < 96)
                        T.reads(X[0, v0, v1, v2], X_sum_shared[0, v1, v2], X_var_sum_shared[0, v1, v2], gamma[v0], beta[v0])
                        T.writes(T_layer_norm[0, v0, v1, v2])
                        T_layer_norm[0, v0, v1, v2] = (X[0, v0, v1, v2] - X_sum_shared[0, v1, v2] / T.float32(96.0)) * T.rsqrt(X_var_sum_shared[0, v1, v2] / T.float32(96.0) + T.float32(1.0000000000000001e-05)) * gamma[v0] + beta[v0]
