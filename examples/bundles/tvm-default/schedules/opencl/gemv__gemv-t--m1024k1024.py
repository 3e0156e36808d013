# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((1024, 1024), "float32"), x: T.Buffer((1024,), "float32"), T_gemv_t: T.Buffer((1024,), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_gemv_t_rf_local = T.sblock_alloc_buffer((16, 1024), scope="local")
        for ax0_fused_0 in T.thread_binding(64, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(16, thread="threadIdx.x"):
                for ax1_fused_1 in T.thread_binding(16, thread="threadIdx.y"):
                    with T.sblock("T_gemv_t_rf_init"):
                        vax1_fused_1 = T.axis.spatial(16, ax1_fused_1)
                        v0 = T.axis.spatial(1024, ax0_fused_0 * 16 + ax0_fused_1)
                        T.reads()
                        T.writes(T_gemv_t_rf_local[vax1_fused_1, v0])
                        T_gemv_t_rf_local[vax1_fused_1, v0] = T.float32(0.0)
                    for ax1_fused_0, u in T.grid(64, 1):
                        with T.sblock("T_gemv_t_rf_update"):
                            vax1_fused_1 = T.axis.spatial(16, ax1_fused_1)
                            v0 = T.axis.spatial(1024, ax0_fused_0 * 16 + ax0_fused_1)
                            vax1_fused_0 = T.axis.reduce(64, ax1_fused_0)
                            T.reads(T_gemv_t_rf_local[vax1_fused_1, v0], A[vax1_fused_0 * 16 + vax1_fused_1, v0], x[vax1_fused_0 * 16 + vax1_fused_1])
                            T.writes(T_gemv_t_rf_local[vax1_fused_1, v0])
                            T_gemv_t_rf_local[vax1_fused_1, v0] = T_gemv_t_rf_local[vax1_fused_1, v0] + A[vax1_fused_0 * 16 + vax1_fused_1, v0] * x[vax1_fused_0 * 16 + vax1_fused_1]
            for ax1_fused in T.thread_binding(16, thread="threadIdx.x"):
                for ax0 in T.thread_binding(16, thread="threadIdx.y"):
                    with T.sblock("T_gemv_t"):
                        vax1_fused_1 = T.axis.reduce(16, ax0)
                        v0 = T.axis.spatial(1024, ax0_fused_0 * 16 + ax1_fused)
                        T.reads(T_gemv_t_rf_local[vax1_fused_1, v0])
                        T.writes(T_gemv_t[v0])
                        with T.init():
                            T_gemv_t[v0] = T.float32(0.0)
                        T_gemv_t[v0] = T_gemv_t[v0] + T_gemv_t_rf_local[vax1_fused_1, v0]
