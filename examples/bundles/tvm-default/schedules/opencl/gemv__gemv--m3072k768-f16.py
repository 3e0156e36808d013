# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((3072, 768), "float16"), x: T.Buffer((768,), "float16"), T_gemv_f16: T.Buffer((3072,), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_gemv_local = T.sblock_alloc_buffer((3072,), scope="local")
        T_gemv_rf_local = T.sblock_alloc_buffer((64, 3072), scope="local")
        T_gemv_rf_local_1 = T.sblock_alloc_buffer((64, 3072), scope="local")
        x_local = T.sblock_alloc_buffer((768,), "float16", scope="local")
        for u_fused_ax0_fused_fused_0 in T.thread_binding(3072, thread="blockIdx.x"):
            for u_fused_ax0_fused_fused_1 in T.thread_binding(1, thread="threadIdx.y"):
                for ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 in T.thread_binding(64, thread="threadIdx.x"):
                    for u_fused_ax0_fused_fused_2_init in range(1):
                        for ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1_init in T.vectorized(1):
                            with T.sblock("T_gemv_rf_init"):
                                vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused = T.axis.spatial(64, ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 + ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1_init)
                                v0 = T.axis.spatial(3072, u_fused_ax0_fused_fused_0 + u_fused_ax0_fused_fused_1 + u_fused_ax0_fused_fused_2_init)
                                T.reads()
                                T.writes(T_gemv_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, v0])
                                T_gemv_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, v0] = T.float32(0.0)
                    for ax1_fused_u_fused_0 in T.serial(3, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        for ax0_0 in range(4):
                            for ax0_1 in T.vectorized(1):
                                with T.sblock("x_local"):
                                    v0 = T.axis.spatial(768, ax1_fused_u_fused_0 * 256 + ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 * 4 + ax0_0 + ax0_1)
                                    T.reads(x[v0])
                                    T.writes(x_local[v0])
                                    x_local[v0] = x[v0]
                        for u_fused_ax0_fused_fused_2, ax1_fused_u_fused_2 in T.grid(1, 4):
                            for ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1 in T.vectorized(1):
                                with T.sblock("T_gemv_rf_update"):
                                    vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused = T.axis.spatial(64, ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 + ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1)
                                    v0 = T.axis.spatial(3072, u_fused_ax0_fused_fused_0 + u_fused_ax0_fused_fused_1 + u_fused_ax0_fused_fused_2)
                                    vax1_fused_u_fused_0, vax1_fused_u_fused_2 = T.axis.remap("RR", [ax1_fused_u_fused_0, ax1_fused_u_fused_2])
                                    T.reads(T_gemv_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, v0], A[v0, vax1_fused_u_fused_0 * 256 + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused * 4 + vax1_fused_u_fused_2], x_local[vax1_fused_u_fused_0 * 256 + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused * 4 + vax1_fused_u_fused_2])
                                    T.writes(T_gemv_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, v0])
                                    T_gemv_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, v0] = T_gemv_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, v0] + T.Cast("float32", A[v0, vax1_fused_u_fused_0 * 256 + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused * 4 + vax1_fused_u_fused_2]) * T.Cast("float32", x_local[vax1_fused_u_fused_0 * 256 + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused * 4 + vax1_fused_u_fused_2])
            for ax2_fused_0_ax2_fused_1_fused in T.thread_binding(1, thread="threadIdx.y"):
                for ax0 in T.thread_binding(64, thread="threadIdx.x"):
                    for ax2_fused_2_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        for ax2_fused_2_1 in T.vectorized(1):
                            with T.sblock("T_gemv_rf_init"):
                                vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, v0 = T.axis.remap("SS", [ax0, u_fused_ax0_fused_fused_0])
                                T.reads()
                                T.writes(T_gemv_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, v0])
                                T_gemv_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, v0] = T.float32(0.0)
                            for ax1 in range(1):
                                with T.sblock("T_gemv_rf_update"):
                                    vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1, v0 = T.axis.remap("SRS", [ax0, ax1, u_fused_ax0_fused_fused_0])
                                    T.reads(T_gemv_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, v0], T_gemv_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1, v0])
                                    T.writes(T_gemv_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, v0])
                                    T_gemv_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, v0] = T_gemv_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, v0] + T_gemv_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1, v0]
            for ax1_fused_2 in range(1):
                for ax1_fused_0_ax1_fused_1_fused in T.thread_binding(1, thread="threadIdx.y"):
                    for ax0 in T.thread_binding(64, thread="threadIdx.x"):
                        with T.sblock("T_gemv"):
                            vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, v0 = T.axis.remap("RS", [ax0, u_fused_ax0_fused_fused_0])
                            T.reads(T_gemv_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, v0])
                            T.writes(T_gemv_local[v0])
                            with T.init():
                                T_gemv_local[v0] = T.float32(0.0)
                            T_gemv_local[v0] = T_gemv_local[v0] + T_gemv_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, v0]
            for ax0_fused_0_ax0_fused_1_fused in T.thread_binding(1, thread="threadIdx.y"):
                for ax0_fused_2 in range(1):
                    with T.sblock("T_gemv_f16"):
                        v0 = T.axis.spatial(3072, u_fused_ax0_fused_fused_0)
                        T.reads(T_gemv_local[v0])
                        T.writes(T_gemv_f16[v0])
                        T_gemv_f16[v0] = T.Cast("float16", T_gemv_local[v0])
