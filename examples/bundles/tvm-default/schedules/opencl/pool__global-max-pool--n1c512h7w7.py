# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 512, 7, 7), "float32"), adaptive_pool_max: T.Buffer((1, 512, 1, 1), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_fused_0 in T.thread_binding(2, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("adaptive_pool_max_init"):
                    v0 = T.axis.spatial(512, ax0_fused_0 * 256 + ax0_fused_1)
                    T.reads()
                    T.writes(adaptive_pool_max[0, v0, 0, 0])
                    T.sblock_attr({"schedule_rule": "meta_schedule.adaptive_pool_max"})
                    adaptive_pool_max[0, v0, 0, 0] = T.float32(-340282346638528859811704183484516925440.0)
                for ax1, ax2 in T.grid(7, 7):
                    with T.sblock("adaptive_pool_max_update"):
                        v0 = T.axis.spatial(512, ax0_fused_0 * 256 + ax0_fused_1)
                        v1, v2 = T.axis.remap("RR", [ax1, ax2])
                        T.reads(adaptive_pool_max[0, v0, 0, 0], X[0, v0, v1, v2])
                        T.writes(adaptive_pool_max[0, v0, 0, 0])
                        T.sblock_attr({"schedule_rule": "meta_schedule.adaptive_pool_max"})
                        adaptive_pool_max[0, v0, 0, 0] = T.max(adaptive_pool_max[0, v0, 0, 0], X[0, v0, v1, v2])
