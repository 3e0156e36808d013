# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((98, 257), "float32"), T_max: T.Buffer((257,), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_fused_0 in T.thread_binding(2, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_max_init"):
                    v0 = T.axis.spatial(257, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 257)
                    T.reads()
                    T.writes(T_max[v0])
                    T_max[v0] = T.float32(-340282346638528859811704183484516925440.0)
                for ax1 in range(98):
                    with T.sblock("T_max_update"):
                        v0 = T.axis.spatial(257, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(98, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 257)
                        T.reads(T_max[v0], X[v1, v0])
                        T.writes(T_max[v0])
                        T_max[v0] = T.max(T_max[v0], X[v1, v0])
