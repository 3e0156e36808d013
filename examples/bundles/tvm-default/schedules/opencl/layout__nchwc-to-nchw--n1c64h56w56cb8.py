# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 8, 56, 56, 8), "float32"), T_layout_trans: T.Buffer((1, 64, 56, 56), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(784, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_layout_trans"):
                    v0 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3136)
                    v1 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3136 // 56)
                    v2 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 56)
                    T.reads(X[0, v0 // 8, v1, v2, v0 % 8])
                    T.writes(T_layout_trans[0, v0, v1, v2])
                    T.sblock_attr({"dst_layout": "NCHW", "input_shape": [1, 8, 56, 56, 8], "schedule_rule": "None", "src_layout": "NCHW8c"})
                    T_layout_trans[0, v0, v1, v2] = T.if_then_else(T.LT(0, 1) and v0 < 64 and v1 < 56 and v2 < 56, X[0, v0 // 8, v1, v2, v0 % 8], T.float32(0.0))
