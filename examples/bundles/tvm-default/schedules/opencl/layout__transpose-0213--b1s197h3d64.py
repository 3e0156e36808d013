# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 197, 3, 64), "float32"), T_transpose: T.Buffer((1, 3, 197, 64), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(148, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_transpose"):
                    v0 = T.axis.spatial(3, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 12608)
                    v1 = T.axis.spatial(197, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 12608 // 64)
                    v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 37824)
                    T.reads(X[0, v1, v0, v2])
                    T.writes(T_transpose[0, v0, v1, v2])
                    T_transpose[0, v0, v1, v2] = X[0, v1, v0, v2]
