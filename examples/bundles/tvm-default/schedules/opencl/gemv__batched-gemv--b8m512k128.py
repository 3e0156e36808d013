# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((8, 512, 128), "float32"), x: T.Buffer((8, 128), "float32"), T_bgemv: T.Buffer((8, 512), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_bgemv_rf_local = T.sblock_alloc_buffer((64, 8, 512), scope="local")
        T_bgemv_rf_local_1 = T.sblock_alloc_buffer((64, 8, 512), scope="local")
        x_local = T.sblock_alloc_buffer((8, 128), scope="local")
        for ax0_fused_ax1_fused_fused_0 in T.thread_binding(4096, thread="blockIdx.x"):
            for ax0_fused_ax1_fused_fused_1 in T.thread_binding(1, thread="threadIdx.y"):
                for ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 in T.thread_binding(64, thread="threadIdx.x"):
                    for ax0_fused_ax1_fused_fused_2_init in range(1):
                        for ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1_init in T.vectorized(1):
                            with T.sblock("T_bgemv_rf_init"):
                                vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused = T.axis.spatial(64, ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1_init)
                                v0 = T.axis.spatial(8, (ax0_fused_ax1_fused_fused_0 + ax0_fused_ax1_fused_fused_1 + ax0_fused_ax1_fused_fused_2_init) // 512)
                                v1 = T.axis.spatial(512, (ax0_fused_ax1_fused_fused_0 + ax0_fused_ax1_fused_fused_1 + ax0_fused_ax1_fused_fused_2_init) % 512)
                                T.reads()
                                T.writes(T_bgemv_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, v0, v1])
                                T_bgemv_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, v0, v1] = T.float32(0.0)
                    for ax2_fused_u_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        for ax0_ax1_fused_0 in range(2):
                            for ax0_ax1_fused_1 in T.vectorized(1):
                                with T.sblock("x_local"):
                                    v0 = T.axis.spatial(8, ax0_fused_ax1_fused_fused_0 // 512)
                                    v1 = T.axis.spatial(128, ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 * 2 + ax0_ax1_fused_0 + ax0_ax1_fused_1)
                                    T.reads(x[v0, v1])
                                    T.writes(x_local[v0, v1])
                                    x_local[v0, v1] = x[v0, v1]
                        for ax0_fused_ax1_fused_fused_2, ax2_fused_u_fused_2 in T.grid(1, 2):
                            for ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1 in T.vectorized(1):
                                with T.sblock("T_bgemv_rf_update"):
                                    vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused = T.axis.spatial(64, ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1)
                                    v0 = T.axis.spatial(8, (ax0_fused_ax1_fused_fused_0 + ax0_fused_ax1_fused_fused_1 + ax0_fused_ax1_fused_fused_2) // 512)
                                    v1 = T.axis.spatial(512, (ax0_fused_ax1_fused_fused_0 + ax0_fused_ax1_fused_fused_1 + ax0_fused_ax1_fused_fused_2) % 512)
                                    vax2_fused_u_fused_0, vax2_fused_u_fused_2 = T.axis.remap("RR", [ax2_fused_u_fused_0, ax2_fused_u_fused_2])
                                    T.reads(T_bgemv_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, v0, v1], A[v0, v1, vax2_fused_u_fused_0 * 128 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused * 2 + vax2_fused_u_fused_2], x_local[v0, vax2_fused_u_fused_0 * 128 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused * 2 + vax2_fused_u_fused_2])
                                    T.writes(T_bgemv_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, v0, v1])
                                    T_bgemv_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, v0, v1] = T_bgemv_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, v0, v1] + A[v0, v1, vax2_fused_u_fused_0 * 128 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused * 2 + vax2_fused_u_fused_2] * x_local[v0, vax2_fused_u_fused_0 * 128 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused * 2 + vax2_fused_u_fused_2]
            for ax2_ax3_fused_0_ax2_ax3_fused_1_fused in T.thread_binding(1, thread="threadIdx.y"):
                for ax0 in T.thread_binding(64, thread="threadIdx.x"):
                    for ax2_ax3_fused_2_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        for ax2_ax3_fused_2_1 in T.vectorized(1):
                            with T.sblock("T_bgemv_rf_init"):
                                vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 = T.axis.spatial(64, ax0)
                                v0 = T.axis.spatial(8, ax0_fused_ax1_fused_fused_0 // 512)
                                v1 = T.axis.spatial(512, ax0_fused_ax1_fused_fused_0 % 512)
                                T.reads()
                                T.writes(T_bgemv_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, v0, v1])
                                T_bgemv_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, v0, v1] = T.float32(0.0)
                            for ax1 in range(1):
                                with T.sblock("T_bgemv_rf_update"):
                                    vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1 = T.axis.remap("SR", [ax0, ax1])
                                    v0 = T.axis.spatial(8, ax0_fused_ax1_fused_fused_0 // 512)
                                    v1 = T.axis.spatial(512, ax0_fused_ax1_fused_fused_0 % 512)
                                    T.reads(T_bgemv_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, v0, v1], T_bgemv_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1, v0, v1])
                                    T.writes(T_bgemv_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, v0, v1])
                                    T_bgemv_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, v0, v1] = T_bgemv_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, v0, v1] + T_bgemv_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1, v0, v1]
            for ax1_ax2_fused_2 in range(1):
                for ax1_ax2_fused_0_ax1_ax2_fused_1_fused in T.thread_binding(1, thread="threadIdx.y"):
                    for ax0 in T.thread_binding(64, thread="threadIdx.x"):
                        with T.sblock("T_bgemv"):
                            vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 = T.axis.reduce(64, ax0)
                            v0 = T.axis.spatial(8, ax0_fused_ax1_fused_fused_0 // 512)
                            v1 = T.axis.spatial(512, ax0_fused_ax1_fused_fused_0 % 512)
                            T.reads(T_bgemv_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, v0, v1])
                            T.writes(T_bgemv[v0, v1])
                            with T.init():
                                T_bgemv[v0, v1] = T.float32(0.0)
                            T_bgemv[v0, v1] = T_bgemv[v0, v1] + T_bgemv_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, v0, v1]
