# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((128, 1000), "float32"), idx: T.Buffer((128, 5), "int32"), T_gather: T.Buffer((128, 5), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(3, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_gather"):
                    v0 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 5)
                    v1 = T.axis.spatial(5, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 5)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 640)
                    T.reads(X[v0, idx[v0, v1]], idx[v0, v1])
                    T.writes(T_gather[v0, v1])
                    T_gather[v0, v1] = X[v0, idx[v0, v1]]
