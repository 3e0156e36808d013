# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 128, 250), "float32"), adaptive_pool_avg: T.Buffer((1, 128, 16), "float32")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        adaptive_pool_sum = T.sblock_alloc_buffer((1, 128, 16))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(8, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("adaptive_pool_sum_l1"):
                    v_ax0 = T.axis.spatial(1, 0)
                    v_ax1 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 16)
                    v_ax2 = T.axis.spatial(16, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 16)
                    T.reads(X[v_ax0, v_ax1, v_ax2 * 250 // 16:v_ax2 * 250 // 16 + ((v_ax2 * 10 % 16 + 250) // 16 + 1)])
                    T.writes(adaptive_pool_sum[v_ax0, v_ax1, v_ax2])
                    for rv0 in range(T.Select((v_ax2 * 250 + 10) % 16 == 0, (v_ax2 * 250 + 250) // 16, (v_ax2 * 250 + 250) // 16 + 1) - v_ax2 * 250 // 16):
                        with T.sblock("adaptive_pool_sum"):
                            v_ax0_1 = T.axis.spatial((v_ax0, v_ax0 + 1), v_ax0)
                            v_ax1_1 = T.axis.spatial((v_ax1, v_ax1 + 1), v_ax1)
                            v_ax2_1 = T.axis.spatial((v_ax2, v_ax2 + 1), v_ax2)
                            v_rv0 = T.axis.reduce(T.Select((v_ax2 * 250 + 10) % 16 == 0, (v_ax2 * 250 + 250) // 16, (v_ax2 * 250 + 250) // 16 + 1) - v_ax2 * 250 // 16, rv0)
                            T.reads(X[v_ax0_1, v_ax1_1, v_ax2_1 * 250 // 16 + v_rv0])
                            T.writes(adaptive_pool_sum[v_ax0_1, v_ax1_1, v_ax2_1])
                            with T.init():
                                adaptive_pool_sum[v_ax0_1, v_ax1_1, v_ax2_1] = T.float32(0.0)
                            adaptive_pool_sum[v_ax0_1, v_ax1_1, v_ax2_1] = adaptive_pool_sum[v_ax0_1, v_ax1_1, v_ax2_1] + X[v_ax0_1, v_ax1_1, v_ax2_1 * 250 // 16 + v_rv0]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(8, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("adaptive_pool_avg"):
                    v_ax0 = T.axis.spatial(1, 0)
                    v_ax1 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 16)
                    v_ax2 = T.axis.spatial(16, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 16)
                    T.reads(adaptive_pool_sum[v_ax0, v_ax1, v_ax2])
                    T.writes(adaptive_pool_avg[v_ax0, v_ax1, v_ax2])
                    T.sblock_attr({"schedule_rule": "meta_schedule.adaptive_pool_avg"})
                    adaptive_pool_avg[v_ax0, v_ax1, v_ax2] = adaptive_pool_sum[v_ax0, v_ax1, v_ax2] / T.Cast("float32", T.Select((v_ax2 * 250 + 10) % 16 == 0, (v_ax2 * 250 + 250) // 16, (v_ax2 * 250 + 250) // 16 + 1) - v_ax2 * 250 // 16)
