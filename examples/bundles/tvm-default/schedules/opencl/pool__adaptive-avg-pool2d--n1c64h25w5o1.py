# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 64, 25, 5), "float32"), adaptive_pool_avg: T.Buffer((1, 64, 1, 1), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        adaptive_pool_sum_local = T.sblock_alloc_buffer((1, 64, 1, 1), scope="local")
        adaptive_pool_sum_rf_local = T.sblock_alloc_buffer((64, 1, 64, 1, 1), scope="local")
        for ax0_fused in T.thread_binding(64, thread="blockIdx.x"):
            for ax1_ax2_fused_1 in T.thread_binding(64, thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                with T.sblock("adaptive_pool_sum_rf_init"):
                    vax1_ax2_fused_1, v0 = T.axis.remap("SS", [ax1_ax2_fused_1, ax0_fused])
                    T.reads()
                    T.writes(adaptive_pool_sum_rf_local[vax1_ax2_fused_1, 0, v0, 0, 0])
                    adaptive_pool_sum_rf_local[vax1_ax2_fused_1, 0, v0, 0, 0] = T.float32(0.0)
                for ax1_ax2_fused_0, u in T.grid(2, 1):
                    with T.sblock("adaptive_pool_sum_rf_update"):
                        vax1_ax2_fused_1, v0, vax1_ax2_fused_0 = T.axis.remap("SSR", [ax1_ax2_fused_1, ax0_fused, ax1_ax2_fused_0])
                        T.where(ax1_ax2_fused_0 * 64 + ax1_ax2_fused_1 < 125)
                        T.reads(adaptive_pool_sum_rf_local[vax1_ax2_fused_1, 0, v0, 0, 0], X[0, v0, (vax1_ax2_fused_0 * 64 + vax1_ax2_fused_1) // 5, (vax1_ax2_fused_0 * 64 + vax1_ax2_fused_1) % 5])
                        T.writes(adaptive_pool_sum_rf_local[vax1_ax2_fused_1, 0, v0, 0, 0])
                        adaptive_pool_sum_rf_local[vax1_ax2_fused_1, 0, v0, 0, 0] = adaptive_pool_sum_rf_local[vax1_ax2_fused_1, 0, v0, 0, 0] + X[0, v0, (vax1_ax2_fused_0 * 64 + vax1_ax2_fused_1) // 5, (vax1_ax2_fused_0 * 64 + vax1_ax2_fused_1) % 5]
            for ax1_fused in range(1):
                for ax0 in T.thread_binding(64, thread="threadIdx.x"):
                    with T.sblock("adaptive_pool_sum"):
                        vax1_ax2_fused_1, v0 = T.axis.remap("RS", [ax0, ax0_fused])
                        T.reads(adaptive_pool_sum_rf_local[vax1_ax2_fused_1, 0, v0, 0, 0])
                        T.writes(adaptive_pool_sum_local[0, v0, 0, 0])
                        with T.init():
                            adaptive_pool_sum_local[0, v0, 0, 0] = T.float32(0.0)
                        adaptive_pool_sum_local[0, v0, 0, 0] = adaptive_pool_sum_local[0, v0, 0, 0] + adaptive_pool_sum_rf_local[vax1_ax2_fused_1, 0, v0, 0, 0]
            for ax0 in range(1):
                with T.sblock("adaptive_pool_avg"):
                    v0 = T.axis.spatial(64, ax0_fused + ax0)
                    T.reads(adaptive_pool_sum_local[0, v0, 0, 0])
                    T.writes(adaptive_pool_avg[0, v0, 0, 0])
                    T.sblock_attr({"schedule_rule": "meta_schedule.adaptive_pool_avg"})
                    adaptive_pool_avg[0, v0, 0, 0] = adaptive_pool_sum_local[0, v0, 0, 0] / T.float32(125.0)
