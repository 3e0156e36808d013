# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((1, 64, 56, 56), "float16"), B: T.Buffer((1, 64, 56, 56), "float16"), T_maximum_f16: T.Buffer((1, 64, 56, 56), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(784, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_maximum_f16"):
                    v0 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3136)
                    v1 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3136 // 56)
                    v2 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 56)
                    T.reads(A[0, v0, v1, v2], B[0, v0, v1, v2])
                    T.writes(T_maximum_f16[0, v0, v1, v2])
                    T_maximum_f16[0, v0, v1, v2] = T.Cast("float16", T.max(T.Cast("float32", A[0, v0, v1, v2]), T.Cast("float32", B[0, v0, v1, v2])))
