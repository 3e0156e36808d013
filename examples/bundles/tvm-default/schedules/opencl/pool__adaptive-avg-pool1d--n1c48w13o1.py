# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 48, 13), "float32"), adaptive_pool_avg: T.Buffer((1, 48, 1), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        adaptive_pool_sum_local = T.sblock_alloc_buffer((1, 48, 1), scope="local")
        adaptive_pool_sum_rf_local = T.sblock_alloc_buffer((8, 1, 48, 1), scope="local")
        for ax0_fused in T.thread_binding(48, thread="blockIdx.x"):
            for ax1_fused_1 in T.thread_binding(8, thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                with T.sblock("adaptive_pool_sum_rf_init"):
                    vax1_fused_1, v0 = T.axis.remap("SS", [ax1_fused_1, ax0_fused])
                    T.reads()
                    T.writes(adaptive_pool_sum_rf_local[vax1_fused_1, 0, v0, 0])
                    adaptive_pool_sum_rf_local[vax1_fused_1, 0, v0, 0] = T.float32(0.0)
                for ax1_fused_0, u in T.grid(2, 1):
                    with T.sblock("adaptive_pool_sum_rf_update"):
                        vax1_fused_1, v0, vax1_fused_0 = T.axis.remap("SSR", [ax1_fused_1, ax0_fused, ax1_fused_0])
                        T.where(ax1_fused_0 * 8 + ax1_fused_1 < 13)
                        T.reads(adaptive_pool_sum_rf_local[vax1_fused_1, 0, v0, 0], X[0, v0, vax1_fused_0 * 8 + vax1_fused_1])
                        T.writes(adaptive_pool_sum_rf_local[vax1_fused_1, 0, v0, 0])
                        adaptive_pool_sum_rf_local[vax1_fused_1, 0, v0, 0] = adaptive_pool_sum_rf_local[vax1_fused_1, 0, v0, 0] + X[0, v0, vax1_fused_0 * 8 + vax1_fused_1]
            for ax1_fused in range(1):
                for ax0 in T.thread_binding(8, thread="threadIdx.x"):
                    with T.sblock("adaptive_pool_sum"):
                        vax1_fused_1, v0 = T.axis.remap("RS", [ax0, ax0_fused])
                        T.reads(adaptive_pool_sum_rf_local[vax1_fused_1, 0, v0, 0])
                        T.writes(adaptive_pool_sum_local[0, v0, 0])
                        with T.init():
                            adaptive_pool_sum_local[0, v0, 0] = T.float32(0.0)
                        adaptive_pool_sum_local[0, v0, 0] = adaptive_pool_sum_local[0, v0, 0] + adaptive_pool_sum_rf_local[vax1_fused_1, 0, v0, 0]
            for ax0 in range(1):
                with T.sblock("adaptive_pool_avg"):
                    v0 = T.axis.spatial(48, ax0_fused + ax0)
                    T.reads(adaptive_pool_sum_local[0, v0, 0])
                    T.writes(adaptive_pool_avg[0, v0, 0])
                    T.sblock_attr({"schedule_rule": "meta_schedule.adaptive_pool_avg"})
                    adaptive_pool_avg[0, v0, 0] = adaptive_pool_sum_local[0, v0, 0] / T.float32(13.0)
