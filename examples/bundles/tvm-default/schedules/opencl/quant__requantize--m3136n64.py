# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(acc: T.Buffer((3136, 64), "int32"), T_requantize: T.Buffer((3136, 64), "int8")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(784, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_requantize"):
                    v0 = T.axis.spatial(3136, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 64)
                    v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 64)
                    T.reads(acc[v0, v1])
                    T.writes(T_requantize[v0, v1])
                    T_requantize[v0, v1] = T.Cast("int8", T.max(T.min(T.Cast("int32", T.Cast("int64", acc[v0, v1]) * T.int64(1518500250) + T.int64(549755813888) >> T.int64(40)) - 2, 127), -128))
