# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(Q: T.Buffer((4, 500, 36), "float32"), K: T.Buffer((4, 500, 36), "float32"), V: T.Buffer((4, 500, 36), "float32"), T_attention: T.Buffer((4, 500, 36), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_scores = T.sblock_alloc_buffer((4, 500, 500))
        T_max = T.sblock_alloc_buffer((4, 500))
        T_context = T.sblock_alloc_buffer((4, 500, 36))
        T_sum = T.sblock_alloc_buffer((4, 500))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(3907, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_scores_init"):
                    v0 = T.axis.spatial(4, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 250000)
                    v1 = T.axis.spatial(500, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 250000 // 500)
                    v2 = T.axis.spatial(500, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 500)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 1000000)
                    T.reads()
                    T.writes(T_scores[v0, v1, v2])
                    T_scores[v0, v1, v2] = T.float32(0.0)
                for ax3 in range(36):
                    with T.sblock("T_scores_update"):
                        v0 = T.axis.spatial(4, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 250000)
                        v1 = T.axis.spatial(500, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 250000 // 500)
                        v2 = T.axis.spatial(500, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 500)
                        v3 = T.axis.reduce(36, ax3)
                        T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 1000000)
                        T.reads(T_scores[v0, v1, v2], Q[v0, v1, v3], K[v0, v2, v3])
                        T.writes(T_scores[v0, v1, v2])
                        T_scores[v0, v1, v2] = T_scores[v0, v1, v2] + Q[v0, v1, v3] * K[v0, v2, v3]
        for ax0_ax1_fused_0 in T.thread_binding(8, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_max_init"):
                    v0 = T.axis.spatial(4, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 500)
                    v1 = T.axis.spatial(500, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 500)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 2000)
                    T.reads()
                    T.writes(T_max[v0, v1])
                    T_max[v0, v1] = T.float32(-340282346638528859811704183484516925440.0)
                for ax2 in range(500):
                    with T.sblock("T_max_update"):
                        v0 = T.axis.spatial(4, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 500)
                        v1 = T.axis.spatial(500, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 500)
                        v2 = T.axis.reduce(500, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 2000)
                        T.reads(T_max[v0, v1], T_scores[v0, v1, v2])
                        T.writes(T_max[v0, v1])
                        T_max[v0, v1] = T.max(T_max[v0, v1], T.if_then_else(T.Select(0 <= v1 - v2, v1 - v2, v2 - v1) <= 16, T_scores[v0, v1, v2] * T.float32(0.16666666666666666), T.float32(-1000000000000000019884624838656.0)))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(282, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_context_init"):
                    v0 = T.axis.spatial(4, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 18000)
                    v1 = T.axis.spatial(500, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 18000 // 36)
                    v2 = T.axis.spatial(36, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 36)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 72000)
                    T.reads()
                    T.writes(T_context[v0, v1, v2])
                    T_context[v0, v1, v2] = T.float32(0.0)
                for ax3 in range(500):
                    with T.sblock("T_context_update"):
                        v0 = T.axis.spatial(4, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 18000)
                        v1 = T.axis.spatial(500, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 18000 // 36)
                        v2 = T.axis.spatial(36, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 36)
                        v3 = T.axis.reduce(500, ax3)
                        T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 72000)
                        T.reads(T_context[v0, v1, v2], T_scores[v0, v1, v3], T_max[v0, v1], V[v0, v3, v2])
                        T.writes(T_context[v0, v1, v2])
                        T_context[v0, v1, v2] = T_context[v0, v1, v2] + T.exp(T.if_then_else(T.Select(0 <= v1 - v3, v1 - v3, v3 - v1) <= 16, T_scores[v0, v1, v3] * T.float32(0.16666666666666666), T.float32(-1000000000000000019884624838656.0)) - T_max[v0, v1]) * V[v0, v3, v2]
        for ax0_ax1_fused_0 in T.thread_binding(8, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_sum_init"):
                    v0 = T.axis.spatial(4, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 500)
                    v1 = T.axis.spatial(500, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 500)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 2000)
                    T.reads()
                    T.writes(T_sum[v0, v1])
                    T_sum[v0, v1] = T.float32(0.0)
                for ax2 in range(500):
                    with T.sblock("T_sum_update"):
                        v0 = T.axis.spatial(4, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 500)
                        v1 = T.axis.spatial(500, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 500)
                        v2 = T.axis.reduce(500, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 2000)
                        T.reads(T_sum[v0, v1], T_scores[v0, v1, v2], T_max[v0, v1])
                        T.writes(T_sum[v0, v1])
                        T_sum[v0, v1] = T_sum[v0, v1] + T.exp(T.if_then_else(T.Select(0 <= v1 - v2, v1 - v2, v2 - v1) <= 16, T_scores[v0, v1, v2] * T.float32(0.16666666666666666), T.float32(-1000000000000000019884624838656.0)) - T_max[v0, v1])
        for ax0_ax1_ax2_fused_0 in T.thread_binding(282, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_attention"):
                    v0 = T.axis.spatial(4, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 18000)
                    v1 = T.axis.spatial(500, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 18000 // 36)
                    v2 = T.axis.spatial(36, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 36)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 72000)
                    T.reads(T_context[v0, v1, v2], T_sum[v0, v1])
                    T.writes(T_attention[v0, v1, v2])
                    T_attention[v0, v1, v2] = T_context[v0, v1, v2] / T_sum[v0, v1]
