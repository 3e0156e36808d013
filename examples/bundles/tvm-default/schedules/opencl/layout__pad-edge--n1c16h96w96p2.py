# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 16, 96, 96), "float32"), T_pad_edge: T.Buffer((1, 16, 100, 100), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(625, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_pad_edge"):
                    v0 = T.axis.spatial(16, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 10000)
                    v1 = T.axis.spatial(100, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 10000 // 100)
                    v2 = T.axis.spatial(100, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 100)
                    T.reads(X[0, v0, T.min(T.max(v1 - 2, 0), 95), T.min(T.max(v2 - 2, 0), 95)])
                    T.writes(T_pad_edge[0, v0, v1, v2])
                    T_pad_edge[0, v0, v1, v2] = X[0, v0, T.min(T.max(v1 - 2, 0), 95), T.min(T.max(v2 - 2, 0), 95)]
