# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 64, 8, 14, 14), "float32"), pool_avg: T.Buffer((1, 64, 8, 14, 14), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        pool_sum_shared = T.sblock_alloc_buffer((1, 64, 8, 14, 14), scope="shared")
        for ax0_ax1_ax2_ax3_fused in T.thread_binding(100352, thread="blockIdx.x"):
            for ax0, ax1, ax2, ax3 in T.grid(1, 1, 1, 1):
                for ax4_ax5_ax6_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax4_ax5_ax6_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("pool_sum"):
                            v0 = T.axis.spatial(64, ax0_ax1_ax2_ax3_fused // 1568 + ax0)
                            v1 = T.axis.spatial(8, ax0_ax1_ax2_ax3_fused % 1568 // 196 + ax1)
                            v2 = T.axis.spatial(14, ax0_ax1_ax2_ax3_fused % 196 // 14 + ax2)
                            v3 = T.axis.spatial(14, ax0_ax1_ax2_ax3_fused % 14 + ax3)
                            v4 = T.axis.reduce(3, (ax4_ax5_ax6_fused_0 * 256 + ax4_ax5_ax6_fused_1) // 9)
                            v5 = T.axis.reduce(3, (ax4_ax5_ax6_fused_0 * 256 + ax4_ax5_ax6_fused_1) % 9 // 3)
                            v6 = T.axis.reduce(3, (ax4_ax5_ax6_fused_0 * 256 + ax4_ax5_ax6_fused_1) % 3)
                            T.where(ax4_ax5_ax6_fused_0 * 256 + ax4_ax5_ax6_fused_1 < 27)
                            T.reads(X[0, v0, v1 + v4 - 1, v2 + v5 - 1, v3 + v6 - 1])
                            T.writes(pool_sum_shared[0, v0, v1, v2, v3])
                            with T.init():
                                pool_sum_shared[0, v0, v1, v2, v3] = T.float32(0.0)
                            pool_sum_shared[0, v0, v1, v2, v3] = pool_sum_shared[0, v0, v1, v2, v3] + T.if_then_else(1 <= v1 + v4 and v1 + v4 < 9 and 1 <= v2 + v5 and v2 + v5 < 15 and 1 <= v3 + v6 and v3 + v6 < 15, X[0, v0, v1 + v4 - 1, v2 + v5 - 1, v3 + v6 - 1], T.float32(0.0))
            for ax4, ax5 in T.grid(T.int64(1), T.int64(1)):
                for ax6_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                    for ax6_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("pool_avg"):
                            v0 = T.axis.spatial(64, ax0_ax1_ax2_ax3_fused // 1568)
                            v1 = T.axis.spatial(8, ax0_ax1_ax2_ax3_fused % 1568 // 196)
                            v2 = T.axis.spatial(14, ax0_ax1_ax2_ax3_fused % 196 // 14)
                            v3 = T.axis.spatial(14, ax0_ax1_ax2_ax3_fused % 14)
                            v4, v5 = T.axis.remap("SS", [ax4, ax5])
                            v6 = T.axis.spatial(T.int64(1), ax6_0 * T.int64(256) + ax6_1)
                            T.where(ax6_0 * T.int64(256) + ax6_1 < T.int64(1))
                            T.reads(pool_sum_shared[0, v0, v1, v2, v3])
                            T.writes(pool_avg[0, v0, v1, v2, v3])
                            T.sblock_attr({"schedule_rule": "meta_schedule.pool_avg"})
                            pool_avg[0, v0, v1, v2, v3] = pool_sum_shared[0, v0, v1, v2, v3] / T.Cast("float32", (T.min(1, 8 - v1) + 2) * (T.min(1, 14 - v2) + 2) * (T.min(1, 14 - v3) + 2))
