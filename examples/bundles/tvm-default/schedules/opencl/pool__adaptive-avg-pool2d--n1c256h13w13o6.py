# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 256, 13, 13), "float32"), adaptive_pool_avg: T.Buffer((1, 256, 6, 6), "float32")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        adaptive_pool_sum = T.sblock_alloc_buffer((1, 256, 6, 6))
        for ax0_ax1_ax2_ax3_fused_0 in T.thread_binding(36, thread="blockIdx.x"):
            for ax0_ax1_ax2_ax3_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("adaptive_pool_sum_l1"):
                    v_ax0 = T.axis.spatial(1, 0)
                    v_ax1 = T.axis.spatial(256, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) // 36)
                    v_ax2 = T.axis.spatial(6, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 36 // 6)
                    v_ax3 = T.axis.spatial(6, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 6)
                    T.reads(X[v_ax0, v_ax1, v_ax2 * 13 // 6:v_ax2 * 13 // 6 + ((v_ax2 % 6 + 13) // 6 + 1), v_ax3 * 13 // 6:v_ax3 * 13 // 6 + ((v_ax3 % 6 + 13) // 6 + 1)])
                    T.writes(adaptive_pool_sum[v_ax0, v_ax1, v_ax2, v_ax3])
                    for rv0, rv1 in T.grid(T.Select((v_ax2 * 13 + 1) % 6 == 0, (v_ax2 * 13 + 13) // 6, (v_ax2 * 13 + 13) // 6 + 1) - v_ax2 * 13 // 6, T.Select((v_ax3 * 13 + 1) % 6 == 0, (v_ax3 * 13 + 13) // 6, (v_ax3 * 13 + 13) // 6 + 1) - v_ax3 * 13 // 6):
                        with T.sblock("adaptive_pool_sum"):
                            v_ax0_1 = T.axis.spatial((v_ax0, v_ax0 + 1), v_ax0)
                            v_ax1_1 = T.axis.spatial((v_ax1, v_ax1 + 1), v_ax1)
                            v_ax2_1 = T.axis.spatial((v_ax2, v_ax2 + 1), v_ax2)
                            v_ax3_1 = T.axis.spatial((v_ax3, v_ax3 + 1), v_ax3)
                            v_rv0, v_rv1 = T.axis.remap("RR", [rv0, rv1])
                            T.reads(X[v_ax0_1, v_ax1_1, v_ax2_1 * 13 // 6 + v_rv0, v_ax3_1 * 13 // 6 + v_rv1])
                            T.writes(adaptive_pool_sum[v_ax0_1, v_ax1_1, v_ax2_1, v_ax3_1])
                            with T.init():
                                adaptive_pool_sum[v_ax0_1, v_ax1_1, v_ax2_1, v_ax3_1] = T.float32(0.0)
                            adaptive_pool_sum[v_ax0_1, v_ax1_1, v_ax2_1, v_ax3_1] = adaptive_pool_sum[v_ax0_1, v_ax1_1, v_ax2_1, v_ax3_1] + X[v_ax0_1, v_ax1_1, v_ax2_1 * 13 // 6 + v_rv0, v_ax3_1 * 13 // 6 + v_rv1]
        for ax0_ax1_ax2_ax3_fused_0 in T.thread_binding(36, thread="blockIdx.x"):
            for ax0_ax1_ax2_ax3_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("adaptive_pool_avg"):
                    v_ax0 = T.axis.spatial(1, 0)
                    v_ax1 = T.axis.spatial(256, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) // 36)
                    v_ax2 = T.axis.spatial(6, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 36 // 6)
                    v_ax3 = T.axis.spatial(6, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 6)
                    T.reads(adaptive_pool_sum[v_ax0, v_ax1, v_ax2, v_ax3])
                    T.writes(adaptive_pool_avg[v_ax0, v_ax1, v_ax2, v_ax3])
                    T.sblock_attr({"schedule_rule": "meta_schedule.adaptive_pool_avg"})
                    adaptive_pool_avg[v_ax0, v_ax1, v_ax2, v_ax3] = adaptive_pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] / (T.Cast("float32", T.Select((v_ax2 * 13 + 1) % 6 == 0, (v_ax2 * 13 + 13) // 6, (v_ax2 * 13 + 13) // 6 + 1) - v_ax2 * 13 // 6) * T.Cast("float32", T.Select((v_ax3 * 13 + 1) % 6 == 0, (v_ax3 * 13 + 13) // 6, (v_ax3 * 13 + 13) // 6 + 1) - v_ax3 * 13 // 6))
