# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(W: T.Buffer((64, 576), "float32"), inv_scale: T.Buffer((64,), "float32"), T_quantize: T.Buffer((64, 576), "int8")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(144, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_quantize"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 576)
                    v1 = T.axis.spatial(576, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 576)
                    T.reads(W[v0, v1], inv_scale[v0])
                    T.writes(T_quantize[v0, v1])
                    T_quantize[v0, v1] = T.Cast("int8", T.max(T.min(T.Cast("int32", T.round(W[v0, v1] * inv_scale[v0])), 127), -128))
