# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 256, 256), "float32"), T_frobenius_norm: T.Buffer((1,), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_row_sumsq_shared = T.sblock_alloc_buffer((1, 256), scope="shared")
        T_sumsq_shared = T.sblock_alloc_buffer((1,), scope="shared")
        for ax0_fused in T.thread_binding(T.int64(1), thread="blockIdx.x"):
            for ax0 in range(256):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_row_sumsq"):
                            v0 = T.axis.spatial(256, ax0)
                            v1 = T.axis.reduce(256, ax1_fused_0 * 256 + ax1_fused_1)
                            T.reads(X[0, v0, v1])
                            T.writes(T_row_sumsq_shared[0, v0])
                            with T.init():
                                T_row_sumsq_shared[0, v0] = T.float32(0.0)
                            T_row_sumsq_shared[0, v0] = T_row_sumsq_shared[0, v0] + X[0, v0, v1] * X[0, v0, v1]
            for ax0 in range(T.int64(1)):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_sumsq"):
                            v0 = T.axis.spatial(T.int64(1), ax0)
                            v1 = T.axis.reduce(256, ax1_fused_0 * 256 + ax1_fused_1)
                            T.reads(T_row_sumsq_shared[0, v1])
                            T.writes(T_sumsq_shared[0])
                            with T.init():
                                T_sumsq_shared[0] = T.float32(0.0)
                            T_sumsq_shared[0] = T_sumsq_shared[0] + T_row_sumsq_shared[0, v1]
            for ax1_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                for ax1_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_frobenius_norm"):
                        v0 = T.axis.spatial(T.int64(1), T.int64(0))
                        v1 = T.axis.spatial(T.int64(1), ax1_0 * T.int64(256) + ax1_1)
                        T.where(ax1_0 * T.int64(256) + ax1_1 < T.int64(1))
                        T.reads(T_sumsq_shared[0])
                        T.writes(T_frobenius_norm[0])
                        T_frobenius_norm[0] = T.sqrt(T_sumsq_shared[0])
