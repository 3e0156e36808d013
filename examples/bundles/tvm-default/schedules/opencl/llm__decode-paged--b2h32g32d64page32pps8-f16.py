# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(q: T.Buffer((2, 32, 64), "float16"), k_pages: T.Buffer((16, 32, 32, 64), "float16"), v_pages: T.Buffer((16, 32, 32, 64), "float16"), block_table: T.Buffer((2, 8), "int32"), lens: T.Buffer((2,), "int32"), T_attention: T.Buffer((2, 32, 64), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_scores = T.sblock_alloc_buffer((2, 32, 256))
        T_max = T.sblock_alloc_buffer((2, 32))
        T_context = T.sblock_alloc_buffer((2, 32, 64))
        T_sum = T.sblock_alloc_buffer((2, 32))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(64, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_scores_init"):
                    v0 = T.axis.spatial(2, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 8192)
                    v1 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 8192 // 256)
                    v2 = T.axis.spatial(256, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 256)
                    T.reads()
                    T.writes(T_scores[v0, v1, v2])
                    T_scores[v0, v1, v2] = T.float32(0.0)
                for ax3 in range(64):
                    with T.sblock("T_scores_update"):
                        v0 = T.axis.spatial(2, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 8192)
                        v1 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 8192 // 256)
                        v2 = T.axis.spatial(256, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 256)
                        v3 = T.axis.reduce(64, ax3)
                        T.reads(T_scores[v0, v1, v2], q[v0, v1, v3], k_pages[block_table[v0, v2 // 32], v2 % 32, v1, v3], block_table[v0, v2 // 32])
                        T.writes(T_scores[v0, v1, v2])
                        T_scores[v0, v1, v2] = T_scores[v0, v1, v2] + T.Cast("float32", q[v0, v1, v3]) * T.Cast("float32", k_pages[block_table[v0, v2 // 32], v2 % 32, v1, v3])
        for ax0_ax1_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_max_init"):
                    v0 = T.axis.spatial(2, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 32)
                    v1 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 32)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 64)
                    T.reads()
                    T.writes(T_max[v0, v1])
                    T_max[v0, v1] = T.float32(-340282346638528859811704183484516925440.0)
                for ax2 in range(256):
                    with T.sblock("T_max_update"):
                        v0 = T.axis.spatial(2, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 32)
                        v1 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 32)
                        v2 = T.axis.reduce(256, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 64)
                        T.reads(T_max[v0, v1], lens[v0], T_scores[v0, v1, v2])
                        T.writes(T_max[v0, v1])
                        T_max[v0, v1] = T.max(T_max[v0, v1], T.if_then_else(v2 < lens[v0], T_scores[v0, v1, v2] * T.float32(0.125), T.float32(-1000000000000000019884624838656.0)))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_context_init"):
                    v0 = T.axis.spatial(2, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 2048)
                    v1 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 2048 // 64)
                    v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                    T.reads()
                    T.writes(T_context[v0, v1, v2])
                    T_context[v0, v1, v2] = T.float32(0.0)
                for ax3 in range(256):
                    with T.sblock("T_context_update"):
                        v0 = T.axis.spatial(2, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 2048)
                        v1 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 2048 // 64)
                        v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                        v3 = T.axis.reduce(256, ax3)
                        T.reads(T_context[v0, v1, v2], block_table[v0, v3 // 32], lens[v0], T_scores[v0, v1, v3], T_max[v0, v1], v_pages[block_table[v0, v3 // 32], v3 % 32, v1, v2])
                        T.writes(T_context[v0, v1, v2])
                        T_context[v0, v1, v2] = T_context[v0, v1, v2] + T.exp(T.if_then_else(v3 < lens[v0], T_scores[v0, v1, v3] * T.float32(0.125), T.float32(-1000000000000000019884624838656.0)) - T_max[v0, v1]) * T.Cast("float32", v_pages[block_table[v0, v3 // 32], v3 % 32, v1, v2])
        for ax0_ax1_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_sum_init"):
                    v0 = T.axis.spatial(2, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 32)
                    v1 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 32)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 64)
                    T.reads()
                    T.writes(T_sum[v0, v1])
                    T_sum[v0, v1] = T.float32(0.0)
                for ax2 in range(256):
                    with T.sblock("T_sum_update"):
                        v0 = T.axis.spatial(2, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 32)
                        v1 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 32)
                        v2 = T.axis.reduce(256, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 64)
                        T.reads(T_sum[v0, v1], lens[v0], T_scores[v0, v1, v2], T_max[v0, v1])
                        T.writes(T_sum[v0, v1])
                        T_sum[v0, v1] = T_sum[v0, v1] + T.exp(T.if_then_else(v2 < lens[v0], T_scores[v0, v1, v2] * T.float32(0.125), T.float32(-1000000000000000019884624838656.0)) - T_max[v0, v1])
        for ax0_ax1_ax2_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_attention"):
                    v0 = T.axis.spatial(2, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 2048)
                    v1 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 2048 // 64)
                    v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                    T.reads(T_context[v0, v1, v2], T_sum[v0, v1])
                    T.writes(T_attention[v0, v1, v2])
                    T_attention[v0, v1, v2] = T.Cast("float16", T_context[v0, v1, v2] / T_sum[v0, v1])
