# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 64, 56, 56), "float32"), T_lp_pool: T.Buffer((1, 64, 28, 28), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_sq_sum_local = T.sblock_alloc_buffer((1, 64, 28, 28), scope="local")
        T_sq_sum_rf_local = T.sblock_alloc_buffer((4, 1, 64, 28, 28), scope="local")
        for ax0_ax1_ax2_fused in T.thread_binding(50176, thread="blockIdx.x"):
            for ax3_ax4_fused_1 in T.thread_binding(4, thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                with T.sblock("T_sq_sum_rf_init"):
                    vax3_ax4_fused_1 = T.axis.spatial(4, ax3_ax4_fused_1)
                    v0 = T.axis.spatial(64, ax0_ax1_ax2_fused // 784)
                    v1 = T.axis.spatial(28, ax0_ax1_ax2_fused % 784 // 28)
                    v2 = T.axis.spatial(28, ax0_ax1_ax2_fused % 28)
                    T.reads()
                    T.writes(T_sq_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2])
                    T_sq_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2] = T.float32(0.0)
                for ax3_ax4_fused_0, u in T.grid(1, 1):
                    with T.sblock("T_sq_sum_rf_update"):
                        vax3_ax4_fused_1 = T.axis.spatial(4, ax3_ax4_fused_1)
                        v0 = T.axis.spatial(64, ax0_ax1_ax2_fused // 784)
                        v1 = T.axis.spatial(28, ax0_ax1_ax2_fused % 784 // 28)
                        v2 = T.axis.spatial(28, ax0_ax1_ax2_fused % 28)
                        vax3_ax4_fused_0 = T.axis.reduce(1, ax3_ax4_fused_0)
                        T.reads(T_sq_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2], X[0, v0, v1 * 2 + (vax3_ax4_fused_0 * 4 + vax3_ax4_fused_1) // 2, v2 * 2 + (vax3_ax4_fused_0 * 4 + vax3_ax4_fused_1) % 2])
                        T.writes(T_sq_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2])
                        T_sq_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2] = T_sq_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2] + X[0, v0, v1 * 2 + (vax3_ax4_fused_0 * 4 + vax3_ax4_fused_1) // 2, v2 * 2 + (vax3_ax4_fused_0 * 4 + vax3_ax4_fused_1) % 2] * X[0, v0, v1 * 2 + (vax3_ax4_fused_0 * 4 + vax3_ax4_fused_1) // 2, v2 * 2 + (vax3_ax4_fused_0 * 4 + vax3_ax4_fused_1) % 2]
            for ax1_ax2_ax3_fused in range(1):
                for ax0 in T.thread_binding(4, thread="threadIdx.x"):
                    with T.sblock("T_sq_sum"):
                        vax3_ax4_fused_1 = T.axis.reduce(4, ax0)
                        v0 = T.axis.spatial(64, ax0_ax1_ax2_fused // 784)
                        v1 = T.axis.spatial(28, ax0_ax1_ax2_fused % 784 // 28)
                        v2 = T.axis.spatial(28, ax0_ax1_ax2_fused % 28)
                        T.reads(T_sq_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2])
                        T.writes(T_sq_sum_local[0, v0, v1, v2])
                        with T.init():
                            T_sq_sum_local[0, v0, v1, v2] = T.float32(0.0)
                        T_sq_sum_local[0, v0, v1, v2] = T_sq_sum_local[0, v0, v1, v2] + T_sq_sum_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2]
            for ax0, ax1, ax2 in T.grid(1, 1, 1):
                with T.sblock("T_lp_pool"):
                    v0 = T.axis.spatial(64, ax0_ax1_ax2_fused // 784 + ax0)
                    v1 = T.axis.spatial(28, ax0_ax1_ax2_fused % 784 // 28 + ax1)
                    v2 = T.axis.spatial(28, ax0_ax1_ax2_fused % 28 + ax2)
                    T.reads(T_sq_sum_local[0, v0, v1, v2])
                    T.writes(T_lp_pool[0, v0, v1, v2])
                    T_lp_pool[0, v0, v1, v2] = T.sqrt(T_sq_sum_local[0, v0, v1, v2])
