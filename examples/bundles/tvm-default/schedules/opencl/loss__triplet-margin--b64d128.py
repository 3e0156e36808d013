# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((64, 128), "float32"), P: T.Buffer((64, 128), "float32"), N: T.Buffer((64, 128), "float32"), T_triplet_margin: T.Buffer((1,), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_positive_sumsq_shared = T.sblock_alloc_buffer((64,), scope="shared")
        T_negative_sumsq_shared = T.sblock_alloc_buffer((64,), scope="shared")
        T_hinge_sum_shared = T.sblock_alloc_buffer((1,), scope="shared")
        for ax0_fused in T.thread_binding(T.int64(1), thread="blockIdx.x"):
            for ax0 in range(64):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_negative_sumsq"):
                            v0 = T.axis.spatial(64, ax0)
                            v1 = T.axis.reduce(128, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 128)
                            T.reads(A[v0, v1], N[v0, v1])
                            T.writes(T_negative_sumsq_shared[v0])
                            with T.init():
                                T_negative_sumsq_shared[v0] = T.float32(0.0)
                            T_negative_sumsq_shared[v0] = T_negative_sumsq_shared[v0] + (A[v0, v1] - N[v0, v1] + T.float32(9.9999999999999995e-07)) * (A[v0, v1] - N[v0, v1] + T.float32(9.9999999999999995e-07))
            for ax0 in range(64):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_positive_sumsq"):
                            v0 = T.axis.spatial(64, ax0)
                            v1 = T.axis.reduce(128, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 128)
                            T.reads(A[v0, v1], P[v0, v1])
                            T.writes(T_positive_sumsq_shared[v0])
                            with T.init():
                                T_positive_sumsq_shared[v0] = T.float32(0.0)
                            T_positive_sumsq_shared[v0] = T_positive_sumsq_shared[v0] + (A[v0, v1] - P[v0, v1] + T.float32(9.9999999999999995e-07)) * (A[v0, v1] - P[v0, v1] + T.float32(9.9999999999999995e-07))
            for ax0 in range(T.int64(1)):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_hinge_sum"):
                            v0 = T.axis.spatial(T.int64(1), ax0)
                            v1 = T.axis.reduce(64, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 64)
                            T.reads(T_positive_sumsq_shared[v1], T_negative_sumsq_shared[v1])
                            T.writes(T_hinge_sum_shared[0])
                            with T.init():
                                T_hinge_sum_shared[0] = T.float32(0.0)
                            T_hinge_sum_shared[0] = T_hinge_sum_shared[0] + T.max(T.sqrt(T_positive_sumsq_shared[v1]) - T.sqrt(T_negative_sumsq_shared[v1]) + T.float32(1.0), T.float32(0.0))
            for ax1_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                for ax1_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_triplet_margin"):
                        v0 = T.axis.spatial(T.int64(1), T.int64(0))
                        v1 = T.axis.spatial(T.int64(1), ax1_0 * T.int64(256) + ax1_1)
                        T.where(ax1_0 * T.int64(256) + ax1_1 < T.int64(1))
                        T.reads(T_hinge_sum_shared[0])
                        T.writes(T_triplet_margin[0])
                        T_triplet_margin[0] = T_hinge_sum_shared[0] * T.float32(0.015625)
