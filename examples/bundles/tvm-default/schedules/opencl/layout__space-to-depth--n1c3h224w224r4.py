# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 3, 224, 224), "float32"), space_to_depth: T.Buffer((1, 48, 56, 56), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(588, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("space_to_depth"):
                    v0 = T.axis.spatial(48, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3136)
                    v1 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3136 // 56)
                    v2 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 56)
                    T.reads(X[0, T.truncmod(v0, 3), v1 * 4 + T.Div(v0, 12), v2 * 4 + T.Div(T.truncmod(v0, 12), 3)])
                    T.writes(space_to_depth[0, v0, v1, v2])
                    space_to_depth[0, v0, v1, v2] = X[0, T.truncmod(v0, 3), v1 * 4 + T.Div(v0, 12), v2 * 4 + T.Div(T.truncmod(v0, 12), 3)]
