# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 96, 28, 28), "float32"), pool_avg: T.Buffer((1, 96, 14, 14), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        pool_sum_local = T.sblock_alloc_buffer((1, 96, 14, 14), scope="local")
        pool_sum_rf_local = T.sblock_alloc_buffer((8, 1, 96, 14, 14), scope="local")
        for ax0_ax1_ax2_fused in T.thread_binding(18816, thread="blockIdx.x"):
            for ax3_ax4_fused_1 in T.thread_binding(8, thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                with T.sblock("pool_sum_rf_init"):
                    vax3_ax4_fused_1 = T.axis.spatial(8, ax3_ax4_fused_1)
                    v0 = T.axis.spatial(96, ax0_ax1_ax2_fused // 196)
                    v1 = T.axis.spatial(14, ax0_ax1_ax2_fused % 196 // 14)
                    v2 = T.axis.spatial(14, ax0_ax1_ax2_fused % 14)
                    T.reads()
                    T.writes(pool_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2])
                    pool_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2] = T.float32(0.0)
                for ax3_ax4_fused_0, u in T.grid(2, 1):
                    with T.sblock("pool_sum_rf_update"):
                        vax3_ax4_fused_1 = T.axis.spatial(8, ax3_ax4_fused_1)
                        v0 = T.axis.spatial(96, ax0_ax1_ax2_fused // 196)
                        v1 = T.axis.spatial(14, ax0_ax1_ax2_fused % 196 // 14)
                        v2 = T.axis.spatial(14, ax0_ax1_ax2_fused % 14)
                        vax3_ax4_fused_0 = T.axis.reduce(2, ax3_ax4_fused_0)
                        T.where(ax3_ax4_fused_0 * 8 + ax3_ax4_fused_1 < 9)
                        T.reads(pool_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2], X[0, v0, v1 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) // 3, v2 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) % 3])
                        T.writes(pool_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2])
                        pool_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2] = pool_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2] + T.if_then_else(v1 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) // 3 < 28 and v2 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) % 3 < 28, X[0, v0, v1 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) // 3, v2 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) % 3], T.float32(0.0))
            for ax1_ax2_ax3_fused in range(1):
                for ax0 in T.thread_binding(8, thread="threadIdx.x"):
                    with T.sblock("pool_sum"):
                        vax3_ax4_fused_1 = T.axis.reduce(8, ax0)
                        v0 = T.axis.spatial(96, ax0_ax1_ax2_fused // 196)
                        v1 = T.axis.spatial(14, ax0_ax1_ax2_fused % 196 // 14)
                        v2 = T.axis.spatial(14, ax0_ax1_ax2_fused % 14)
                        T.reads(pool_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2])
                        T.writes(pool_sum_local[0, v0, v1, v2])
                        with T.init():
                            pool_sum_local[0, v0, v1, v2] = T.float32(0.0)
                        pool_sum_local[0, v0, v1, v2] = pool_sum_local[0, v0, v1, v2] + pool_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2]
            for ax0, ax1, ax2 in T.grid(1, 1, 1):
                with T.sblock("pool_avg"):
                    v0 = T.axis.spatial(96, ax0_ax1_ax2_fused // 196 + ax0)
                    v1 = T.axis.spatial(14, ax0_ax1_ax2_fused % 196 // 14 + ax1)
                    v2 = T.axis.spatial(14, ax0_ax1_ax2_fused % 14 + ax2)
                    T.reads(pool_sum_local[0, v0, v1, v2])
                    T.writes(pool_avg[0, v0, v1, v2])
                    T.sblock_attr({"schedule_rule": "meta_schedule.pool_avg"})
                    pool_avg[0, v0, v1, v2] = pool_sum_local[0, v0, v1, v2] / T.Cast("float32", (T.min(2, 27 - v1 * 2) + 1) * (T.min(2, 27 - v2 * 2) + 1))
