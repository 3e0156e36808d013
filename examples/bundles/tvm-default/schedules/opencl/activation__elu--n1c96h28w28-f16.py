# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 96, 28, 28), "float16"), T_elu_f16: T.Buffer((1, 96, 28, 28), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(294, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_elu_f16"):
                    v0 = T.axis.spatial(96, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                    v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                    v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                    T.reads(X[0, v0, v1, v2])
                    T.writes(T_elu_f16[0, v0, v1, v2])
                    T_elu_f16[0, v0, v1, v2] = T.Cast("float16", T.if_then_else(T.float32(0.0) < T.Cast("float32", X[0, v0, v1, v2]), T.Cast("float32", X[0, v0, v1, v2]), T.exp(T.Cast("float32", X[0, v0, v1, v2])) - T.float32(1.0)))
