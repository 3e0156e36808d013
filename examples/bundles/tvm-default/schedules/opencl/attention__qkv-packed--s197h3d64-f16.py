# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(QKV: T.Buffer((197, 576), "float16"), T_merge_heads_f16: T.Buffer((197, 192), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_scores = T.sblock_alloc_buffer((3, 197, 197))
        T_max = T.sblock_alloc_buffer((3, 197))
        T_context = T.sblock_alloc_buffer((3, 197, 64))
        T_sum = T.sblock_alloc_buffer((3, 197))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(455, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_scores_init"):
                    v0 = T.axis.spatial(3, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 38809)
                    v1 = T.axis.spatial(197, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 38809 // 197)
                    v2 = T.axis.spatial(197, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 197)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 116427)
                    T.reads()
                    T.writes(T_scores[v0, v1, v2])
                    T_scores[v0, v1, v2] = T.float32(0.0)
                for ax3 in range(64):
                    with T.sblock("T_scores_update"):
                        v0 = T.axis.spatial(3, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 38809)
                        v1 = T.axis.spatial(197, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 38809 // 197)
                        v2 = T.axis.spatial(197, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 197)
                        v3 = T.axis.reduce(64, ax3)
                        T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 116427)
                        T.reads(T_scores[v0, v1, v2], QKV[T.min(v1, v2):T.min(v1, v2) + (T.max(v1, v2) + 1 - T.min(v1, v2)), v0 * 64 + v3:v0 * 64 + v3 + 193])
                        T.writes(T_scores[v0, v1, v2])
                        T_scores[v0, v1, v2] = T_scores[v0, v1, v2] + T.Cast("float32", QKV[v1, v0 * 64 + v3]) * T.Cast("float32", QKV[v2, v0 * 64 + v3 + 192])
        for ax0_ax1_fused_0 in T.thread_binding(3, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_max_init"):
                    v0 = T.axis.spatial(3, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 197)
                    v1 = T.axis.spatial(197, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 197)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 591)
                    T.reads()
                    T.writes(T_max[v0, v1])
                    T_max[v0, v1] = T.float32(-340282346638528859811704183484516925440.0)
                for ax2 in range(197):
                    with T.sblock("T_max_update"):
                        v0 = T.axis.spatial(3, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 197)
                        v1 = T.axis.spatial(197, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 197)
                        v2 = T.axis.reduce(197, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 591)
                        T.reads(T_max[v0, v1], T_scores[v0, v1, v2])
                        T.writes(T_max[v0, v1])
                        T_max[v0, v1] = T.max(T_max[v0, v1], T_scores[v0, v1, v2] * T.float32(0.125))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(148, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_context_init"):
                    v0 = T.axis.spatial(3, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 12608)
                    v1 = T.axis.spatial(197, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 12608 // 64)
                    v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 37824)
                    T.reads()
                    T.writes(T_context[v0, v1, v2])
                    T_context[v0, v1, v2] = T.float32(0.0)
                for ax3 in range(197):
                    with T.sblock("T_context_update"):
                        v0 = T.axis.spatial(3, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 12608)
                        v1 = T.axis.spatial(197, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 12608 // 64)
                        v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                        v3 = T.axis.reduce(197, ax3)
                        T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 37824)
                        T.reads(T_context[v0, v1, v2], T_scores[v0, v1, v3], T_max[v0, v1], QKV[v3, v0 * 64 + v2 + 384])
                        T.writes(T_context[v0, v1, v2])
                        T_context[v0, v1, v2] = T_context[v0, v1, v2] + T.exp(T_scores[v0, v1, v3] * T.float32(0.125) - T_max[v0, v1]) * T.Cast("float32", QKV[v3, v0 * 64 + v2 + 384])
        for ax0_ax1_fused_0 in T.thread_binding(3, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_sum_init"):
                    v0 = T.axis.spatial(3, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 197)
                    v1 = T.axis.spatial(197, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 197)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 591)
                    T.reads()
                    T.writes(T_sum[v0, v1])
                    T_sum[v0, v1] = T.float32(0.0)
                for ax2 in range(197):
                    with T.sblock("T_sum_update"):
                        v0 = T.axis.spatial(3, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 197)
                        v1 = T.axis.spatial(197, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 197)
                        v2 = T.axis.reduce(197, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 591)
                        T.reads(T_sum[v0, v1], T_scores[v0, v1, v2], T_max[v0, v1])
                        T.writes(T_sum[v0, v1])
                        T_sum[v0, v1] = T_sum[v0, v1] + T.exp(T_scores[v0, v1, v2] * T.float32(0.125) - T_max[v0, v1])
        for ax0_ax1_fused_0 in T.thread_binding(148, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_merge_heads_f16"):
                    v0 = T.axis.spatial(197, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 192)
                    v1 = T.axis.spatial(192, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 192)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 37824)
                    T.reads(T_context[v1 // 64, v0, v1 % 64], T_sum[v1 // 64, v0])
                    T.writes(T_merge_heads_f16[v0, v1])
                    T_merge_heads_f16[v0, v1] = T.Cast("float16", T_context[v1 // 64, v0, v1 % 64] / T_sum[v1 // 64, v0])
