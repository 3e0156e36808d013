# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((4, 1024), "float32"), y: T.Buffer((4, 1087), "float32"), T_xcorr: T.Buffer((4, 64), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_xcorr_rf_local = T.sblock_alloc_buffer((16, 4, 64), scope="local")
        for ax0_ax1_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(16, thread="threadIdx.x"):
                for ax2_fused_1 in T.thread_binding(16, thread="threadIdx.y"):
                    with T.sblock("T_xcorr_rf_init"):
                        vax2_fused_1 = T.axis.spatial(16, ax2_fused_1)
                        v0 = T.axis.spatial(4, (ax0_ax1_fused_0 * 16 + ax0_ax1_fused_1) // 64)
                        v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 16 + ax0_ax1_fused_1) % 64)
                        T.reads()
                        T.writes(T_xcorr_rf_local[vax2_fused_1, v0, v1])
                        T_xcorr_rf_local[vax2_fused_1, v0, v1] = T.float32(0.0)
                    for ax2_fused_0, u in T.grid(64, 1):
                        with T.sblock("T_xcorr_rf_update"):
                            vax2_fused_1 = T.axis.spatial(16, ax2_fused_1)
                            v0 = T.axis.spatial(4, (ax0_ax1_fused_0 * 16 + ax0_ax1_fused_1) // 64)
                            v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 16 + ax0_ax1_fused_1) % 64)
                            vax2_fused_0 = T.axis.reduce(64, ax2_fused_0)
                            T.reads(T_xcorr_rf_local[vax2_fused_1, v0, v1], x[v0, vax2_fused_0 * 16 + vax2_fused_1], y[v0, vax2_fused_0 * 16 + vax2_fused_1 + v1])
                            T.writes(T_xcorr_rf_local[vax2_fused_1, v0, v1])
                            T_xcorr_rf_local[vax2_fused_1, v0, v1] = T_xcorr_rf_local[vax2_fused_1, v0, v1] + x[v0, vax2_fused_0 * 16 + vax2_fused_1] * y[v0, vax2_fused_0 * 16 + vax2_fused_1 + v1]
            for ax1_ax2_fused in T.thread_binding(16, thread="threadIdx.x"):
                for ax0 in T.thread_binding(16, thread="threadIdx.y"):
                    with T.sblock("T_xcorr"):
                        vax2_fused_1 = T.axis.reduce(16, ax0)
                        v0 = T.axis.spatial(4, ax0_ax1_fused_0 // 4)
                        v1 = T.axis.spatial(64, ax0_ax1_fused_0 % 4 * 16 + ax1_ax2_fused)
                        T.reads(T_xcorr_rf_local[vax2_fused_1, v0, v1])
                        T.writes(T_xcorr[v0, v1])
                        with T.init():
                            T_xcorr[v0, v1] = T.float32(0.0)
                        T_xcorr[v0, v1] = T_xcorr[v0, v1] + T_xcorr_rf_local[vax2_fused_1, v0, v1]
