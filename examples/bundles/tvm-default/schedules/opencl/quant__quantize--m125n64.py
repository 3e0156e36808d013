# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((125, 64), "float32"), T_quantize: T.Buffer((125, 64), "int8")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(32, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_quantize"):
                    v0 = T.axis.spatial(125, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 64)
                    v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 64)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 8000)
                    T.reads(X[v0, v1])
                    T.writes(T_quantize[v0, v1])
                    T_quantize[v0, v1] = T.Cast("int8", T.max(T.min(T.Cast("int32", T.round(X[v0, v1] * T.float32(32.0))) + 3, 127), -128))
