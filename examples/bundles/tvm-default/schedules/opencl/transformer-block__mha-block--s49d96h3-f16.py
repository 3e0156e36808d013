# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((49, 96), "float16"), Wqkv: T.Buffer((288, 96), "float16"), bqkv: T.Buffer((288,), "float16"), Wo: T.Buffer((96, 96), "float16"), bo: T.Buffer((96,), "float16"), T_out_bias_f16: T.Buffer((49, 96), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_qkv = T.sblock_alloc_buffer((49, 288))
        T_scores = T.sblock_alloc_buffer((3, 49, 49))
        T_max = T.sblock_alloc_buffer((3, 49))
        T_context = T.sblock_alloc_buffer((3, 49, 32))
        T_sum = T.sblock_alloc_buffer((3, 49))
        T_out = T.sblock_alloc_buffer((49, 96))
        for ax0_ax1_fused_0 in T.thread_binding(56, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_qkv_init"):
                    v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 288)
                    v1 = T.axis.spatial(288, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 288)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 14112)
                    T.reads()
                    T.writes(T_qkv[v0, v1])
                    T_qkv[v0, v1] = T.float32(0.0)
                for ax2 in range(96):
                    with T.sblock("T_qkv_update"):
                        v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 288)
                        v1 = T.axis.spatial(288, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 288)
                        v2 = T.axis.reduce(96, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 14112)
                        T.reads(T_qkv[v0, v1], X[v0, v2], Wqkv[v1, v2])
                        T.writes(T_qkv[v0, v1])
                        T_qkv[v0, v1] = T_qkv[v0, v1] + T.Cast("float32", X[v0, v2]) * T.Cast("float32", Wqkv[v1, v2])
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
                        T.reads(T_scores[v0, v1, v2], T_qkv[T.min(v1, v2):T.min(v1, v2) + (T.max(v1, v2) + 1 - T.min(v1, v2)), v0 * 32 + v3:v0 * 32 + v3 + 97], bqkv[v0 * 32 + v3:v0 * 32 + v3 + 97])
                        T.writes(T_scores[v0, v1, v2])
                        T_scores[v0, v1, v2] = T_scores[v0, v1, v2] + (T_qkv[v1, v0 * 32 + v3] + T.Cast("float32", bqkv[v0 * 32 + v3])) * (T_qkv[v2, v0 * 32 + v3 + 96] + T.Cast("float32", bqkv[v0 * 32 + v3 + 96]))
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
                        T.reads(T_max[v0, v1], T_scores[v0, v1, v2])
                        T.writes(T_max[v0, v1])
                        T_max[v0, v1] = T.max(T_max[v0, v1], T_scores[v0, v1, v2] * T.float32(0.17677669529663687))
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
                        T.reads(T_context[v0, v1, v2], T_scores[v0, v1, v3], T_max[v0, v1], T_qkv[v3, v0 * 32 + v2 + 192], bqkv[v0 * 32 + v2 + 192])
                        T.writes(T_context[v0, v1, v2])
                        T_context[v0, v1, v2] = T_context[v0, v1, v2] + T.exp(T_scores[v0, v1, v3] * T.float32(0.17677669529663687) - T_max[v0, v1]) * (T_qkv[v3, v0 * 32 + v2 + 192] + T.Cast("float32", bqkv[v0 * 32 + v2 + 192]))
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
                        T.reads(T_sum[v0, v1], T_scores[v0, v1, v2], T_max[v0, v1])
                        T.writes(T_sum[v0, v1])
                        T_sum[v0, v1] = T_sum[v0, v1] + T.exp(T_scores[v0, v1, v2] * T.float32(0.17677669529663687) - T_max[v0, v1])
        for ax0_ax1_fused_0 in T.thread_binding(19, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_out_init"):
                    v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 96)
                    v1 = T.axis.spatial(96, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 96)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 4704)
                    T.reads()
                    T.writes(T_out[v0, v1])
                    T_out[v0, v1] = T.float32(0.0)
                for ax2 in range(96):
                    with T.sblock("T_out_update"):
                        v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 96)
                        v1 = T.axis.spatial(96, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 96)
                        v2 = T.axis.reduce(96, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 4704)
                        T.reads(T_out[v0, v1], T_context[v2 // 32, v0, v2 % 32], T_sum[v2 // 32, v0], Wo[v1, v2])
                        T.writes(T_out[v0, v1])
                        T_out[v0, v1] = T_out[v0, v1] + T_context[v2 // 32, v0, v2 % 32] / T_sum[v2 // 32, v0] * T.Cast("float32", Wo[v1, v2])
        for ax0_ax1_fused_0 in T.thread_binding(19, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_out_bias_f16"):
                    v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 96)
                    v1 = T.axis.spatial(96, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 96)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 4704)
                    T.reads(T_out[v0, v1], bo[v1])
                    T.writes(T_out_bias_f16[v0, v1])
                    T_out_bias_f16[v0, v1] = T.Cast("float16", T_out[v0, v1] + T.Cast("float32", bo[v1]))
