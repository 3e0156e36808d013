# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(Q: T.Buffer((8, 1, 64), "bfloat16"), K: T.Buffer((1, 512, 64), "bfloat16"), V: T.Buffer((1, 512, 64), "bfloat16"), T_attention_bf16: T.Buffer((8, 1, 64), "bfloat16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_scores = T.sblock_alloc_buffer((8, 1, 512))
        T_max = T.sblock_alloc_buffer((8, 1))
        T_context = T.sblock_alloc_buffer((8, 1, 64))
        T_sum = T.sblock_alloc_buffer((8, 1))
        for ax0_ax1_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_scores_init"):
                    v0 = T.axis.spatial(8, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 512)
                    v1 = T.axis.spatial(512, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 512)
                    T.reads()
                    T.writes(T_scores[v0, 0, v1])
                    T_scores[v0, 0, v1] = T.float32(0.0)
                for ax2 in range(64):
                    with T.sblock("T_scores_update"):
                        v0 = T.axis.spatial(8, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 512)
                        v1 = T.axis.spatial(512, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 512)
                        v2 = T.axis.reduce(64, ax2)
                        T.reads(T_scores[v0, 0, v1], Q[v0, 0, v2], K[0, v1, v2])
                        T.writes(T_scores[v0, 0, v1])
                        T_scores[v0, 0, v1] = T_scores[v0, 0, v1] + T.Cast("float32", Q[v0, 0, v2]) * T.Cast("float32", K[0, v1, v2])
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_max_init"):
                    v0 = T.axis.spatial(8, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 8)
                    T.reads()
                    T.writes(T_max[v0, 0])
                    T_max[v0, 0] = T.float32(-340282346638528859811704183484516925440.0)
                for ax1 in range(512):
                    with T.sblock("T_max_update"):
                        v0 = T.axis.spatial(8, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(512, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 8)
                        T.reads(T_max[v0, 0], T_scores[v0, 0, v1])
                        T.writes(T_max[v0, 0])
                        T_max[v0, 0] = T.max(T_max[v0, 0], T_scores[v0, 0, v1] * T.float32(0.125))
        for ax0_ax1_fused_0 in T.thread_binding(2, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_context_init"):
                    v0 = T.axis.spatial(8, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 64)
                    v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 64)
                    T.reads()
                    T.writes(T_context[v0, 0, v1])
                    T_context[v0, 0, v1] = T.float32(0.0)
                for ax2 in range(512):
                    with T.sblock("T_context_update"):
                        v0 = T.axis.spatial(8, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 64)
                        v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 64)
                        v2 = T.axis.reduce(512, ax2)
                        T.reads(T_context[v0, 0, v1], T_scores[v0, 0, v2], T_max[v0, 0], V[0, v2, v1])
                        T.writes(T_context[v0, 0, v1])
                        T_context[v0, 0, v1] = T_context[v0, 0, v1] + T.exp(T_scores[v0, 0, v2] * T.float32(0.125) - T_max[v0, 0]) * T.Cast("float32", V[0, v2, v1])
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_sum_init"):
                    v0 = T.axis.spatial(8, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 8)
                    T.reads()
                    T.writes(T_sum[v0, 0])
                    T_sum[v0, 0] = T.float32(0.0)
                for ax1 in range(512):
                    with T.sblock("T_sum_update"):
                        v0 = T.axis.spatial(8, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(512, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 8)
                        T.reads(T_sum[v0, 0], T_scores[v0, 0, v1], T_max[v0, 0])
                        T.writes(T_sum[v0, 0])
                        T_sum[v0, 0] = T_sum[v0, 0] + T.exp(T_scores[v0, 0, v1] * T.float32(0.125) - T_max[v0, 0])
        for ax0_ax1_fused_0 in T.thread_binding(2, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_attention_bf16"):
                    v0 = T.axis.spatial(8, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 64)
                    v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 64)
                    T.reads(T_context[v0, 0, v1], T_sum[v0, 0])
                    T.writes(T_attention_bf16[v0, 0, v1])
                    T_attention_bf16[v0, 0, v1] = T.Cast("bfloat16", T_context[v0, 0, v1] / T_sum[v0, 0])
