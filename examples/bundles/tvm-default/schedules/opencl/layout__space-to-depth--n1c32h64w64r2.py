# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 32, 64, 64), "float32"), space_to_depth: T.Buffer((1, 128, 32, 32), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(512, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("space_to_depth"):
                    v0 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 1024)
                    v1 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 1024 // 32)
                    v2 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32)
                    T.reads(X[0, T.truncmod(v0, 32), v1 * 2 + T.Div(v0, 64), v2 * 2 + T.Div(T.truncmod(v0, 64), 32)])
                    T.writes(space_to_depth[0, v0, v1, v2])
                    space_to_depth[0, v0, v1, v2] = X[0, T.truncmod(v0, 32), v1 * 2 + T.Div(v0, 64), v2 * 2 + T.Div(T.truncmod(v0, 64), 32)]
