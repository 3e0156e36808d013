# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 128), "int8"), W: T.Buffer((640, 128), "int8"), bias: T.Buffer((640,), "int32"), T_requantize: T.Buffer((1, 640), "int8")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_qdense_local = T.sblock_alloc_buffer((1, 640), "int32", scope="local")
        T_qdense_rf_local = T.sblock_alloc_buffer((64, 1, 640), "int32", scope="local")
        T_qdense_rf_local_1 = T.sblock_alloc_buffer((64, 1, 640), "int32", scope="local")
        W_local = T.sblock_alloc_buffer((640, 128), "int8", scope="local")
        for u_fused_ax0_fused_fused_0 in T.thread_binding(640, thread="blockIdx.x"):
            for u_fused_ax0_fused_fused_1 in T.thread_binding(1, thread="threadIdx.y"):
                for ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 in T.thread_binding(64, thread="threadIdx.x"):
                    for u_fused_ax0_fused_fused_2_init in range(1):
                        for ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1_init in T.vectorized(1):
                            with T.sblock("T_qdense_rf_init"):
                                vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused = T.axis.spatial(64, ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 + ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1_init)
                                v0 = T.axis.spatial(640, u_fused_ax0_fused_fused_0 + u_fused_ax0_fused_fused_1 + u_fused_ax0_fused_fused_2_init)
                                T.reads()
                                T.writes(T_qdense_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, 0, v0])
                                T_qdense_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, 0, v0] = 0
                    for ax1_fused_u_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        for ax0_ax1_fused_0 in range(2):
                            for ax0_ax1_fused_1 in T.vectorized(1):
                                with T.sblock("W_local"):
                                    v0 = T.axis.spatial(640, u_fused_ax0_fused_fused_0)
                                    v1 = T.axis.spatial(128, ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 * 2 + ax0_ax1_fused_0 + ax0_ax1_fused_1)
                                    T.reads(W[v0, v1])
                                    T.writes(W_local[v0, v1])
                                    W_local[v0, v1] = W[v0, v1]
                        for u_fused_ax0_fused_fused_2, ax1_fused_u_fused_2 in T.grid(1, 2):
                            for ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1 in T.vectorized(1):
                                with T.sblock("T_qdense_rf_update"):
                                    vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused = T.axis.spatial(64, ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 + ax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1)
                                    v0 = T.axis.spatial(640, u_fused_ax0_fused_fused_0 + u_fused_ax0_fused_fused_1 + u_fused_ax0_fused_fused_2)
                                    vax1_fused_u_fused_0, vax1_fused_u_fused_2 = T.axis.remap("RR", [ax1_fused_u_fused_0, ax1_fused_u_fused_2])
                                    T.reads(T_qdense_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, 0, v0], X[0, vax1_fused_u_fused_0 * 128 + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused * 2 + vax1_fused_u_fused_2], W_local[v0, vax1_fused_u_fused_0 * 128 + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused * 2 + vax1_fused_u_fused_2])
                                    T.writes(T_qdense_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, 0, v0])
                                    T_qdense_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, 0, v0] = T_qdense_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused, 0, v0] + (T.Cast("int32", X[0, vax1_fused_u_fused_0 * 128 + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused * 2 + vax1_fused_u_fused_2]) + 5) * T.Cast("int32", W_local[v0, vax1_fused_u_fused_0 * 128 + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused * 2 + vax1_fused_u_fused_2])
            for ax2_fused_0_ax2_fused_1_fused in T.thread_binding(1, thread="threadIdx.y"):
                for ax0 in T.thread_binding(64, thread="threadIdx.x"):
                    for ax2_fused_2_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        for ax2_fused_2_1 in T.vectorized(1):
                            with T.sblock("T_qdense_rf_init"):
                                vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, v0 = T.axis.remap("SS", [ax0, u_fused_ax0_fused_fused_0])
                                T.reads()
                                T.writes(T_qdense_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, 0, v0])
                                T_qdense_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, 0, v0] = 0
                            for ax1 in range(1):
                                with T.sblock("T_qdense_rf_update"):
                                    vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1, v0 = T.axis.remap("SRS", [ax0, ax1, u_fused_ax0_fused_fused_0])
                                    T.reads(T_qdense_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, 0, v0], T_qdense_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1, 0, v0])
                                    T.writes(T_qdense_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, 0, v0])
                                    T_qdense_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, 0, v0] = T_qdense_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, 0, v0] + T_qdense_rf_local[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0 + vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_1, 0, v0]
            for ax1_fused_2 in range(1):
                for ax1_fused_0_ax1_fused_1_fused in T.thread_binding(1, thread="threadIdx.y"):
                    for ax0 in T.thread_binding(64, thread="threadIdx.x"):
                        with T.sblock("T_qdense"):
                            vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, v0 = T.axis.remap("RS", [ax0, u_fused_ax0_fused_fused_0])
                            T.reads(T_qdense_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, 0, v0])
                            T.writes(T_qdense_local[0, v0])
                            with T.init():
                                T_qdense_local[0, v0] = 0
                            T_qdense_local[0, v0] = T_qdense_local[0, v0] + T_qdense_rf_local_1[vax1_fused_u_fused_1_ax1_fused_u_fused_3_fused_0, 0, v0]
            for ax0_fused_0_ax0_fused_1_fused in T.thread_binding(1, thread="threadIdx.y"):
                for ax0_fused_2 in range(1):
                    with T.sblock("T_requantize"):
                        v0 = T.axis.spatial(640, u_fused_ax0_fused_fused_0)
                        T.reads(T_qdense_local[0, v0], bias[v0])
                        T.writes(T_requantize[0, v0])
                        T_requantize[0, v0] = T.Cast("int8", T.max(T.min(T.Cast("int32", T.Cast("int64", T_qdense_local[0, v0]) * T.int64(1518500250) + T.Cast("int64", bias[v0]) * T.int64(1518500250) + T.int64(549755813888) >> T.int64(40)) - 2, 127), -128))
