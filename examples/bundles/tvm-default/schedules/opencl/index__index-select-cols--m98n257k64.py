# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((98, 257), "float32"), idx: T.Buffer((64,), "int32"), T_index_select: T.Buffer((98, 64), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(25, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_index_select"):
                    v0 = T.axis.spatial(98, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 64)
                    v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 64)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 6272)
                    T.reads(X[v0, idx[v1]], idx[v1])
                    T.writes(T_index_select[v0, v1])
                    T_index_select[v0, v1] = X[v0, idx[v1]]
