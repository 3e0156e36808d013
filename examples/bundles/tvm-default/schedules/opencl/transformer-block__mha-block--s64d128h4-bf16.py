# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((64, 128), "bfloat16"), Wqkv: T.Buffer((384, 128), "bfloat16"), bqkv: T.Buffer((384,), "bfloat16"), Wo: T.Buffer((128, 128), "bfloat16"), bo: T.Buffer((128,), "bfloat16"), T_out_bias_bf16: T.Buffer((64, 128), "bfloat16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_qkv = T.sblock_alloc_buffer((64, 384))
        T_scores = T.sblock_alloc_buffer((4, 64, 64))
        T_max = T.sblock_alloc_buffer((4, 64))
        T_context = T.sblock_alloc_buffer((4, 64, 32))
        T_sum = T.sblock_alloc_buffer((4, 64))
        T_out = T.sblock_alloc_buffer((64, 128))
        for ax0_ax1_fused_0 in T.thread_binding(96, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_qkv_init"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 384)
                    v1 = T.axis.spatial(384, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 384)
                    T.reads()
                    T.writes(T_qkv[v0, v1])
                    T_qkv[v0, v1] = T.float32(0.0)
                for ax2 in range(128):
                    with T.sblock("T_qkv_update"):
                        v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 384)
                        v1 = T.axis.spatial(384, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 384)
                        v2 = T.axis.reduce(128, ax2)
                        T.reads(T_qkv[v0, v1], X[v0, v2], Wqkv[v1, v2])
                        T.writes(T_qkv[v0, v1])
                        T_qkv[v0, v1] = T_qkv[v0, v1] + T.Cast("float32", X[v0, v2]) * T.Cast("float32", Wqkv[v1, v2])
        for ax0_ax1_ax2_fused_0 in T.thread_binding(64, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_scores_init"):
                    v0 = T.axis.spatial(4, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 4096)
                    v1 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 4096 // 64)
                    v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                    T.reads()
                    T.writes(T_scores[v0, v1, v2])
                    T_scores[v0, v1, v2] = T.float32(0.0)
                for ax3 in range(32):
                    with T.sblock("T_scores_update"):
                        v0 = T.axis.spatial(4, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 4096)
                        v1 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 4096 // 64)
                        v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                        v3 = T.axis.reduce(32, ax3)
                        T.reads(T_scores[v0, v1, v2], T_qkv[T.min(v1, v2):T.min(v1, v2) + (T.max(v1, v2) + 1 - T.min(v1, v2)), v0 * 32 + v3:v0 * 32 + v3 + 129], bqkv[v0 * 32 + v3:v0 * 32 + v3 + 129])
                        T.writes(T_scores[v0, v1, v2])
                        T_scores[v0, v1, v2] = T_scores[v0, v1, v2] + (T_qkv[v1, v0 * 32 + v3] + T.Cast("float32", bqkv[v0 * 32 + v3])) * (T_qkv[v2, v0 * 32 + v3 + 128] + T.Cast("float32", bqkv[v0 * 32 + v3 + 128]))
        for ax0_ax1_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_max_init"):
                    v0 = T.axis.spatial(4, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 64)
                    v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 64)
                    T.reads()
                    T.writes(T_max[v0, v1])
                    T_max[v0, v1] = T.float32(-340282346638528859811704183484516925440.0)
                for ax2 in range(64):
                    with T.sblock("T_max_update"):
                        v0 = T.axis.spatial(4, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 64)
                        v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 64)
                        v2 = T.axis.reduce(64, ax2)
                        T.reads(T_max[v0, v1], T_scores[v0, v1, v2])
                        T.writes(T_max[v0, v1])
                        T_max[v0, v1] = T.max(T_max[v0, v1], T_scores[v0, v1, v2] * T.float32(0.17677669529663687))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(32, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_context_init"):
                    v0 = T.axis.spatial(4, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 2048)
                    v1 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 2048 // 32)
                    v2 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32)
                    T.reads()
                    T.writes(T_context[v0, v1, v2])
                    T_context[v0, v1, v2] = T.float32(0.0)
                for ax3 in range(64):
                    with T.sblock("T_context_update"):
                        v0 = T.axis.spatial(4, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 2048)
                        v1 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 2048 // 32)
                        v2 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32)
                        v3 = T.axis.reduce(64, ax3)
                        T.reads(T_context[v0, v1, v2], T_scores[v0, v1, v3], T_max[v0, v1], T_qkv[v3, v0 * 32 + v2 + 256], bqkv[v0 * 32 + v2 + 256])
                        T.writes(T_context[v0, v1, v2])
                        T_context[v0, v1, v2] = T_context[v0, v1, v2] + T.exp(T_scores[v0, v1, v3] * T.float32(0.17677669529663687) - T_max[v0, v1]) * (T_qkv[v3, v0 * 32 + v2 + 256] + T.Cast("float32", bqkv[v0 * 32 + v2 + 256]))
        for ax0_ax1_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_sum_init"):
                    v0 = T.axis.spatial(4, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 64)
                    v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 64)
                    T.reads()
                    T.writes(T_sum[v0, v1])
                    T_sum[v0, v1] = T.float32(0.0)
                for ax2 in range(64):
                    with T.sblock("T_sum_update"):
                        v0 = T.axis.spatial(4, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 64)
                        v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 64)
                        v2 = T.axis.reduce(64, ax2)
                        T.reads(T_sum[v0, v1], T_scores[v0, v1, v2], T_max[v0, v1])
                        T.writes(T_sum[v0, v1])
                        T_sum[v0, v1] = T_sum[v0, v1] + T.exp(T_scores[v0, v1, v2] * T.float32(0.17677669529663687) - T_max[v0, v1])
        for ax0_ax1_fused_0 in T.thread_binding(32, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_out_init"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                    v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                    T.reads()
                    T.writes(T_out[v0, v1])
                    T_out[v0, v1] = T.float32(0.0)
                for ax2 in range(128):
                    with T.sblock("T_out_update"):
                        v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                        v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                        v2 = T.axis.reduce(128, ax2)
                        T.reads(T_out[v0, v1], T_context[v2 // 32, v0, v2 % 32], T_sum[v2 // 32, v0], Wo[v1, v2])
                        T.writes(T_out[v0, v1])
                        T_out[v0, v1] = T_out[v0, v1] + T_context[v2 // 32, v0, v2 % 32] / T_sum[v2 // 32, v0] * T.Cast("float32", Wo[v1, v2])
        for ax0_ax1_fused_0 in T.thread_binding(32, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_out_bias_bf16"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                    v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                    T.reads(T_out[v0, v1], bo[v1])
                    T.writes(T_out_bias_bf16[v0, v1])
                    T_out_bias_bf16[v0, v1] = T.Cast("bfloat16", T_out[v0, v1] + T.Cast("float32", bo[v1]))
