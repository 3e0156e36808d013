# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((98, 400), "float32"), T_autocorr: T.Buffer((98, 13), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(5, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_autocorr_init"):
                    v0 = T.axis.spatial(98, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 13)
                    v1 = T.axis.spatial(13, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 13)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 1274)
                    T.reads()
                    T.writes(T_autocorr[v0, v1])
                    T_autocorr[v0, v1] = T.float32(0.0)
                for ax2 in range(400):
                    with T.sblock("T_autocorr_update"):
                        v0 = T.axis.spatial(98, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 13)
                        v1 = T.axis.spatial(13, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 13)
                        v2 = T.axis.reduce(400, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 1274)
                        T.reads(T_autocorr[v0, v1], X[v0, T.min(v2, v2 + v1):T.min(v2, v2 + v1) + (T.max(v2, v2 + v1) + 1 - T.min(v2, v2 + v1))])
                        T.writes(T_autocorr[v0, v1])
                        T_autocorr[v0, v1] = T_autocorr[v0, v1] + T.if_then_else(v2 + v1 < 400, X[v0, v2] * X[v0, v2 + v1], T.float32(0.0))
