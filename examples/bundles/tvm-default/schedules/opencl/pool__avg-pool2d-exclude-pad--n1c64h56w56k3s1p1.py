# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 64, 56, 56), "float32"), pool_avg: T.Buffer((1, 64, 56, 56), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        pool_sum_shared = T.sblock_alloc_buffer((1, 64, 56, 56), scope="shared")
        for ax0_ax1_ax2_fused in T.thread_binding(200704, thread="blockIdx.x"):
            for ax0, ax1, ax2 in T.grid(1, 1, 1):
                for ax3_ax4_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax3_ax4_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("pool_sum"):
                            v0 = T.axis.spatial(64, ax0_ax1_ax2_fused // 3136 + ax0)
                            v1 = T.axis.spatial(56, ax0_ax1_ax2_fused % 3136 // 56 + ax1)
                            v2 = T.axis.spatial(56, ax0_ax1_ax2_fused % 56 + ax2)
                            v3 = T.axis.reduce(3, (ax3_ax4_fused_0 * 256 + ax3_ax4_fused_1) // 3)
                            v4 = T.axis.reduce(3, (ax3_ax4_fused_0 * 256 + ax3_ax4_fused_1) % 3)
                            T.where(ax3_ax4_fused_0 * 256 + ax3_ax4_fused_1 < 9)
                            T.reads(X[0, v0, v1 + v3 - 1, v2 + v4 - 1])
                            T.writes(pool_sum_shared[0, v0, v1, v2])
                            with T.init():
                                pool_sum_shared[0, v0, v1, v2] = T.float32(0.0)
                            pool_sum_shared[0, v0, v1, v2] = pool_sum_shared[0, v0, v1, v2] + T.if_then_else(1 <= v1 + v3 and v1 + v3 < 57 and 1 <= v2 + v4 and v2 + v4 < 57, X[0, v0, v1 + v3 - 1, v2 + v4 - 1], T.float32(0.0))
            for ax3 in range(T.int64(1)):
                for ax4_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                    for ax4_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("pool_avg"):
                            v0 = T.axis.spatial(64, ax0_ax1_ax2_fused // 3136)
                            v1 = T.axis.spatial(56, ax0_ax1_ax2_fused % 3136 // 56)
                            v2 = T.axis.spatial(56, ax0_ax1_ax2_fused % 56)
                            v3 = T.axis.spatial(T.int64(1), ax3)
                            v4 = T.axis.spatial(T.int64(1), ax4_0 * T.int64(256) + ax4_1)
                            T.where(ax4_0 * T.int64(256) + ax4_1 < T.int64(1))
                            T.reads(pool_sum_shared[0, v0, v1, v2])
                            T.writes(pool_avg[0, v0, v1, v2])
                            T.sblock_attr({"schedule_rule": "meta_schedule.pool_avg"})
                            pool_avg[0, v0, v1, v2] = pool_sum_shared[0, v0, v1, v2] / T.Cast("float32", T.max((T.min(1, 55 - v1) + 2 - T.max(1 - v1, 0)) * (T.min(1, 55 - v2) + 2 - T.max(1 - v2, 0)), 1))
