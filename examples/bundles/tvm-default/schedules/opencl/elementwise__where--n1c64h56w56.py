# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(M: T.Buffer((1, 64, 56, 56), "int8"), A: T.Buffer((1, 64, 56, 56), "float32"), B: T.Buffer((1, 64, 56, 56), "float32"), T_where: T.Buffer((1, 64, 56, 56), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(784, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_where"):
                    v0 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3136)
                    v1 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3136 // 56)
                    v2 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 56)
                    T.reads(M[0, v0, v1, v2], A[0, v0, v1, v2], B[0, v0, v1, v2])
                    T.writes(T_where[0, v0, v1, v2])
                    T_where[0, v0, v1, v2] = T.if_then_else(T.Cast("int32", M[0, v0, v1, v2]) != 0, A[0, v0, v1, v2], B[0, v0, v1, v2])
