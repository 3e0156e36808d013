# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 64, 1000), "float32"), pool_avg: T.Buffer((1, 64, 250), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        pool_sum_local = T.sblock_alloc_buffer((1, 64, 250), scope="local")
        pool_sum_rf_local = T.sblock_alloc_buffer((4, 1, 64, 250), scope="local")
        for ax0_ax1_fused in T.thread_binding(16000, thread="blockIdx.x"):
            for ax2_fused_1 in T.thread_binding(4, thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                with T.sblock("pool_sum_rf_init"):
                    vax2_fused_1 = T.axis.spatial(4, ax2_fused_1)
                    v0 = T.axis.spatial(64, ax0_ax1_fused // 250)
                    v1 = T.axis.spatial(250, ax0_ax1_fused % 250)
                    T.reads()
                    T.writes(pool_sum_rf_local[vax2_fused_1, 0, v0, v1])
                    pool_sum_rf_local[vax2_fused_1, 0, v0, v1] = T.float32(0.0)
                for ax2_fused_0, u in T.grid(1, 1):
                    with T.sblock("pool_sum_rf_update"):
                        vax2_fused_1 = T.axis.spatial(4, ax2_fused_1)
                        v0 = T.axis.spatial(64, ax0_ax1_fused // 250)
                        v1 = T.axis.spatial(250, ax0_ax1_fused % 250)
                        vax2_fused_0 = T.axis.reduce(1, ax2_fused_0)
                        T.reads(pool_sum_rf_local[vax2_fused_1, 0, v0, v1], X[0, v0, v1 * 4 + (vax2_fused_0 * 4 + vax2_fused_1)])
                        T.writes(pool_sum_rf_local[vax2_fused_1, 0, v0, v1])
                        pool_sum_rf_local[vax2_fused_1, 0, v0, v1] = pool_sum_rf_local[vax2_fused_1, 0, v0, v1] + X[0, v0, v1 * 4 + (vax2_fused_0 * 4 + vax2_fused_1)]
            for ax1_ax2_fused in range(1):
                for ax0 in T.thread_binding(4, thread="threadIdx.x"):
                    with T.sblock("pool_sum"):
                        vax2_fused_1 = T.axis.reduce(4, ax0)
                        v0 = T.axis.spatial(64, ax0_ax1_fused // 250)
                        v1 = T.axis.spatial(250, ax0_ax1_fused % 250)
                        T.reads(pool_sum_rf_local[vax2_fused_1, 0, v0, v1])
                        T.writes(pool_sum_local[0, v0, v1])
                        with T.init():
                            pool_sum_local[0, v0, v1] = T.float32(0.0)
                        pool_sum_local[0, v0, v1] = pool_sum_local[0, v0, v1] + pool_sum_rf_local[vax2_fused_1, 0, v0, v1]
            for ax0, ax1 in T.grid(1, 1):
                with T.sblock("pool_avg"):
                    v0 = T.axis.spatial(64, ax0_ax1_fused // 250 + ax0)
                    v1 = T.axis.spatial(250, ax0_ax1_fused % 250 + ax1)
                    T.reads(pool_sum_local[0, v0, v1])
                    T.writes(pool_avg[0, v0, v1])
                    T.sblock_attr({"schedule_rule": "meta_schedule.pool_avg"})
                    pool_avg[0, v0, v1] = pool_sum_local[0, v0, v1] / T.Cast("float32", T.min(3, 999 - v1 * 4) + 1)
