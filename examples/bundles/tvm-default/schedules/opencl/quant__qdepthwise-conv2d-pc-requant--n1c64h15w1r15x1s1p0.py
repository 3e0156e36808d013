# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 64, 15, 1), "int8"), W: T.Buffer((64, 1, 15, 1), "int8"), bias: T.Buffer((64,), "int32"), mult: T.Buffer((64,), "int32"), shift: T.Buffer((64,), "int32"), T_requantize: T.Buffer((1, 64, 1, 1), "int8")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        DepthwiseConv2d_local = T.sblock_alloc_buffer((1, 64, 1, 1), "int32", scope="local")
        DepthwiseConv2d_rf_local = T.sblock_alloc_buffer((8, 1, 64, 1, 1), "int32", scope="local")
        for ax0_fused in T.thread_binding(64, thread="blockIdx.x"):
            for ax1_fused_1 in T.thread_binding(8, thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                with T.sblock("DepthwiseConv2d_rf_init"):
                    vax1_fused_1, v0 = T.axis.remap("SS", [ax1_fused_1, ax0_fused])
                    T.reads()
                    T.writes(DepthwiseConv2d_rf_local[vax1_fused_1, 0, v0, 0, 0])
                    DepthwiseConv2d_rf_local[vax1_fused_1, 0, v0, 0, 0] = 0
                for ax1_fused_0, u in T.grid(2, 1):
                    with T.sblock("DepthwiseConv2d_rf_update"):
                        vax1_fused_1, v0, vax1_fused_0 = T.axis.remap("SSR", [ax1_fused_1, ax0_fused, ax1_fused_0])
                        T.where(ax1_fused_0 * 8 + ax1_fused_1 < 15)
                        T.reads(DepthwiseConv2d_rf_local[vax1_fused_1, 0, v0, 0, 0], X[0, v0, vax1_fused_0 * 8 + vax1_fused_1, 0], W[v0, 0, vax1_fused_0 * 8 + vax1_fused_1, 0])
                        T.writes(DepthwiseConv2d_rf_local[vax1_fused_1, 0, v0, 0, 0])
                        DepthwiseConv2d_rf_local[vax1_fused_1, 0, v0, 0, 0] = DepthwiseConv2d_rf_local[vax1_fused_1, 0, v0, 0, 0] + (T.Cast("int32", X[0, v0, vax1_fused_0 * 8 + vax1_fused_1, 0]) + 100) * T.Cast("int32", W[v0, 0, vax1_fused_0 * 8 + vax1_fused_1, 0])
            for ax1_fused in range(1):
                for ax0 in T.thread_binding(8, thread="threadIdx.x"):
                    with T.sblock("DepthwiseConv2d"):
                        vax1_fused_1, v0 = T.axis.remap("RS", [ax0, ax0_fused])
                        T.reads(DepthwiseConv2d_rf_local[vax1_fused_1, 0, v0, 0, 0])
                        T.writes(DepthwiseConv2d_local[0, v0, 0, 0])
                        with T.init():
                            DepthwiseConv2d_local[0, v0, 0, 0] = 0
                        DepthwiseConv2d_local[0, v0, 0, 0] = DepthwiseConv2d_local[0, v0, 0, 0] + DepthwiseConv2d_rf_local[vax1_fused_1, 0, v0, 0, 0]
            for ax0 in range(1):
                with T.sblock("T_requantize"):
                    v0 = T.axis.spatial(64, ax0_fused + ax0)
                    T.reads(DepthwiseConv2d_local[0, v0, 0, 0], bias[v0], mult[v0], shift[v0])
                    T.writes(T_requantize[0, v0, 0, 0])
                    T_requantize[0, v0, 0, 0] = T.Cast("int8", T.max(T.min(T.Cast("int32", (T.Cast("int64", DepthwiseConv2d_local[0, v0, 0, 0]) + T.Cast("int64", bias[v0])) * T.Cast("int64", mult[v0]) + (T.int64(1) << T.Cast("int64", shift[v0]) - T.int64(1)) >> T.Cast("int64", shift[v0])) + 5, 127), -128))
