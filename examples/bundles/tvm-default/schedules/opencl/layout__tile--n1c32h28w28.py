# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 32, 28, 28), "float32"), T_tile: T.Buffer((T.int64(1), T.int64(32), T.int64(56), T.int64(56)), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(T.int64(392), thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                with T.sblock("T_tile"):
                    v0 = T.axis.spatial(T.int64(32), (ax0_ax1_ax2_fused_0 * T.int64(256) + ax0_ax1_ax2_fused_1) // T.int64(3136))
                    v1 = T.axis.spatial(T.int64(56), (ax0_ax1_ax2_fused_0 * T.int64(256) + ax0_ax1_ax2_fused_1) % T.int64(3136) // T.int64(56))
                    v2 = T.axis.spatial(T.int64(56), (ax0_ax1_ax2_fused_0 * T.int64(256) + ax0_ax1_ax2_fused_1) % T.int64(56))
                    T.reads(X[T.int64(0), v0, v1 % T.int64(28), v2 % T.int64(28)])
                    T.writes(T_tile[T.int64(0), v0, v1, v2])
                    T_tile[T.int64(0), v0, v1, v2] = X[T.int64(0), v0, v1 % T.int64(28), v2 % T.int64(28)]
