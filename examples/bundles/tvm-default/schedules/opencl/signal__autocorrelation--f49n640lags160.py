# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((49, 640), "float32"), T_autocorr: T.Buffer((49, 160), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(31, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_autocorr_init"):
                    v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 160)
                    v1 = T.axis.spatial(160, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 160)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 7840)
                    T.reads()
                    T.writes(T_autocorr[v0, v1])
                    T_autocorr[v0, v1] = T.float32(0.0)
                for ax2 in range(640):
                    with T.sblock("T_autocorr_update"):
                        v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 160)
                        v1 = T.axis.spatial(160, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 160)
                        v2 = T.axis.reduce(640, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 7840)
                        T.reads(T_autocorr[v0, v1], X[v0, T.min(v2, v2 + v1):T.min(v2, v2 + v1) + (T.max(v2, v2 + v1) + 1 - T.min(v2, v2 + v1))])
                        T.writes(T_autocorr[v0, v1])
                        T_autocorr[v0, v1] = T_autocorr[v0, v1] + T.if_then_else(v2 + v1 < 640, X[v0, v2] * X[v0, v2 + v1], T.float32(0.0))
