# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((98, 257), "float32"), T_finish: T.Buffer((257,), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_mean_local = T.sblock_alloc_buffer((257,), scope="local")
        T_mean_rf_local = T.sblock_alloc_buffer((16, 257), scope="local")
        for ax0_fused_0 in T.thread_binding(257, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(1, thread="threadIdx.x"):
                for ax1_fused_1 in T.thread_binding(16, thread="threadIdx.y"):
                    with T.sblock("T_mean_rf_init"):
                        vax1_fused_1 = T.axis.spatial(16, ax1_fused_1)
                        v0 = T.axis.spatial(257, ax0_fused_0 + ax0_fused_1)
                        T.reads()
                        T.writes(T_mean_rf_local[vax1_fused_1, v0])
                        T_mean_rf_local[vax1_fused_1, v0] = T.float32(0.0)
                    for ax1_fused_0, u in T.grid(7, 1):
                        with T.sblock("T_mean_rf_update"):
                            vax1_fused_1 = T.axis.spatial(16, ax1_fused_1)
                            v0 = T.axis.spatial(257, ax0_fused_0 + ax0_fused_1)
                            vax1_fused_0 = T.axis.reduce(7, ax1_fused_0)
                            T.where(ax1_fused_0 * 16 + ax1_fused_1 < 98)
                            T.reads(T_mean_rf_local[vax1_fused_1, v0], X[vax1_fused_0 * 16 + vax1_fused_1, v0])
                            T.writes(T_mean_rf_local[vax1_fused_1, v0])
                            T_mean_rf_local[vax1_fused_1, v0] = T_mean_rf_local[vax1_fused_1, v0] + X[vax1_fused_0 * 16 + vax1_fused_1, v0]
            for ax1_fused in T.thread_binding(1, thread="threadIdx.x"):
                for ax0 in T.thread_binding(16, thread="threadIdx.y"):
                    with T.sblock("T_mean"):
                        vax1_fused_1, v0 = T.axis.remap("RS", [ax0, ax0_fused_0])
                        T.reads(T_mean_rf_local[vax1_fused_1, v0])
                        T.writes(T_mean_local[v0])
                        with T.init():
                            T_mean_local[v0] = T.float32(0.0)
                        T_mean_local[v0] = T_mean_local[v0] + T_mean_rf_local[vax1_fused_1, v0]
            for ax0_fused_0_1 in T.thread_binding(1, thread="threadIdx.x"):
                for ax0_fused_1 in range(1):
                    with T.sblock("T_finish"):
                        v0 = T.axis.spatial(257, ax0_fused_0)
                        T.reads(T_mean_local[v0])
                        T.writes(T_finish[v0])
                        T_finish[v0] = T_mean_local[v0] / T.float32(98.0)
