# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((8, 1024), "float32"), T_repeat: T.Buffer((8, 2048), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(64, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_repeat"):
                    v0 = T.axis.spatial(8, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 2048)
                    v1 = T.axis.spatial(2048, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 2048)
                    T.reads(X[v0, v1 // 2])
                    T.writes(T_repeat[v0, v1])
                    T_repeat[v0, v1] = X[v0, v1 // 2]
