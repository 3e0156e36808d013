# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((16000,), "float32"), T_frame_window: T.Buffer((98, 400), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(154, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_frame_window"):
                    v0 = T.axis.spatial(98, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 400)
                    v1 = T.axis.spatial(400, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 400)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 39200)
                    T.reads(x[v0 * 160 + v1])
                    T.writes(T_frame_window[v0, v1])
                    T_frame_window[v0, v1] = x[v0 * 160 + v1] * (T.float32(0.5) - T.float32(0.5) * T.cos(T.float32(0.015707963267948967) * T.Cast("float32", v1)))
