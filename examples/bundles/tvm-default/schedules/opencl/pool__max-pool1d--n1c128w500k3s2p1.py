# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 128, 500), "float32"), pool_max: T.Buffer((1, 128, 250), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(125, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("pool_max_init"):
                    v0 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 250)
                    v1 = T.axis.spatial(250, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 250)
                    T.reads()
                    T.writes(pool_max[0, v0, v1])
                    T.sblock_attr({"schedule_rule": "meta_schedule.pool_max"})
                    pool_max[0, v0, v1] = T.float32(-340282346638528859811704183484516925440.0)
                for ax2 in range(3):
                    with T.sblock("pool_max_update"):
                        v0 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 250)
                        v1 = T.axis.spatial(250, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 250)
                        v2 = T.axis.reduce(3, ax2)
                        T.reads(pool_max[0, v0, v1], X[0, v0, v1 * 2 + v2 - 1])
                        T.writes(pool_max[0, v0, v1])
                        T.sblock_attr({"schedule_rule": "meta_schedule.pool_max"})
                        pool_max[0, v0, v1] = T.max(pool_max[0, v0, v1], T.if_then_else(1 <= v1 * 2 + v2 and v1 * 2 + v2 < 501, X[0, v0, v1 * 2 + v2 - 1], T.float32(-340282346638528859811704183484516925440.0)))
