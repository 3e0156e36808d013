# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((16000,), "float32"), T_atan: T.Buffer((16000,), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_fused_0 in T.thread_binding(63, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_atan"):
                    v0 = T.axis.spatial(16000, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 16000)
                    T.reads(X[v0])
                    T.writes(T_atan[v0])
                    T_atan[v0] = T.atan(X[v0])
