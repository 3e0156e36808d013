# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((32, 10), "float32"), t: T.Buffer((32,), "int32"), T_cross_entropy: T.Buffer((1,), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_max_shared = T.sblock_alloc_buffer((32,), scope="shared")
        T_sum_exp_shared = T.sblock_alloc_buffer((32,), scope="shared")
        T_nll_shared = T.sblock_alloc_buffer((1,), scope="shared")
        for ax0_fused in T.thread_binding(T.int64(1), thread="blockIdx.x"):
            for ax0 in range(32):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_max"):
                            v0 = T.axis.spatial(32, ax0)
                            v1 = T.axis.reduce(10, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 10)
                            T.reads(X[v0, v1])
                            T.writes(T_max_shared[v0])
                            with T.init():
                                T_max_shared[v0] = T.float32(-340282346638528859811704183484516925440.0)
                            T_max_shared[v0] = T.max(T_max_shared[v0], X[v0, v1])
            for ax0 in range(32):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_sum_exp"):
                            v0 = T.axis.spatial(32, ax0)
                            v1 = T.axis.reduce(10, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 10)
                            T.reads(X[v0, v1], T_max_shared[v0])
                            T.writes(T_sum_exp_shared[v0])
                            with T.init():
                                T_sum_exp_shared[v0] = T.float32(0.0)
                            T_sum_exp_shared[v0] = T_sum_exp_shared[v0] + T.exp(X[v0, v1] - T_max_shared[v0])
            for ax0 in range(T.int64(1)):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_nll"):
                            v0 = T.axis.spatial(T.int64(1), ax0)
                            v1 = T.axis.reduce(32, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 32)
                            T.reads(T_max_shared[v1], T_sum_exp_shared[v1], X[v1, t[v1]], t[v1])
                            T.writes(T_nll_shared[0])
                            with T.init():
                                T_nll_shared[0] = T.float32(0.0)
                            T_nll_shared[0] = T_nll_shared[0] + (T_max_shared[v1] + T.log(T_sum_exp_shared[v1]) - X[v1, t[v1]])
            for ax1_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                for ax1_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_cross_entropy"):
                        v0 = T.axis.spatial(T.int64(1), T.int64(0))
                        v1 = T.axis.spatial(T.int64(1), ax1_0 * T.int64(256) + ax1_1)
                        T.where(ax1_0 * T.int64(256) + ax1_1 < T.int64(1))
                        T.reads(T_nll_shared[0])
                        T.writes(T_cross_entropy[0])
                        T_cross_entropy[0] = T_nll_shared[0] * T.float32(0.03125)
