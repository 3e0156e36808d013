# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 64), "float32"), W: T.Buffer((12, 64), "float32"), b: T.Buffer((12,), "float32"), T_softmax_norm: T.Buffer((1, 12), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_matmul_shared = T.sblock_alloc_buffer((1, 12), scope="shared")
        T_softmax_maxelem_shared = T.sblock_alloc_buffer((1,), scope="shared")
        T_softmax_expsum_shared = T.sblock_alloc_buffer((1,), scope="shared")
        for ax0_fused in T.thread_binding(12, thread="blockIdx.x"):
            for ax0 in range(12):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_matmul"):
                            v0 = T.axis.spatial(12, ax0)
                            v1 = T.axis.reduce(64, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 64)
                            T.reads(X[0, v1], W[v0, v1])
                            T.writes(T_matmul_shared[0, v0])
                            with T.init():
                                T_matmul_shared[0, v0] = T.float32(0.0)
                            T_matmul_shared[0, v0] = T_matmul_shared[0, v0] + X[0, v1] * W[v0, v1]
            for ax0 in range(T.int64(1)):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_softmax_maxelem"):
                            v0 = T.axis.spatial(T.int64(1), ax0)
                            v1 = T.axis.reduce(12, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 12)
                            T.reads(T_matmul_shared[0, v1], b[v1])
                            T.writes(T_softmax_maxelem_shared[0])
                            with T.init():
                                T_softmax_maxelem_shared[0] = T.float32(-340282346638528859811704183484516925440.0)
                            T_softmax_maxelem_shared[0] = T.max(T_softmax_maxelem_shared[0], T_matmul_shared[0, v1] + b[v1])
            for ax0 in range(T.int64(1)):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_softmax_expsum"):
                            v0 = T.axis.spatial(T.int64(1), ax0)
                            v1 = T.axis.reduce(12, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 12)
                            T.reads(T_matmul_shared[0, v1], b[v1], T_softmax_maxelem_shared[0])
                            T.writes(T_softmax_expsum_shared[0])
                            with T.init():
                                T_softmax_expsum_shared[0] = T.float32(0.0)
                            T_softmax_expsum_shared[0] = T_softmax_expsum_shared[0] + T.exp(T_matmul_shared[0, v1] + b[v1] - T_softmax_maxelem_shared[0])
            for ax1_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                for ax1_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_softmax_norm"):
                        v0 = T.axis.spatial(12, ax0_fused)
                        v1 = T.axis.spatial(T.int64(1), ax1_0 * T.int64(256) + ax1_1)
                        T.where(ax1_0 * T.int64(256) + ax1_1 < T.int64(1))
                        T.reads(T_matmul_shared[0, v0], b[v0], T_softmax_maxelem_shared[0], T_softmax_expsum_shared[0])
                        T.writes(T_softmax_norm[0, v0])
                        T.sblock_attr({"axis": 1})
                        T_softmax_norm[0, v0] = T.exp(T_matmul_shared[0, v0] + b[v0] - T_softmax_maxelem_shared[0]) / T_softmax_expsum_shared[0]
