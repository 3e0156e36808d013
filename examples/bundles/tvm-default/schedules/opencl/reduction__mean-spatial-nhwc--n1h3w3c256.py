# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 3, 3, 256), "float32"), T_mean: T.Buffer((1, 256), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_sum_local = T.sblock_alloc_buffer((1, 256), scope="local")
        T_sum_rf_local = T.sblock_alloc_buffer((16, 1, 256), scope="local")
        for ax0_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(16, thread="threadIdx.x"):
                for ax1_ax2_fused_1 in T.thread_binding(16, thread="threadIdx.y"):
                    with T.sblock("T_sum_rf_init"):
                        vax1_ax2_fused_1 = T.axis.spatial(16, ax1_ax2_fused_1)
                        v0 = T.axis.spatial(256, ax0_fused_0 * 16 + ax0_fused_1)
                        T.reads()
                        T.writes(T_sum_rf_local[vax1_ax2_fused_1, 0, v0])
                        T_sum_rf_local[vax1_ax2_fused_1, 0, v0] = T.float32(0.0)
                    for ax1_ax2_fused_0, u in T.grid(1, 1):
                        with T.sblock("T_sum_rf_update"):
                            vax1_ax2_fused_1 = T.axis.spatial(16, ax1_ax2_fused_1)
                            v0 = T.axis.spatial(256, ax0_fused_0 * 16 + ax0_fused_1)
                            vax1_ax2_fused_0 = T.axis.reduce(1, ax1_ax2_fused_0)
                            T.where(ax1_ax2_fused_0 * 16 + ax1_ax2_fused_1 < 9)
                            T.reads(T_sum_rf_local[vax1_ax2_fused_1, 0, v0], X[0, (vax1_ax2_fused_0 * 16 + vax1_ax2_fused_1) // 3, (vax1_ax2_fused_0 * 16 + vax1_ax2_fused_1) % 3, v0])
                            T.writes(T_sum_rf_local[vax1_ax2_fused_1, 0, v0])
                            T_sum_rf_local[vax1_ax2_fused_1, 0, v0] = T_sum_rf_local[vax1_ax2_fused_1, 0, v0] + X[0, (vax1_ax2_fused_0 * 16 + vax1_ax2_fused_1) // 3, (vax1_ax2_fused_0 * 16 + vax1_ax2_fused_1) % 3, v0]
            for ax1_fused in T.thread_binding(16, thread="threadIdx.x"):
                for ax0 in T.thread_binding(16, thread="threadIdx.y"):
                    with T.sblock("T_sum"):
                        vax1_ax2_fused_1 = T.axis.reduce(16, ax0)
                        v0 = T.axis.spatial(256, ax0_fused_0 * 16 + ax1_fused)
                        T.reads(T_sum_rf_local[vax1_ax2_fused_1, 0, v0])
                        T.writes(T_sum_local[0, v0])
                        with T.init():
                            T_sum_local[0, v0] = T.float32(0.0)
                        T_sum_local[0, v0] = T_sum_local[0, v0] + T_sum_rf_local[vax1_ax2_fused_1, 0, v0]
            for ax0_fused_0_1 in T.thread_binding(16, thread="threadIdx.x"):
                for ax0_fused_1 in range(1):
                    with T.sblock("T_mean"):
                        v0 = T.axis.spatial(256, ax0_fused_0 * 16 + ax0_fused_0_1 + ax0_fused_1)
                        T.reads(T_sum_local[0, v0])
                        T.writes(T_mean[0, v0])
                        T_mean[0, v0] = T_sum_local[0, v0] / T.float32(9.0)
