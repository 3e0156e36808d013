# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((8, 4096), "float32"), h: T.Buffer((31,), "float32"), T_fir: T.Buffer((8, 4096), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_fir_rf_local = T.sblock_alloc_buffer((64, 8, 4096), scope="local")
        T_fir_rf_local_1 = T.sblock_alloc_buffer((64, 8, 4096), scope="local")
        x_local = T.sblock_alloc_buffer((8, 4096), scope="local")
        for u_fused_ax0_ax1_fused_fused_0 in T.thread_binding(32768, thread="blockIdx.x"):
            for u_fused_ax0_ax1_fused_fused_1 in T.thread_binding(1, thread="threadIdx.y"):
                for ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 in T.thread_binding(64, thread="threadIdx.x"):
                    for u_fused_ax0_ax1_fused_fused_2_init in range(1):
                        for ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1_init in T.vectorized(1):
                            with T.sblock("T_fir_rf_init"):
                                vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused = T.axis.spatial(64, ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1_init)
                                v0 = T.axis.spatial(8, (u_fused_ax0_ax1_fused_fused_0 + u_fused_ax0_ax1_fused_fused_1 + u_fused_ax0_ax1_fused_fused_2_init) // 4096)
                                v1 = T.axis.spatial(4096, (u_fused_ax0_ax1_fused_fused_0 + u_fused_ax0_ax1_fused_fused_1 + u_fused_ax0_ax1_fused_fused_2_init) % 4096)
                                T.reads()
                                T.writes(T_fir_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, v0, v1])
                                T_fir_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, v0, v1] = T.float32(0.0)
                    for ax2_fused_u_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        for ax0_ax1_fused_0 in range(1):
                            for ax0_ax1_fused_1 in T.vectorized(1):
                                with T.sblock("x_local"):
                                    v0 = T.axis.spatial(8, T.Add(u_fused_ax0_ax1_fused_fused_0 // 4096, 0))
                                    v1 = T.axis.spatial(4096, T.Add(u_fused_ax0_ax1_fused_fused_0 % 4096 - ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, 0))
                                    T.where(0 <= u_fused_ax0_ax1_fused_fused_0 % 4096 - ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0)
                                    T.reads(x[v0, v1])
                                    T.writes(x_local[v0, v1])
                                    x_local[v0, v1] = x[v0, v1]
                        for u_fused_ax0_ax1_fused_fused_2, ax2_fused_u_fused_2 in T.grid(1, 1):
                            for ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1 in T.vectorized(1):
                                with T.sblock("T_fir_rf_update"):
                                    vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused = T.axis.spatial(64, ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1)
                                    v0 = T.axis.spatial(8, (u_fused_ax0_ax1_fused_fused_0 + u_fused_ax0_ax1_fused_fused_1 + u_fused_ax0_ax1_fused_fused_2) // 4096)
                                    v1 = T.axis.spatial(4096, (u_fused_ax0_ax1_fused_fused_0 + u_fused_ax0_ax1_fused_fused_1 + u_fused_ax0_ax1_fused_fused_2) % 4096)
                                    vax2_fused_u_fused_0, vax2_fused_u_fused_2 = T.axis.remap("RR", [ax2_fused_u_fused_0, ax2_fused_u_fused_2])
                                    T.where(T.Add(ax2_fused_u_fused_0 * 64 + (ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1) + ax2_fused_u_fused_2, 0) < 31)
                                    T.reads(T_fir_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, v0, v1], h[vax2_fused_u_fused_0 * 64 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused + vax2_fused_u_fused_2], x_local[v0, v1 - vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused - vax2_fused_u_fused_2 - vax2_fused_u_fused_0 * 64])
                                    T.writes(T_fir_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, v0, v1])
                                    T_fir_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, v0, v1] = T_fir_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, v0, v1] + h[vax2_fused_u_fused_0 * 64 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused + vax2_fused_u_fused_2] * T.if_then_else(30 <= v1 + 30 - (vax2_fused_u_fused_0 * 64 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused + vax2_fused_u_fused_2) and v1 + 30 - (vax2_fused_u_fused_0 * 64 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused + vax2_fused_u_fused_2) < 4126, x_local[v0, v1 - vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused - vax2_fused_u_fused_2 - vax2_fused_u_fused_0 * 64], T.float32(0.0))
            for ax2_ax3_fused_0_ax2_ax3_fused_1_fused in T.thread_binding(1, thread="threadIdx.y"):
                for ax0 in T.thread_binding(64, thread="threadIdx.x"):
                    for ax2_ax3_fused_2_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        for ax2_ax3_fused_2_1 in T.vectorized(1):
                            with T.sblock("T_fir_rf_init"):
                                vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 = T.axis.spatial(64, ax0)
                                v0 = T.axis.spatial(8, u_fused_ax0_ax1_fused_fused_0 // 4096)
                                v1 = T.axis.spatial(4096, u_fused_ax0_ax1_fused_fused_0 % 4096)
                                T.reads()
                                T.writes(T_fir_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, v0, v1])
                                T_fir_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, v0, v1] = T.float32(0.0)
                            for ax1 in range(1):
                                with T.sblock("T_fir_rf_update"):
                                    vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1 = T.axis.remap("SR", [ax0, ax1])
                                    v0 = T.axis.spatial(8, u_fused_ax0_ax1_fused_fused_0 // 4096)
                                    v1 = T.axis.spatial(4096, u_fused_ax0_ax1_fused_fused_0 % 4096)
                                    T.reads(T_fir_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, v0, v1], T_fir_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1, v0, v1])
                                    T.writes(T_fir_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, v0, v1])
                                    T_fir_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, v0, v1] = T_fir_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, v0, v1] + T_fir_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1, v0, v1]
            for ax1_ax2_fused_2 in range(1):
                for ax1_ax2_fused_0_ax1_ax2_fused_1_fused in T.thread_binding(1, thread="threadIdx.y"):
                    for ax0 in T.thread_binding(64, thread="threadIdx.x"):
                        with T.sblock("T_fir"):
                            vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 = T.axis.reduce(64, ax0)
                            v0 = T.axis.spatial(8, u_fused_ax0_ax1_fused_fused_0 // 4096)
                            v1 = T.axis.spatial(4096, u_fused_ax0_ax1_fused_fused_0 % 4096)
                            T.reads(T_fir_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, v0, v1])
                            T.writes(T_fir[v0, v1])
                            with T.init():
                                T_fir[v0, v1] = T.float32(0.0)
                            T_fir[v0, v1] = T_fir[v0, v1] + T_fir_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, v0, v1]
