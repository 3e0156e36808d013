# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 128, 6, 6), "int8"), W: T.Buffer((128, 1, 3, 3), "int8"), bias: T.Buffer((128,), "int32"), mult: T.Buffer((128,), "int32"), shift: T.Buffer((128,), "int32"), T_requantize: T.Buffer((1, 128, 6, 6), "int8")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        DepthwiseConv2d_shared = T.sblock_alloc_buffer((1, 128, 6, 6), "int32", scope="shared")
        for ax0_ax1_ax2_fused in T.thread_binding(4608, thread="blockIdx.x"):
            for ax0, ax1, ax2 in T.grid(1, 1, 1):
                for ax3_ax4_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax3_ax4_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("DepthwiseConv2d"):
                            v0 = T.axis.spatial(128, ax0_ax1_ax2_fused // 36 + ax0)
                            v1 = T.axis.spatial(6, ax0_ax1_ax2_fused % 36 // 6 + ax1)
                            v2 = T.axis.spatial(6, ax0_ax1_ax2_fused % 6 + ax2)
                            v3 = T.axis.reduce(3, (ax3_ax4_fused_0 * 256 + ax3_ax4_fused_1) // 3)
                            v4 = T.axis.reduce(3, (ax3_ax4_fused_0 * 256 + ax3_ax4_fused_1) % 3)
                            T.where(ax3_ax4_fused_0 * 256 + ax3_ax4_fused_1 < 9)
                            T.reads(X[0, v0, v1 + v3 - 1, v2 + v4 - 1], W[v0, 0, v3, v4])
                            T.writes(DepthwiseConv2d_shared[0, v0, v1, v2])
                            with T.init():
                                DepthwiseConv2d_shared[0, v0, v1, v2] = 0
                            DepthwiseConv2d_shared[0, v0, v1, v2] = DepthwiseConv2d_shared[0, v0, v1, v2] + T.if_then_else(1 <= v1 + v3 and v1 + v3 < 7 and 1 <= v2 + v4 and v2 + v4 < 7, T.Cast("int32", X[0, v0, v1 + v3 - 1, v2 + v4 - 1]) + 100, 0) * T.Cast("int32", W[v0, 0, v3, v4])
            for ax3 in range(T.int64(1)):
                for ax4_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                    for ax4_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_requantize"):
                            v0 = T.axis.spatial(128, ax0_ax1_ax2_fused // 36)
                            v1 = T.axis.spatial(6, ax0_ax1_ax2_fused % 36 // 6)
                            v2 = T.axis.spatial(6, ax0_ax1_ax2_fused % 6)
                            v3 = T.axis.spatial(T.int64(1), ax3)
                            v4 = T.axis.spatial(T.int64(1), ax4_0 * T.int64(256) + ax4_1)
                            T.where(ax4_0 * T.int64(256) + ax4_1 < T.int64(1))
                            T.reads(DepthwiseConv2d_shared[0, v0, v1, v2], bias[v0], mult[v0], shift[v0])
                            T.writes(T_requantize[0, v0, v1, v2])
                            T_requantize[0, v0, v1, v2] = T.Cast("int8", T.max(T.min(T.Cast("int32", (T.Cast("int64", DepthwiseConv2d_shared[0, v0, v1, v2]) + T.Cast("int64", bias[v0])) * T.Cast("int64", mult[v0]) + (T.int64(1) << T.Cast("int64", shift[v0]) - T.int64(1)) >> T.Cast("int64", shift[v0])) - 100, 127), -100))
