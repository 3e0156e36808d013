# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 32, 128, 128), "float32"), MirrorPadInput: T.Buffer((1, 32, 134, 134), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(2245, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("MirrorPadInput"):
                    v0 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 17956)
                    v1 = T.axis.spatial(134, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 17956 // 134)
                    v2 = T.axis.spatial(134, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 134)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 574592)
                    T.reads(X[0, v0, 0:128, 0:128])
                    T.writes(MirrorPadInput[0, v0, v1, v2])
                    MirrorPadInput[0, v0, v1, v2] = X[0, v0, T.if_then_else(131 <= v1, 257 - v1, T.if_then_else(v1 < 3, 3 - v1, v1 - 3)), T.if_then_else(131 <= v2, 257 - v2, T.if_then_else(v2 < 3, 3 - v2, v2 - 3))]
