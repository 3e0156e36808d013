# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(q: T.Buffer((1, 32, 128), "float16"), k_cache: T.Buffer((1, 1024, 8, 128), "float16"), v_cache: T.Buffer((1, 1024, 8, 128), "float16"), lens: T.Buffer((1,), "int32"), T_attention: T.Buffer((1, 32, 128), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_scores = T.sblock_alloc_buffer((1, 32, 1024))
        T_max = T.sblock_alloc_buffer((1, 32))
        T_context = T.sblock_alloc_buffer((1, 32, 128))
        T_sum = T.sblock_alloc_buffer((1, 32))
        for ax0_ax1_fused_0 in T.thread_binding(128, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_scores_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1024)
                    v1 = T.axis.spatial(1024, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1024)
                    T.reads()
                    T.writes(T_scores[0, v0, v1])
                    T_scores[0, v0, v1] = T.float32(0.0)
                for ax2 in range(128):
                    with T.sblock("T_scores_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1024)
                        v1 = T.axis.spatial(1024, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1024)
                        v2 = T.axis.reduce(128, ax2)
                        T.reads(T_scores[0, v0, v1], q[0, v0, v2], k_cache[0, v1, v0 // 4, v2])
                        T.writes(T_scores[0, v0, v1])
                        T_scores[0, v0, v1] = T_scores[0, v0, v1] + T.Cast("float32", q[0, v0, v2]) * T.Cast("float32", k_cache[0, v1, v0 // 4, v2])
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_max_init"):
                    v0 = T.axis.spatial(32, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 32)
                    T.reads()
                    T.writes(T_max[0, v0])
                    T_max[0, v0] = T.float32(-340282346638528859811704183484516925440.0)
                for ax1 in range(1024):
                    with T.sblock("T_max_update"):
                        v0 = T.axis.spatial(32, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(1024, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 32)
                        T.reads(T_max[0, v0], lens[0], T_scores[0, v0, v1])
                        T.writes(T_max[0, v0])
                        T_max[0, v0] = T.max(T_max[0, v0], T.if_then_else(v1 < lens[0], T_scores[0, v0, v1] * T.float32(0.088388347648318433), T.float32(-1000000000000000019884624838656.0)))
        for ax0_ax1_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_context_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                    v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                    T.reads()
                    T.writes(T_context[0, v0, v1])
                    T_context[0, v0, v1] = T.float32(0.0)
                for ax2 in range(1024):
                    with T.sblock("T_context_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                        v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                        v2 = T.axis.reduce(1024, ax2)
                        T.reads(T_context[0, v0, v1], lens[0], T_scores[0, v0, v2], T_max[0, v0], v_cache[0, v2, v0 // 4, v1])
                        T.writes(T_context[0, v0, v1])
                        T_context[0, v0, v1] = T_context[0, v0, v1] + T.exp(T.if_then_else(v2 < lens[0], T_scores[0, v0, v2] * T.float32(0.088388347648318433), T.float32(-1000000000000000019884624838656.0)) - T_max[0, v0]) * T.Cast("float32", v_cache[0, v2, v0 // 4, v1])
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_sum_init"):
                    v0 = T.axis.spatial(32, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 32)
                    T.reads()
                    T.writes(T_sum[0, v0])
                    T_sum[0, v0] = T.float32(0.0)
                for ax1 in range(1024):
                    with T.sblock("T_sum_update"):
                        v0 = T.axis.spatial(32, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(1024, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 32)
                        T.reads(T_sum[0, v0], lens[0], T_scores[0, v0, v1], T_max[0, v0])
                        T.writes(T_sum[0, v0])
                        T_sum[0, v0] = T_sum[0, v0] + T.exp(T.if_then_else(v1 < lens[0], T_scores[0, v0, v1] * T.float32(0.088388347648318433), T.float32(-1000000000000000019884624838656.0)) - T_max[0, v0])
        for ax0_ax1_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_attention"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                    v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                    T.reads(T_context[0, v0, v1], T_sum[0, v0])
                    T.writes(T_attention[0, v0, v1])
                    T_attention[0, v0, v1] = T.Cast("float16", T_context[0, v0, v1] / T_sum[0, v0])
