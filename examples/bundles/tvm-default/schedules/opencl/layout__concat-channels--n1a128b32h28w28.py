# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((1, 128, 28, 28), "float32"), B: T.Buffer((1, 32, 28, 28), "float32"), T_concat: T.Buffer((1, 160, 28, 28), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(490, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_concat"):
                    v0 = T.axis.spatial(160, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                    v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                    v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                    T.reads(B[0, v0 + -128, v1, v2], A[0, v0, v1, v2])
                    T.writes(T_concat[0, v0, v1, v2])
                    T_concat[0, v0, v1, v2] = T.if_then_else(128 <= v0, B[0, v0 - 128, v1, v2], A[0, v0, v1, v2])
