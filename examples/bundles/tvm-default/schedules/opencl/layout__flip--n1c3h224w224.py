# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 3, 224, 224), "float32"), T_reverse_sequence: T.Buffer((1, 3, 224, 224), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(588, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_reverse_sequence"):
                    v0 = T.axis.spatial(3, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 50176)
                    v1 = T.axis.spatial(224, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 50176 // 224)
                    v2 = T.axis.spatial(224, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 224)
                    T.reads(X[0, v0, v1, v2 * -1 + 223])
                    T.writes(T_reverse_sequence[0, v0, v1, v2])
                    T_reverse_sequence[0, v0, v1, v2] = X[0, v0, v1, v2 * -1 + 223]
