# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 64, 56, 56), "float32"), PadInput: T.Buffer((1, 64, 58, 58), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(841, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("PadInput"):
                    v0 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3364)
                    v1 = T.axis.spatial(58, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3364 // 58)
                    v2 = T.axis.spatial(58, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 58)
                    T.reads(X[0, v0, v1 + -1, v2 + -1])
                    T.writes(PadInput[0, v0, v1, v2])
                    PadInput[0, v0, v1, v2] = T.if_then_else(1 <= v1 and v1 < 57 and 1 <= v2 and v2 < 57, X[0, v0, v1 - 1, v2 - 1], T.float32(0.0))
