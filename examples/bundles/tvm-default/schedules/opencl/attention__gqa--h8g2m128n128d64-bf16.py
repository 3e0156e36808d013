# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(Q: T.Buffer((8, 128, 64), "bfloat16"), K: T.Buffer((2, 128, 64), "bfloat16"), V: T.Buffer((2, 128, 64), "bfloat16"), T_attention_bf16: T.Buffer((8, 128, 64), "bfloat16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_scores = T.sblock_alloc_buffer((8, 128, 128))
        T_max = T.sblock_alloc_buffer((8, 128))
        T_context = T.sblock_alloc_buffer((8, 128, 64))
        T_sum = T.sblock_alloc_buffer((8, 128))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(512, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_scores_init"):
                    v0 = T.axis.spatial(8, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 16384)
                    v1 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 16384 // 128)
                    v2 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 128)
                    T.reads()
                    T.writes(T_scores[v0, v1, v2])
                    T_scores[v0, v1, v2] = T.float32(0.0)
                for ax3 in range(64):
                    with T.sblock("T_scores_update"):
                        v0 = T.axis.spatial(8, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 16384)
                        v1 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 16384 // 128)
                        v2 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 128)
                        v3 = T.axis.reduce(64, ax3)
                        T.reads(T_scores[v0, v1, v2], Q[v0, v1, v3], K[v0 // 4, v2, v3])
                        T.writes(T_scores[v0, v1, v2])
                        T_scores[v0, v1, v2] = T_scores[v0, v1, v2] + T.Cast("float32", Q[v0, v1, v3]) * T.Cast("float32", K[v0 // 4, v2, v3])
        for ax0_ax1_fused_0 in T.thread_binding(4, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_max_init"):
                    v0 = T.axis.spatial(8, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                    v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                    T.reads()
                    T.writes(T_max[v0, v1])
                    T_max[v0, v1] = T.float32(-340282346638528859811704183484516925440.0)
                for ax2 in range(128):
                    with T.sblock("T_max_update"):
                        v0 = T.axis.spatial(8, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                        v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                        v2 = T.axis.reduce(128, ax2)
                        T.reads(T_max[v0, v1], T_scores[v0, v1, v2])
                        T.writes(T_max[v0, v1])
                        T_max[v0, v1] = T.max(T_max[v0, v1], T_scores[v0, v1, v2] * T.float32(0.125))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(256, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_context_init"):
                    v0 = T.axis.spatial(8, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 8192)
                    v1 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 8192 // 64)
                    v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                    T.reads()
                    T.writes(T_context[v0, v1, v2])
                    T_context[v0, v1, v2] = T.float32(0.0)
                for ax3 in range(128):
                    with T.sblock("T_context_update"):
                        v0 = T.axis.spatial(8, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 8192)
                        v1 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 8192 // 64)
                        v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                        v3 = T.axis.reduce(128, ax3)
                        T.reads(T_context[v0, v1, v2], T_scores[v0, v1, v3], T_max[v0, v1], V[v0 // 4, v3, v2])
                        T.writes(T_context[v0, v1, v2])
                        T_context[v0, v1, v2] = T_context[v0, v1, v2] + T.exp(T_scores[v0, v1, v3] * T.float32(0.125) - T_max[v0, v1]) * T.Cast("float32", V[v0 // 4, v3, v2])
        for ax0_ax1_fused_0 in T.thread_binding(4, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_sum_init"):
                    v0 = T.axis.spatial(8, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                    v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                    T.reads()
                    T.writes(T_sum[v0, v1])
                    T_sum[v0, v1] = T.float32(0.0)
                for ax2 in range(128):
                    with T.sblock("T_sum_update"):
                        v0 = T.axis.spatial(8, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                        v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                        v2 = T.axis.reduce(128, ax2)
                        T.reads(T_sum[v0, v1], T_scores[v0, v1, v2], T_max[v0, v1])
                        T.writes(T_sum[v0, v1])
                        T_sum[v0, v1] = T_sum[v0, v1] + T.exp(T_scores[v0, v1, v2] * T.float32(0.125) - T_max[v0, v1])
        for ax0_ax1_ax2_fused_0 in T.thread_binding(256, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_attention_bf16"):
                    v0 = T.axis.spatial(8, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 8192)
                    v1 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 8192 // 64)
                    v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                    T.reads(T_context[v0, v1, v2], T_sum[v0, v1])
                    T.writes(T_attention_bf16[v0, v1, v2])
                    T_attention_bf16[v0, v1, v2] = T.Cast("bfloat16", T_context[v0, v1, v2] / T_sum[v0, v1])
