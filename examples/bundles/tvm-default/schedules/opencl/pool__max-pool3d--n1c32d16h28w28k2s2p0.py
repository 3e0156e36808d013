# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 32, 16, 28, 28), "float32"), pool_max: T.Buffer((1, 32, 8, 14, 14), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_ax3_fused_0 in T.thread_binding(196, thread="blockIdx.x"):
            for ax0_ax1_ax2_ax3_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("pool_max_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) // 1568)
                    v1 = T.axis.spatial(8, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 1568 // 196)
                    v2 = T.axis.spatial(14, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 196 // 14)
                    v3 = T.axis.spatial(14, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 14)
                    T.reads()
                    T.writes(pool_max[0, v0, v1, v2, v3])
                    T.sblock_attr({"schedule_rule": "meta_schedule.pool_max"})
                    pool_max[0, v0, v1, v2, v3] = T.float32(-340282346638528859811704183484516925440.0)
                for ax4, ax5, ax6 in T.grid(2, 2, 2):
                    with T.sblock("pool_max_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) // 1568)
                        v1 = T.axis.spatial(8, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 1568 // 196)
                        v2 = T.axis.spatial(14, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 196 // 14)
                        v3 = T.axis.spatial(14, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 14)
                        v4, v5, v6 = T.axis.remap("RRR", [ax4, ax5, ax6])
                        T.reads(pool_max[0, v0, v1, v2, v3], X[0, v0, v1 * 2 + v4, v2 * 2 + v5, v3 * 2 + v6])
                        T.writes(pool_max[0, v0, v1, v2, v3])
                        T.sblock_attr({"schedule_rule": "meta_schedule.pool_max"})
                        pool_max[0, v0, v1, v2, v3] = T.max(pool_max[0, v0, v1, v2, v3], X[0, v0, v1 * 2 + v4, v2 * 2 + v5, v3 * 2 + v6])
