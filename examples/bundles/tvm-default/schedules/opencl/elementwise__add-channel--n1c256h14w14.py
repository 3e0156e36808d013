# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 256, 14, 14), "float32"), b: T.Buffer((256,), "float32"), T_add: T.Buffer((1, 256, 14, 14), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(196, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_add"):
                    v0 = T.axis.spatial(256, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 196)
                    v1 = T.axis.spatial(14, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 196 // 14)
                    v2 = T.axis.spatial(14, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 14)
                    T.reads(X[0, v0, v1, v2], b[v0])
                    T.writes(T_add[0, v0, v1, v2])
                    T_add[0, v0, v1, v2] = X[0, v0, v1, v2] + b[v0]
