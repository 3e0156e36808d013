# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 56, 56, 64), "float32"), pool_avg: T.Buffer((1, 28, 28, 64), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        pool_sum_shared = T.sblock_alloc_buffer((1, 28, 28, 64), scope="shared")
        for ax0_ax1_ax2_fused in T.thread_binding(50176, thread="blockIdx.x"):
            for ax0, ax1, ax2 in T.grid(1, 1, 1):
                for ax3_ax4_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax3_ax4_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("pool_sum"):
                            v0 = T.axis.spatial(28, ax0_ax1_ax2_fused // 1792 + ax0)
                            v1 = T.axis.spatial(28, ax0_ax1_ax2_fused % 1792 // 64 + ax1)
                            v2 = T.axis.spatial(64, ax0_ax1_ax2_fused % 64 + ax2)
                            v3 = T.axis.reduce(2, (ax3_ax4_fused_0 * 256 + ax3_ax4_fused_1) // 2)
                            v4 = T.axis.reduce(2, (ax3_ax4_fused_0 * 256 + ax3_ax4_fused_1) % 2)
                            T.where(ax3_ax4_fused_0 * 256 + ax3_ax4_fused_1 < 4)
                            T.reads(X[0, v0 * 2 + v3, v1 * 2 + v4, v2])
                            T.writes(pool_sum_shared[0, v0, v1, v2])
                            with T.init():
                                pool_sum_shared[0, v0, v1, v2] = T.float32(0.0)
                            pool_sum_shared[0, v0, v1, v2] = pool_sum_shared[0, v0, v1, v2] + X[0, v0 * 2 + v3, v1 * 2 + v4, v2]
            for ax3 in range(T.int64(1)):
                for ax4_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                    for ax4_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("pool_avg"):
                            v0 = T.axis.spatial(28, ax0_ax1_ax2_fused // 1792)
                            v1 = T.axis.spatial(28, ax0_ax1_ax2_fused % 1792 // 64)
                            v2 = T.axis.spatial(64, ax0_ax1_ax2_fused % 64)
                            v3 = T.axis.spatial(T.int64(1), ax3)
                            v4 = T.axis.spatial(T.int64(1), ax4_0 * T.int64(256) + ax4_1)
                            T.where(ax4_0 * T.int64(256) + ax4_1 < T.int64(1))
                            T.reads(pool_sum_shared[0, v0, v1, v2])
                            T.writes(pool_avg[0, v0, v1, v2])
                            T.sblock_attr({"schedule_rule": "meta_schedule.pool_avg"})
                            pool_avg[0, v0, v1, v2] = pool_sum_shared[0, v0, v1, v2] / T.Cast("float32", (T.min(1, 55 - v0 * 2) + 1) * (T.min(1, 55 - v1 * 2) + 1))
