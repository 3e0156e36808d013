# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(Q: T.Buffer((16, 4096), "int8"), T_dequantize: T.Buffer((16, 4096), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(256, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_dequantize"):
                    v0 = T.axis.spatial(16, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 4096)
                    v1 = T.axis.spatial(4096, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 4096)
                    T.reads(Q[v0, v1])
                    T.writes(T_dequantize[v0, v1])
                    T_dequantize[v0, v1] = T.Cast("float32", T.Cast("int32", Q[v0, v1]) - 3) * T.float32(0.03125)
