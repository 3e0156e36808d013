# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 64, 8, 8), "int8"), T_avg_pool: T.Buffer((1, 64, 4, 4), "int8")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_sum_local = T.sblock_alloc_buffer((1, 64, 4, 4), "int32", scope="local")
        T_sum_rf_local = T.sblock_alloc_buffer((4, 1, 64, 4, 4), "int32", scope="local")
        for ax0_ax1_ax2_fused in T.thread_binding(1024, thread="blockIdx.x"):
            for ax3_ax4_fused_1 in T.thread_binding(4, thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                with T.sblock("T_sum_rf_init"):
                    vax3_ax4_fused_1 = T.axis.spatial(4, ax3_ax4_fused_1)
                    v0 = T.axis.spatial(64, ax0_ax1_ax2_fused // 16)
                    v1 = T.axis.spatial(4, ax0_ax1_ax2_fused % 16 // 4)
                    v2 = T.axis.spatial(4, ax0_ax1_ax2_fused % 4)
                    T.reads()
                    T.writes(T_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2])
                    T_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2] = 0
                for ax3_ax4_fused_0, u in T.grid(1, 1):
                    with T.sblock("T_sum_rf_update"):
                        vax3_ax4_fused_1 = T.axis.spatial(4, ax3_ax4_fused_1)
                        v0 = T.axis.spatial(64, ax0_ax1_ax2_fused // 16)
                        v1 = T.axis.spatial(4, ax0_ax1_ax2_fused % 16 // 4)
                        v2 = T.axis.spatial(4, ax0_ax1_ax2_fused % 4)
                        vax3_ax4_fused_0 = T.axis.reduce(1, ax3_ax4_fused_0)
                        T.reads(T_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2], X[0, v0, v1 * 2 + (vax3_ax4_fused_0 * 4 + vax3_ax4_fused_1) // 2, v2 * 2 + (vax3_ax4_fused_0 * 4 + vax3_ax4_fused_1) % 2])
                        T.writes(T_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2])
                        T_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2] = T_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2] + T.Cast("int32", X[0, v0, v1 * 2 + (vax3_ax4_fused_0 * 4 + vax3_ax4_fused_1) // 2, v2 * 2 + (vax3_ax4_fused_0 * 4 + vax3_ax4_fused_1) % 2])
            for ax1_ax2_ax3_fused in range(1):
                for ax0 in T.thread_binding(4, thread="threadIdx.x"):
                    with T.sblock("T_sum"):
                        vax3_ax4_fused_1 = T.axis.reduce(4, ax0)
                        v0 = T.axis.spatial(64, ax0_ax1_ax2_fused // 16)
                        v1 = T.axis.spatial(4, ax0_ax1_ax2_fused % 16 // 4)
                        v2 = T.axis.spatial(4, ax0_ax1_ax2_fused % 4)
                        T.reads(T_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2])
                        T.writes(T_sum_local[0, v0, v1, v2])
                        with T.init():
                            T_sum_local[0, v0, v1, v2] = 0
                        T_sum_local[0, v0, v1, v2] = T_sum_local[0, v0, v1, v2] + T_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2]
            for ax0, ax1, ax2 in T.grid(1, 1, 1):
                with T.sblock("T_avg_pool"):
                    v0 = T.axis.spatial(64, ax0_ax1_ax2_fused // 16 + ax0)
                    v1 = T.axis.spatial(4, ax0_ax1_ax2_fused % 16 // 4 + ax1)
                    v2 = T.axis.spatial(4, ax0_ax1_ax2_fused % 4 + ax2)
                    T.reads(T_sum_local[0, v0, v1, v2])
                    T.writes(T_avg_pool[0, v0, v1, v2])
                    T_avg_pool[0, v0, v1, v2] = T.Cast("int8", T.if_then_else(0 < T_sum_local[0, v0, v1, v2], T.Div(T_sum_local[0, v0, v1, v2] + 2, 4), T.Div(T_sum_local[0, v0, v1, v2] - 2, 4)))
