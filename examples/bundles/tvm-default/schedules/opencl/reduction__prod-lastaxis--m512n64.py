# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((512, 64), "float32"), T_prod: T.Buffer((512,), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_fused_0 in T.thread_binding(2, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_prod_init"):
                    v0 = T.axis.spatial(512, ax0_fused_0 * 256 + ax0_fused_1)
                    T.reads()
                    T.writes(T_prod[v0])
                    T_prod[v0] = T.float32(1.0)
                for ax1 in range(64):
                    with T.sblock("T_prod_update"):
                        v0 = T.axis.spatial(512, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(64, ax1)
                        T.reads(T_prod[v0], X[v0, v1])
                        T.writes(T_prod[v0])
                        T_prod[v0] = T_prod[v0] * X[v0, v1]
