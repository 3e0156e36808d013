# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 32, 32, 16), "float32"), pool_max: T.Buffer((1, 16, 16, 16), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("pool_max_init"):
                    v0 = T.axis.spatial(16, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 256)
                    v1 = T.axis.spatial(16, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 256 // 16)
                    v2 = T.axis.spatial(16, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 16)
                    T.reads()
                    T.writes(pool_max[0, v0, v1, v2])
                    T.sblock_attr({"schedule_rule": "meta_schedule.pool_max"})
                    pool_max[0, v0, v1, v2] = T.float32(-340282346638528859811704183484516925440.0)
                for ax3, ax4 in T.grid(2, 2):
                    with T.sblock("pool_max_update"):
                        v0 = T.axis.spatial(16, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 256)
                        v1 = T.axis.spatial(16, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 256 // 16)
                        v2 = T.axis.spatial(16, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 16)
                        v3, v4 = T.axis.remap("RR", [ax3, ax4])
                        T.reads(pool_max[0, v0, v1, v2], X[0, v0 * 2 + v3, v1 * 2 + v4, v2])
                        T.writes(pool_max[0, v0, v1, v2])
                        T.sblock_attr({"schedule_rule": "meta_schedule.pool_max"})
                        pool_max[0, v0, v1, v2] = T.max(pool_max[0, v0, v1, v2], X[0, v0 * 2 + v3, v1 * 2 + v4, v2])
