# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((32, 256), "float32"), W: T.Buffer((1000, 256), "float32"), b: T.Buffer((1000,), "float32"), T_softmax_norm: T.Buffer((32, 1000), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_matmul = T.sblock_alloc_buffer((32, 1000))
        T_softmax_maxelem = T.sblock_alloc_buffer((32,))
        T_softmax_expsum = T.sblock_alloc_buffer((32,))
        for ax0_ax1_fused_0 in T.thread_binding(125, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_matmul_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1000)
                    v1 = T.axis.spatial(1000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1000)
                    T.reads()
                    T.writes(T_matmul[v0, v1])
                    T_matmul[v0, v1] = T.float32(0.0)
                for ax2 in range(256):
                    with T.sblock("T_matmul_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1000)
                        v1 = T.axis.spatial(1000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1000)
                        v2 = T.axis.reduce(256, ax2)
                        T.reads(T_matmul[v0, v1], X[v0, v2], W[v1, v2])
                        T.writes(T_matmul[v0, v1])
                        T_matmul[v0, v1] = T_matmul[v0, v1] + X[v0, v2] * W[v1, v2]
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_softmax_maxelem_init"):
                    v0 = T.axis.spatial(32, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 32)
                    T.reads()
                    T.writes(T_softmax_maxelem[v0])
                    T_softmax_maxelem[v0] = T.float32(-340282346638528859811704183484516925440.0)
                for ax1 in range(1000):
                    with T.sblock("T_softmax_maxelem_update"):
                        v0 = T.axis.spatial(32, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(1000, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 32)
                        T.reads(T_softmax_maxelem[v0], T_matmul[v0, v1], b[v1])
                        T.writes(T_softmax_maxelem[v0])
                        T_softmax_maxelem[v0] = T.max(T_softmax_maxelem[v0], T_matmul[v0, v1] + b[v1])
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_softmax_expsum_init"):
                    v0 = T.axis.spatial(32, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 32)
                    T.reads()
                    T.writes(T_softmax_expsum[v0])
                    T_softmax_expsum[v0] = T.float32(0.0)
                for ax1 in range(1000):
                    with T.sblock("T_softmax_expsum_update"):
                        v0 = T.axis.spatial(32, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(1000, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 32)
                        T.reads(T_softmax_expsum[v0], T_matmul[v0, v1], b[v1], T_softmax_maxelem[v0])
                        T.writes(T_softmax_expsum[v0])
                        T_softmax_expsum[v0] = T_softmax_expsum[v0] + T.exp(T_matmul[v0, v1] + b[v1] - T_softmax_maxelem[v0])
        for ax0_ax1_fused_0 in T.thread_binding(125, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_softmax_norm"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1000)
                    v1 = T.axis.spatial(1000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1000)
                    T.reads(T_matmul[v0, v1], b[v1], T_softmax_maxelem[v0], T_softmax_expsum[v0])
                    T.writes(T_softmax_norm[v0, v1])
                    T.sblock_attr({"axis": 1})
                    T_softmax_norm[v0, v1] = T.exp(T_matmul[v0, v1] + b[v1] - T_softmax_maxelem[v0]) / T_softmax_expsum[v0]
