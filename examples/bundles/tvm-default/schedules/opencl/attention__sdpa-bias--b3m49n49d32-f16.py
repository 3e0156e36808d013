# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(Q: T.Buffer((3, 49, 32), "float16"), K: T.Buffer((3, 49, 32), "float16"), V: T.Buffer((3, 49, 32), "float16"), B: T.Buffer((3, 49, 49), "float16"), T_attention_f16: T.Buffer((3, 49, 32), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_scores = T.sblock_alloc_buffer((3, 49, 49))
        T_max = T.sblock_alloc_buffer((3, 49))
        T_context = T.sblock_alloc_buffer((3, 49, 32))
        T_sum = T.sblock_alloc_buffer((3, 49))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(29, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_scores_init"):
                    v0 = T.axis.spatial(3, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 2401)
                    v1 = T.axis.spatial(49, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 2401 // 49)
                    v2 = T.axis.spatial(49, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 49)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 7203)
                    T.reads()
                    T.writes(T_scores[v0, v1, v2])
                    T_scores[v0, v1, v2] = T.float32(0.0)
                for ax3 in range(32):
                    with T.sblock("T_scores_update"):
                        v0 = T.axis.spatial(3, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 2401)
                        v1 = T.axis.spatial(49, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 2401 // 49)
                        v2 = T.axis.spatial(49, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 49)
                        v3 = T.axis.reduce(32, ax3)
                        T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 7203)
                        T.reads(T_scores[v0, v1, v2], Q[v0, v1, v3], K[v0, v2, v3])
                        T.writes(T_scores[v0, v1, v2])
                        T_scores[v0, v1, v2] = T_scores[v0, v1, v2] + T.Cast("float32", Q[v0, v1, v3]) * T.Cast("float32", K[v0, v2, v3])
        for ax0_ax1_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_max_init"):
                    v0 = T.axis.spatial(3, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 49)
                    v1 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 49)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 147)
                    T.reads()
                    T.writes(T_max[v0, v1])
                    T_max[v0, v1] = T.float32(-340282346638528859811704183484516925440.0)
                for ax2 in range(49):
                    with T.sblock("T_max_update"):
                        v0 = T.axis.spatial(3, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 49)
                        v1 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 49)
                        v2 = T.axis.reduce(49, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 147)
                        T.reads(T_max[v0, v1], T_scores[v0, v1, v2], B[v0, v1, v2])
                        T.writes(T_max[v0, v1])
                        T_max[v0, v1] = T.max(T_max[v0, v1], T_scores[v0, v1, v2] * T.float32(0.17677669529663687) + T.Cast("float32", B[v0, v1, v2]))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(19, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_context_init"):
                    v0 = T.axis.spatial(3, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 1568)
                    v1 = T.axis.spatial(49, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 1568 // 32)
                    v2 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 4704)
                    T.reads()
                    T.writes(T_context[v0, v1, v2])
                    T_context[v0, v1, v2] = T.float32(0.0)
                for ax3 in range(49):
                    with T.sblock("T_context_update"):
                        v0 = T.axis.spatial(3, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 1568)
                        v1 = T.axis.spatial(49, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 1568 // 32)
                        v2 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32)
                        v3 = T.axis.reduce(49, ax3)
                        T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 4704)
                        T.reads(T_context[v0, v1, v2], T_scores[v0, v1, v3], B[v0, v1, v3], T_max[v0, v1], V[v0, v3, v2])
                        T.writes(T_context[v0, v1, v2])
                        T_context[v0, v1, v2] = T_context[v0, v1, v2] + T.exp(T_scores[v0, v1, v3] * T.float32(0.17677669529663687) + T.Cast("float32", B[v0, v1, v3]) - T_max[v0, v1]) * T.Cast("float32", V[v0, v3, v2])
        for ax0_ax1_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_sum_init"):
                    v0 = T.axis.spatial(3, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 49)
                    v1 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 49)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 147)
                    T.reads()
                    T.writes(T_sum[v0, v1])
                    T_sum[v0, v1] = T.float32(0.0)
                for ax2 in range(49):
                    with T.sblock("T_sum_update"):
                        v0 = T.axis.spatial(3, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 49)
                        v1 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 49)
                        v2 = T.axis.reduce(49, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 147)
                        T.reads(T_sum[v0, v1], T_scores[v0, v1, v2], B[v0, v1, v2], T_max[v0, v1])
                        T.writes(T_sum[v0, v1])
                        T_sum[v0, v1] = T_sum[v0, v1] + T.exp(T_scores[v0, v1, v2] * T.float32(0.17677669529663687) + T.Cast("float32", B[v0, v1, v2]) - T_max[v0, v1])
        for ax0_ax1_ax2_fused_0 in T.thread_binding(19, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_attention_f16"):
                    v0 = T.axis.spatial(3, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 1568)
                    v1 = T.axis.spatial(49, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 1568 // 32)
                    v2 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 4704)
                    T.reads(T_context[v0, v1, v2], T_sum[v0, v1])
                    T.writes(T_attention_f16[v0, v1, v2])
                    T_attention_f16[v0, v1, v2] = T.Cast("float16", T_context[v0, v1, v2] / T_sum[v0, v1])
