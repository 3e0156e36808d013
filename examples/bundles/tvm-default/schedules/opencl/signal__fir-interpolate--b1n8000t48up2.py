# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((1, 8000), "float32"), h: T.Buffer((48,), "float32"), T_fir_interpolate: T.Buffer((1, 16000), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_fused_0 in T.thread_binding(63, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_fir_interpolate_init"):
                    v0 = T.axis.spatial(16000, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 16000)
                    T.reads()
                    T.writes(T_fir_interpolate[0, v0])
                    T_fir_interpolate[0, v0] = T.float32(0.0)
                for ax1 in range(48):
                    with T.sblock("T_fir_interpolate_update"):
                        v0 = T.axis.spatial(16000, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(48, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 16000)
                        T.reads(T_fir_interpolate[0, v0], h[v1], x[0, (v0 - v1) // 2])
                        T.writes(T_fir_interpolate[0, v0])
                        T_fir_interpolate[0, v0] = T_fir_interpolate[0, v0] + T.if_then_else(0 <= v0 - v1 and (v0 - v1) % 2 == 0, h[v1] * x[0, (v0 - v1) // 2], T.float32(0.0))
