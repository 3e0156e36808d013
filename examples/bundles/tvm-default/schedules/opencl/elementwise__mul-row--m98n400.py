# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((98, 400), "float32"), s: T.Buffer((400,), "float32"), T_multiply: T.Buffer((98, 400), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(154, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_multiply"):
                    v0 = T.axis.spatial(98, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 400)
                    v1 = T.axis.spatial(400, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 400)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 39200)
                    T.reads(X[v0, v1], s[v1])
                    T.writes(T_multiply[v0, v1])
                    T_multiply[v0, v1] = X[v0, v1] * s[v1]
