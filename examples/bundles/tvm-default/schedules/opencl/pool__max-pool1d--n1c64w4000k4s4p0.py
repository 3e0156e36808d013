# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 64, 4000), "float32"), pool_max: T.Buffer((1, 64, 1000), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(250, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("pool_max_init"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1000)
                    v1 = T.axis.spatial(1000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1000)
                    T.reads()
                    T.writes(pool_max[0, v0, v1])
                    T.sblock_attr({"schedule_rule": "meta_schedule.pool_max"})
                    pool_max[0, v0, v1] = T.float32(-340282346638528859811704183484516925440.0)
                for ax2 in range(4):
                    with T.sblock("pool_max_update"):
                        v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1000)
                        v1 = T.axis.spatial(1000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1000)
                        v2 = T.axis.reduce(4, ax2)
                        T.reads(pool_max[0, v0, v1], X[0, v0, v1 * 4 + v2])
                        T.writes(pool_max[0, v0, v1])
                        T.sblock_attr({"schedule_rule": "meta_schedule.pool_max"})
                        pool_max[0, v0, v1] = T.max(pool_max[0, v0, v1], X[0, v0, v1 * 4 + v2])
