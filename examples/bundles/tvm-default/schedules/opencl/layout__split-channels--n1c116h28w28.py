# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 116, 28, 28), "float32"), T_split_sections: T.Buffer((1, 58, 28, 28), "float32"), T_split_sections_1: T.Buffer((1, 58, 28, 28), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(178, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_split_sections"):
                    v0 = T.axis.spatial(58, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                    v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                    v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 45472)
                    T.reads(X[0, v0, v1, v2])
                    T.writes(T_split_sections[0, v0, v1, v2])
                    T_split_sections[0, v0, v1, v2] = X[0, v0, v1, v2]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(178, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_split_sections_1"):
                    v0 = T.axis.spatial(58, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                    v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                    v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 45472)
                    T.reads(X[0, v0 + 58, v1, v2])
                    T.writes(T_split_sections_1[0, v0, v1, v2])
                    T_split_sections_1[0, v0, v1, v2] = X[0, v0 + 58, v1, v2]
