# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 64, 32, 32), "float32"), depth_to_space: T.Buffer((1, 16, 64, 64), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(256, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("depth_to_space"):
                    v0 = T.axis.spatial(16, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 4096)
                    v1 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 4096 // 64)
                    v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                    T.reads(X[0, v0 * 4 + T.truncmod(v1, 2) * 2 + T.truncmod(v2, 2), T.Div(v1, 2), T.Div(v2, 2)])
                    T.writes(depth_to_space[0, v0, v1, v2])
                    depth_to_space[0, v0, v1, v2] = X[0, v0 * 4 + T.truncmod(v1, 2) * 2 + T.truncmod(v2, 2), T.Div(v1, 2), T.Div(v2, 2)]
