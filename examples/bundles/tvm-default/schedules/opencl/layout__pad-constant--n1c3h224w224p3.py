# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 3, 224, 224), "float32"), PadInput: T.Buffer((1, 3, 230, 230), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(620, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("PadInput"):
                    v0 = T.axis.spatial(3, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 52900)
                    v1 = T.axis.spatial(230, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 52900 // 230)
                    v2 = T.axis.spatial(230, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 230)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 158700)
                    T.reads(X[0, v0, v1 + -3, v2 + -3])
                    T.writes(PadInput[0, v0, v1, v2])
                    PadInput[0, v0, v1, v2] = T.if_then_else(3 <= v1 and v1 < 227 and 3 <= v2 and v2 < 227, X[0, v0, v1 - 3, v2 - 3], T.float32(0.0))
