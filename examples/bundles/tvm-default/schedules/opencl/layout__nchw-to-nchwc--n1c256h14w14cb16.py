# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 256, 14, 14), "float32"), T_layout_trans: T.Buffer((1, 16, 14, 14, 16), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_ax3_fused_0 in T.thread_binding(196, thread="blockIdx.x"):
            for ax0_ax1_ax2_ax3_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_layout_trans"):
                    v0 = T.axis.spatial(16, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) // 3136)
                    v1 = T.axis.spatial(14, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 3136 // 224)
                    v2 = T.axis.spatial(14, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 224 // 16)
                    v3 = T.axis.spatial(16, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 16)
                    T.reads(X[0, v0 * 16 + v3, v1, v2])
                    T.writes(T_layout_trans[0, v0, v1, v2, v3])
                    T.sblock_attr({"dst_layout": "NCHW16c", "input_shape": [1, 256, 14, 14], "schedule_rule": "None", "src_layout": "NCHW"})
                    T_layout_trans[0, v0, v1, v2, v3] = T.if_then_else(T.LT(0, 1) and v0 * 16 + v3 < 256 and v1 < 14 and v2 < 14, X[0, v0 * 16 + v3, v1, v2], T.float32(0.0))
