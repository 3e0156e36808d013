# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((6, 4096), "float32"), T_moving_average: T.Buffer((6, 4096), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_window_sum_shared = T.sblock_alloc_buffer((6, 4096), scope="shared")
        for ax0_ax1_fused in T.thread_binding(24576, thread="blockIdx.x"):
            for ax0, ax1 in T.grid(1, 1):
                for ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax2_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_window_sum"):
                            v0 = T.axis.spatial(6, ax0_ax1_fused // 4096 + ax0)
                            v1 = T.axis.spatial(4096, ax0_ax1_fused % 4096 + ax1)
                            v2 = T.axis.reduce(32, ax2_fused_0 * 256 + ax2_fused_1)
                            T.where(ax2_fused_0 * 256 + ax2_fused_1 < 32)
                            T.reads(x[v0, v1 + v2 - 31])
                            T.writes(T_window_sum_shared[v0, v1])
                            with T.init():
                                T_window_sum_shared[v0, v1] = T.float32(0.0)
                            T_window_sum_shared[v0, v1] = T_window_sum_shared[v0, v1] + T.if_then_else(31 <= v1 + v2 and v1 + v2 < 4127, x[v0, v1 + v2 - 31], T.float32(0.0))
            for ax2_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                for ax2_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_moving_average"):
                        v0 = T.axis.spatial(6, ax0_ax1_fused // 4096)
                        v1 = T.axis.spatial(4096, ax0_ax1_fused % 4096)
                        v2 = T.axis.spatial(T.int64(1), ax2_0 * T.int64(256) + ax2_1)
                        T.where(ax2_0 * T.int64(256) + ax2_1 < T.int64(1))
                        T.reads(T_window_sum_shared[v0, v1])
                        T.writes(T_moving_average[v0, v1])
                        T_moving_average[v0, v1] = T_window_sum_shared[v0, v1] * T.float32(0.03125)
