# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 128, 20, 20), "float32"), adaptive_pool_max: T.Buffer((1, 128, 7, 7), "float32")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_ax3_fused_0 in T.thread_binding(25, thread="blockIdx.x"):
            for ax0_ax1_ax2_ax3_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("adaptive_pool_max_l1"):
                    v_ax0 = T.axis.spatial(1, 0)
                    v_ax1 = T.axis.spatial(128, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) // 49)
                    v_ax2 = T.axis.spatial(7, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 49 // 7)
                    v_ax3 = T.axis.spatial(7, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 7)
                    T.where(ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1 < 6272)
                    T.reads(X[v_ax0, v_ax1, v_ax2 * 20 // 7:v_ax2 * 20 // 7 + ((v_ax2 * 6 % 7 + 20) // 7 + 1), v_ax3 * 20 // 7:v_ax3 * 20 // 7 + ((v_ax3 * 6 % 7 + 20) // 7 + 1)])
                    T.writes(adaptive_pool_max[v_ax0, v_ax1, v_ax2, v_ax3])
                    T.sblock_attr({"schedule_rule": "meta_schedule.adaptive_pool_max"})
                    for rv0, rv1 in T.grid(T.Select((v_ax2 * 20 + 6) % 7 == 0, (v_ax2 * 20 + 20) // 7, (v_ax2 * 20 + 20) // 7 + 1) - v_ax2 * 20 // 7, T.Select((v_ax3 * 20 + 6) % 7 == 0, (v_ax3 * 20 + 20) // 7, (v_ax3 * 20 + 20) // 7 + 1) - v_ax3 * 20 // 7):
                        with T.sblock("adaptive_pool_max"):
                            v_ax0_1 = T.axis.spatial((v_ax0, v_ax0 + 1), v_ax0)
                            v_ax1_1 = T.axis.spatial((v_ax1, v_ax1 + 1), v_ax1)
                            v_ax2_1 = T.axis.spatial((v_ax2, v_ax2 + 1), v_ax2)
                            v_ax3_1 = T.axis.spatial((v_ax3, v_ax3 + 1), v_ax3)
                            v_rv0, v_rv1 = T.axis.remap("RR", [rv0, rv1])
                            T.reads(X[v_ax0_1, v_ax1_1, v_ax2_1 * 20 // 7 + v_rv0, v_ax3_1 * 20 // 7 + v_rv1])
                            T.writes(adaptive_pool_max[v_ax0_1, v_ax1_1, v_ax2_1, v_ax3_1])
                            T.sblock_attr({"schedule_rule": "meta_schedule.adaptive_pool_max"})
                            with T.init():
                                adaptive_pool_max[v_ax0_1, v_ax1_1, v_ax2_1, v_ax3_1] = T.float32(-340282346638528859811704183484516925440.0)
                            adaptive_pool_max[v_ax0_1, v_ax1_1, v_ax2_1, v_ax3_1] = T.max(adaptive_pool_max[v_ax0_1, v_ax1_1, v_ax2_1, v_ax3_1], X[v_ax0_1, v_ax1_1, v_ax2_1 * 20 // 7 + v_rv0, v_ax3_1 * 20 // 7 + v_rv1])
