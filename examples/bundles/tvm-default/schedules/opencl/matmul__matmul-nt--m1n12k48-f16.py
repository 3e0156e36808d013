# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((1, 48), "float16"), B: T.Buffer((12, 48), "float16"), T_matmul_f16: T.Buffer((1, 12), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_matmul_local = T.sblock_alloc_buffer((1, 12), scope="local")
        T_matmul_rf_local = T.sblock_alloc_buffer((64, 1, 12), scope="local")
        T_matmul_rf_local_1 = T.sblock_alloc_buffer((64, 1, 12), scope="local")
        B_local = T.sblock_alloc_buffer((12, 48), "float16", scope="local")
        for u_fused_ax0_fused_fused_0 in T.thread_binding(12, thread="blockIdx.x"):
            for u_fused_ax0_fused_fused_1 in T.thread_binding(1, thread="threadIdx.y"):
                for ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 in T.thread_binding(64, thread="threadIdx.x"):
                    for u_fused_ax0_fused_fused_2_init in range(1):
                        for ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1_init in T.vectorized(1):
                            with T.sblock("T_matmul_rf_init"):
                                vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused = T.axis.spatial(64, ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 + ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1_init)
                                v0 = T.axis.spatial(12, u_fused_ax0_fused_fused_0 + u_fused_ax0_fused_fused_1 + u_fused_ax0_fused_fused_2_init)
                                T.reads()
                                T.writes(T_matmul_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, 0, v0])
                                T_matmul_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, 0, v0] = T.float32(0.0)
                    for ax1_fused_u_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        for ax0_ax1_fused_0 in range(1):
                            for ax0_ax1_fused_1 in T.vectorized(1):
                                with T.sblock("B_local"):
                                    v0 = T.axis.spatial(12, u_fused_ax0_fused_fused_0)
                                    v1 = T.axis.spatial(48, ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0)
                                    T.where(ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 < 48)
                                    T.reads(B[v0, v1])
                                    T.writes(B_local[v0, v1])
                                    B_local[v0, v1] = B[v0, v1]
                        for u_fused_ax0_fused_fused_2, ax1_fused_u_fused_2 in T.grid(1, 1):
                            for ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1 in T.vectorized(1):
                                with T.sblock("T_matmul_rf_update"):
                                    vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused = T.axis.spatial(64, ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 + ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1)
                                    v0 = T.axis.spatial(12, u_fused_ax0_fused_fused_0 + u_fused_ax0_fused_fused_1 + u_fused_ax0_fused_fused_2)
                                    vax1_fused_u_fused_0, vax1_fused_u_fused_2 = T.axis.remap("RR", [ax1_fused_u_fused_0, ax1_fused_u_fused_2])
                                    T.where(T.Add(ax1_fused_u_fused_0 * 64 + (ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 + ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1) + ax1_fused_u_fused_2, 0) < 48)
                                    T.reads(T_matmul_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, 0, v0], A[0, vax1_fused_u_fused_0 * 64 + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused + vax1_fused_u_fused_2], B_local[v0, vax1_fused_u_fused_0 * 64 + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused + vax1_fused_u_fused_2])
                                    T.writes(T_matmul_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, 0, v0])
                                    T_matmul_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, 0, v0] = T_matmul_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, 0, v0] + T.Cast("float32", A[0, vax1_fused_u_fused_0 * 64 + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused + vax1_fused_u_fused_2]) * T.Cast("float32", B_local[v0, vax1_fused_u_fused_0 * 64 + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused + vax1_fused_u_fused_2])
            for ax2_fused_0_ax2_fused_1_fused in T.thread_binding(1, thread="threadIdx.y"):
                for ax0 in T.thread_binding(64, thread="threadIdx.x"):
                    for ax2_fused_2_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        for ax2_fused_2_1 in T.vectorized(1):
                            with T.sblock("T_matmul_rf_init"):
                                vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, v0 = T.axis.remap("SS", [ax0, u_fused_ax0_fused_fused_0])
                                T.reads()
                                T.writes(T_matmul_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, 0, v0])
                                T_matmul_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, 0, v0] = T.float32(0.0)
                            for ax1 in range(1):
                                with T.sblock("T_matmul_rf_update"):
                                    vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1, v0 = T.axis.remap("SRS", [ax0, ax1, u_fused_ax0_fused_fused_0])
                                    T.reads(T_matmul_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, 0, v0], T_matmul_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1, 0, v0])
                                    T.writes(T_matmul_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, 0, v0])
                                    T_matmul_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, 0, v0] = T_matmul_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, 0, v0] + T_matmul_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1, 0, v0]
            for ax1_fused_2 in range(1):
                for ax1_fused_0_ax1_fused_1_fused in T.thread_binding(1, thread="threadIdx.y"):
                    for ax0 in T.thread_binding(64, thread="threadIdx.x"):
                        with T.sblock("T_matmul"):
                            vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, v0 = T.axis.remap("RS", [ax0, u_fused_ax0_fused_fused_0])
                            T.reads(T_matmul_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, 0, v0])
                            T.writes(T_matmul_local[0, v0])
                            with T.init():
                                T_matmul_local[0, v0] = T.float32(0.0)
                            T_matmul_local[0, v0] = T_matmul_local[0, v0] + T_matmul_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, 0, v0]
            for ax0_fused_0_ax0_fused_1_fused in T.thread_binding(1, thread="threadIdx.y"):
                for ax0_fused_2 in range(1):
                    with T.sblock("T_matmul_f16"):
                        v0 = T.axis.spatial(12, u_fused_ax0_fused_fused_0)
                        T.reads(T_matmul_local[0, v0])
                        T.writes(T_matmul_f16[0, v0])
                        T_matmul_f16[0, v0] = T.Cast("float16", T_matmul_local[0, v0])
