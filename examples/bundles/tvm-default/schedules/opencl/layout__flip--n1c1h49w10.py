# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 1, 49, 10), "float32"), T_reverse_sequence: T.Buffer((1, 1, 49, 10), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(2, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_reverse_sequence"):
                    v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 10)
                    v1 = T.axis.spatial(10, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 10)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 490)
                    T.reads(X[0, 0, v0, v1 * -1 + 9])
                    T.writes(T_reverse_sequence[0, 0, v0, v1])
                    T_reverse_sequence[0, 0, v0, v1] = X[0, 0, v0, v1 * -1 + 9]
