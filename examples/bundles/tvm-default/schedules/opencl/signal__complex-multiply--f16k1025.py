# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(ar: T.Buffer((16, 1025), "float32"), ai: T.Buffer((16, 1025), "float32"), br: T.Buffer((16, 1025), "float32"), bi: T.Buffer((16, 1025), "float32"), T_real: T.Buffer((16, 1025), "float32"), T_imag: T.Buffer((16, 1025), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(65, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_real"):
                    v0 = T.axis.spatial(16, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1025)
                    v1 = T.axis.spatial(1025, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1025)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 16400)
                    T.reads(ar[v0, v1], br[v0, v1], ai[v0, v1], bi[v0, v1])
                    T.writes(T_real[v0, v1])
                    T_real[v0, v1] = ar[v0, v1] * br[v0, v1] - ai[v0, v1] * bi[v0, v1]
        for ax0_ax1_fused_0 in T.thread_binding(65, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_imag"):
                    v0 = T.axis.spatial(16, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1025)
                    v1 = T.axis.spatial(1025, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1025)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 16400)
                    T.reads(ar[v0, v1], bi[v0, v1], ai[v0, v1], br[v0, v1])
                    T.writes(T_imag[v0, v1])
                    T_imag[v0, v1] = ar[v0, v1] * bi[v0, v1] + ai[v0, v1] * br[v0, v1]
