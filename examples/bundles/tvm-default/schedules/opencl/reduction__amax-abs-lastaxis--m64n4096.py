# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((64, 4096), "float32"), T_amax: T.Buffer((64,), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_amax_init"):
                    v0 = T.axis.spatial(64, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 64)
                    T.reads()
                    T.writes(T_amax[v0])
                    T_amax[v0] = T.float32(-340282346638528859811704183484516925440.0)
                for ax1 in range(4096):
                    with T.sblock("T_amax_update"):
                        v0 = T.axis.spatial(64, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(4096, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 64)
                        T.reads(T_amax[v0], X[v0, v1])
                        T.writes(T_amax[v0])
                        T_amax[v0] = T.max(T_amax[v0], T.fabs(X[v0, v1]))
