# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 64, 12, 12), "int8"), W: T.Buffer((64, 1, 3, 3), "int8"), bias: T.Buffer((64,), "int32"), mult: T.Buffer((64,), "int32"), shift: T.Buffer((64,), "int32"), T_requantize: T.Buffer((1, 64, 6, 6), "int8")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        DepthwiseConv2d_local = T.sblock_alloc_buffer((1, 64, 6, 6), "int32", scope="local")
        DepthwiseConv2d_rf_local = T.sblock_alloc_buffer((8, 1, 64, 6, 6), "int32", scope="local")
        for ax0_ax1_ax2_fused in T.thread_binding(2304, thread="blockIdx.x"):
            for ax3_ax4_fused_1 in T.thread_binding(8, thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                with T.sblock("DepthwiseConv2d_rf_init"):
                    vax3_ax4_fused_1 = T.axis.spatial(8, ax3_ax4_fused_1)
                    v0 = T.axis.spatial(64, ax0_ax1_ax2_fused // 36)
                    v1 = T.axis.spatial(6, ax0_ax1_ax2_fused % 36 // 6)
                    v2 = T.axis.spatial(6, ax0_ax1_ax2_fused % 6)
                    T.reads()
                    T.writes(DepthwiseConv2d_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2])
                    DepthwiseConv2d_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2] = 0
                for ax3_ax4_fused_0, u in T.grid(2, 1):
                    with T.sblock("DepthwiseConv2d_rf_update"):
                        vax3_ax4_fused_1 = T.axis.spatial(8, ax3_ax4_fused_1)
                        v0 = T.axis.spatial(64, ax0_ax1_ax2_fused // 36)
                        v1 = T.axis.spatial(6, ax0_ax1_ax2_fused % 36 // 6)
                        v2 = T.axis.spatial(6, ax0_ax1_ax2_fused % 6)
                        vax3_ax4_fused_0 = T.axis.reduce(2, ax3_ax4_fused_0)
                        T.where(ax3_ax4_fused_0 * 8 + ax3_ax4_fused_1 < 9)
                        T.reads(DepthwiseConv2d_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2], X[0, v0, v1 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) // 3, v2 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) % 3], W[v0, 0, (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) // 3, (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) % 3])
                        T.writes(DepthwiseConv2d_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2])
                        DepthwiseConv2d_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2] = DepthwiseConv2d_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2] + T.if_then_else(0 <= v1 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) // 3 and v1 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) // 3 < 12 and 0 <= v2 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) % 3 and v2 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) % 3 < 12, T.Cast("int32", X[0, v0, v1 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) // 3, v2 * 2 + (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) % 3]) + 100, 0) * T.Cast("int32", W[v0, 0, (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) // 3, (vax3_ax4_fused_0 * 8 + vax3_ax4_fused_1) % 3])
            for ax1_ax2_ax3_fused in range(1):
                for ax0 in T.thread_binding(8, thread="threadIdx.x"):
                    with T.sblock("DepthwiseConv2d"):
                        vax3_ax4_fused_1 = T.axis.reduce(8, ax0)
                        v0 = T.axis.spatial(64, ax0_ax1_ax2_fused // 36)
                        v1 = T.axis.spatial(6, ax0_ax1_ax2_fused % 36 // 6)
                        v2 = T.axis.spatial(6, ax0_ax1_ax2_fused % 6)
                        T.reads(DepthwiseConv2d_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2])
                        T.writes(DepthwiseConv2d_local[0, v0, v1, v2])
                        with T.init():
                            DepthwiseConv2d_local[0, v0, v1, v2] = 0
                        DepthwiseConv2d_local[0, v0, v1, v2] = DepthwiseConv2d_local[0, v0, v1, v2] + DepthwiseConv2d_rf_local[vax3_ax4_fused_1, 0, v0, v1, v2]
            for ax0, ax1, ax2 in T.grid(1, 1, 1):
                with T.sblock("T_requantize"):
                    v0 = T.axis.spatial(64, ax0_ax1_ax2_fused // 36 + ax0)
                    v1 = T.axis.spatial(6, ax0_ax1_ax2_fused % 36 // 6 + ax1)
                    v2 = T.axis.spatial(6, ax0_ax1_ax2_fused % 6 + ax2)
                    T.reads(DepthwiseConv2d_local[0, v0, v1, v2], bias[v0], mult[v0], shift[v0])
                    T.writes(T_requantize[0, v0, v1, v2])
                    T_requantize[0, v0, v1, v2] = T.Cast("int8", T.max(T.min(T.Cast("int32", (T.Cast("int64", DepthwiseConv2d_local[0, v0, v1, v2]) + T.Cast("int64", bias[v0])) * T.Cast("int64", mult[v0]) + (T.int64(1) << T.Cast("int64", shift[v0]) - T.int64(1)) >> T.Cast("int64", shift[v0])) - 100, 127), -100))
