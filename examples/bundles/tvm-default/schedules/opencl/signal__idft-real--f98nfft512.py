# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(re: T.Buffer((98, 257), "float32"), im: T.Buffer((98, 257), "float32"), T_idft: T.Buffer((98, 512), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(196, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_idft_init"):
                    v0 = T.axis.spatial(98, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 512)
                    v1 = T.axis.spatial(512, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 512)
                    T.reads()
                    T.writes(T_idft[v0, v1])
                    T_idft[v0, v1] = T.float32(0.0)
                for ax2 in range(257):
                    with T.sblock("T_idft_update"):
                        v0 = T.axis.spatial(98, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 512)
                        v1 = T.axis.spatial(512, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 512)
                        v2 = T.axis.reduce(257, ax2)
                        T.reads(T_idft[v0, v1], re[v0, v2], im[v0, v2])
                        T.writes(T_idft[v0, v1])
                        T_idft[v0, v1] = T_idft[v0, v1] + T.if_then_else(v2 == 0 or v2 == 256, T.float32(0.001953125), T.float32(0.00390625)) * (re[v0, v2] * T.cos(T.float32(0.012271846303085129) * T.Cast("float32", v2 * v1 % 512)) - T.if_then_else(v2 == 0 or v2 == 256, T.float32(0.0), im[v0, v2] * T.sin(T.float32(0.012271846303085129) * T.Cast("float32", v2 * v1 % 512))))
