# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(P: T.Buffer((768, 384), "uint8"), scale: T.Buffer((768,), "float32"), T_int4_dequantize: T.Buffer((768, 768), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(2304, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_int4_dequantize"):
                    v0 = T.axis.spatial(768, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 768)
                    v1 = T.axis.spatial(768, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 768)
                    T.reads(P[v0, v1 // 2], scale[v0])
                    T.writes(T_int4_dequantize[v0, v1])
                    T_int4_dequantize[v0, v1] = T.Cast("float32", T.if_then_else(v1 % 2 == 0, T.Cast("int32", P[v0, v1 // 2]) & 15, T.Cast("int32", P[v0, v1 // 2]) >> 4 & 15) - 8) * scale[v0]
