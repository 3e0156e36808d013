# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 4096), "float32"), T_quantize: T.Buffer((1, 4096), "int8")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_quantize"):
                    v0 = T.axis.spatial(4096, ax0_fused_0 * 256 + ax0_fused_1)
                    T.reads(X[0, v0])
                    T.writes(T_quantize[0, v0])
                    T_quantize[0, v0] = T.Cast("int8", T.max(T.min(T.Cast("int32", T.round(X[0, v0] * T.float32(32.0))) + 3, 127), -128))
