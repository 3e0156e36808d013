# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 128, 13, 13), "float32"), resize: T.Buffer((1, 128, 26, 26), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(338, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("resize"):
                    v0 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 676)
                    v1 = T.axis.spatial(26, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 676 // 26)
                    v2 = T.axis.spatial(26, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 26)
                    T.reads(X[0, v0, T.max(T.min(T.Div(v1, 2), 12), 0), T.max(T.min(T.Div(v2, 2), 12), 0)])
                    T.writes(resize[0, v0, v1, v2])
                    resize[0, v0, v1, v2] = X[0, v0, T.max(T.min(T.Div(v1, 2), 12), 0), T.max(T.min(T.Div(v2, 2), 12), 0)]
