# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 64, 25, 5), "bfloat16"), W: T.Buffer((12, 64), "bfloat16"), b: T.Buffer((12,), "bfloat16"), T_softmax_norm_bf16: T.Buffer((1, 12), "bfloat16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_pool = T.sblock_alloc_buffer((1, 64))
        T_dense = T.sblock_alloc_buffer((1, 12))
        T_softmax_maxelem = T.sblock_alloc_buffer((1,))
        T_softmax_expsum = T.sblock_alloc_buffer((1,))
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_pool_init"):
                    v0 = T.axis.spatial(64, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 64)
                    T.reads()
                    T.writes(T_pool[0, v0])
                    T_pool[0, v0] = T.float32(0.0)
                for ax1, ax2 in T.grid(25, 5):
                    with T.sblock("T_pool_update"):
                        v0 = T.axis.spatial(64, ax0_fused_0 * 256 + ax0_fused_1)
                        v1, v2 = T.axis.remap("RR", [ax1, ax2])
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 64)
                        T.reads(T_pool[0, v0], X[0, v0, v1, v2])
                        T.writes(T_pool[0, v0])
                        T_pool[0, v0] = T_pool[0, v0] + T.Cast("float32", X[0, v0, v1, v2])
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_dense_init"):
                    v0 = T.axis.spatial(12, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 12)
                    T.reads()
                    T.writes(T_dense[0, v0])
                    T_dense[0, v0] = T.float32(0.0)
                for ax1 in range(64):
                    with T.sblock("T_dense_update"):
                        v0 = T.axis.spatial(12, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(64, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 12)
                        T.reads(T_dense[0, v0], T_pool[0, v1], W[v0, v1])
                        T.writes(T_dense[0, v0])
                        T_dense[0, v0] = T_dense[0, v0] + T_pool[0, v1] * T.float32(0.0080000000000000002) * T.Cast("float32", W[v0, v1])
        for ax0_fused_0 in T.thread_binding(T.int64(1), thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                with T.sblock("T_softmax_maxelem_init"):
                    v0 = T.axis.spatial(T.int64(1), T.int64(0))
                    T.where(ax0_fused_0 * T.int64(256) + ax0_fused_1 < T.int64(1))
                    T.reads()
                    T.writes(T_softmax_maxelem[0])
                    T_softmax_maxelem[0] = T.float32(-340282346638528859811704183484516925440.0)
                for ax1 in range(12):
                    with T.sblock("T_softmax_maxelem_update"):
                        v0 = T.axis.spatial(T.int64(1), T.int64(0))
                        v1 = T.axis.reduce(12, ax1)
                        T.where(ax0_fused_0 * T.int64(256) + ax0_fused_1 < T.int64(1))
                        T.reads(T_softmax_maxelem[0], T_dense[0, v1], b[v1])
                        T.writes(T_softmax_maxelem[0])
                        T_softmax_maxelem[0] = T.max(T_softmax_maxelem[0], T_dense[0, v1] + T.Cast("float32", b[v1]))
        for ax0_fused_0 in T.thread_binding(T.int64(1), thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                with T.sblock("T_softmax_expsum_init"):
                    v0 = T.axis.spatial(T.int64(1), T.int64(0))
                    T.where(ax0_fused_0 * T.int64(256) + ax0_fused_1 < T.int64(1))
                    T.reads()
                    T.writes(T_softmax_expsum[0])
                    T_softmax_expsum[0] = T.float32(0.0)
                for ax1 in range(12):
                    with T.sblock("T_softmax_expsum_update"):
                        v0 = T.axis.spatial(T.int64(1), T.int64(0))
                        v1 = T.axis.reduce(12, ax1)
                        T.where(ax0_fused_0 * T.int64(256) + ax0_fused_1 < T.int64(1))
                        T.reads(T_softmax_expsum[0], T_dense[0, v1], b[v1], T_softmax_maxelem[0])
                        T.writes(T_softmax_expsum[0])
                        T_softmax_expsum[0] = T_softmax_expsum[0] + T.exp(T_dense[0, v1] + T.Cast("float32", b[v1]) - T_softmax_maxelem[0])
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_softmax_norm_bf16"):
                    v0 = T.axis.spatial(12, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 12)
                    T.reads(T_dense[0, v0], b[v0], T_softmax_maxelem[0], T_softmax_expsum[0])
                    T.writes(T_softmax_norm_bf16[0, v0])
                    T_softmax_norm_bf16[0, v0] = T.Cast("bfloat16", T.exp(T_dense[0, v0] + T.Cast("float32", b[v0]) - T_softmax_maxelem[0]) / T_softmax_expsum[0])
