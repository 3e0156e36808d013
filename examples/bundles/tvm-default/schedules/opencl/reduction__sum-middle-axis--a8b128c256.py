# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((8, 128, 256), "float32"), T_sum: T.Buffer((8, 256), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_sum_rf_local = T.sblock_alloc_buffer((16, 8, 256), scope="local")
        for ax0_ax1_fused_0 in T.thread_binding(128, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(16, thread="threadIdx.x"):
                for ax2_fused_1 in T.thread_binding(16, thread="threadIdx.y"):
                    with T.sblock("T_sum_rf_init"):
                        vax2_fused_1 = T.axis.spatial(16, ax2_fused_1)
                        v0 = T.axis.spatial(8, (ax0_ax1_fused_0 * 16 + ax0_ax1_fused_1) // 256)
                        v1 = T.axis.spatial(256, (ax0_ax1_fused_0 * 16 + ax0_ax1_fused_1) % 256)
                        T.reads()
                        T.writes(T_sum_rf_local[vax2_fused_1, v0, v1])
                        T_sum_rf_local[vax2_fused_1, v0, v1] = T.float32(0.0)
                    for ax2_fused_0, u in T.grid(8, 1):
                        with T.sblock("T_sum_rf_update"):
                            vax2_fused_1 = T.axis.spatial(16, ax2_fused_1)
                            v0 = T.axis.spatial(8, (ax0_ax1_fused_0 * 16 + ax0_ax1_fused_1) // 256)
                            v1 = T.axis.spatial(256, (ax0_ax1_fused_0 * 16 + ax0_ax1_fused_1) % 256)
                            vax2_fused_0 = T.axis.reduce(8, ax2_fused_0)
                            T.reads(T_sum_rf_local[vax2_fused_1, v0, v1], X[v0, vax2_fused_0 * 16 + vax2_fused_1, v1])
                            T.writes(T_sum_rf_local[vax2_fused_1, v0, v1])
                            T_sum_rf_local[vax2_fused_1, v0, v1] = T_sum_rf_local[vax2_fused_1, v0, v1] + X[v0, vax2_fused_0 * 16 + vax2_fused_1, v1]
            for ax1_ax2_fused in T.thread_binding(16, thread="threadIdx.x"):
                for ax0 in T.thread_binding(16, thread="threadIdx.y"):
                    with T.sblock("T_sum"):
                        vax2_fused_1 = T.axis.reduce(16, ax0)
                        v0 = T.axis.spatial(8, ax0_ax1_fused_0 // 16)
                        v1 = T.axis.spatial(256, ax0_ax1_fused_0 % 16 * 16 + ax1_ax2_fused)
                        T.reads(T_sum_rf_local[vax2_fused_1, v0, v1])
                        T.writes(T_sum[v0, v1])
                        with T.init():
                            T_sum[v0, v1] = T.float32(0.0)
                        T_sum[v0, v1] = T_sum[v0, v1] + T_sum_rf_local[vax2_fused_1, v0, v1]
