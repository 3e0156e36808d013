# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 48, 64, 64), "float32"), depth_to_space: T.Buffer((1, 3, 256, 256), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(768, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("depth_to_space"):
                    v0 = T.axis.spatial(3, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 65536)
                    v1 = T.axis.spatial(256, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 65536 // 256)
                    v2 = T.axis.spatial(256, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 256)
                    T.reads(X[0, v0 * 16 + T.truncmod(v1, 4) * 4 + T.truncmod(v2, 4), T.Div(v1, 4), T.Div(v2, 4)])
                    T.writes(depth_to_space[0, v0, v1, v2])
                    depth_to_space[0, v0, v1, v2] = X[0, v0 * 16 + T.truncmod(v1, 4) * 4 + T.truncmod(v2, 4), T.Div(v1, 4), T.Div(v2, 4)]
