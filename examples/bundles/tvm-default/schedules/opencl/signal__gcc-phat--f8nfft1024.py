# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(xr: T.Buffer((8, 513), "float32"), xi: T.Buffer((8, 513), "float32"), yr: T.Buffer((8, 513), "float32"), yi: T.Buffer((8, 513), "float32"), T_idft: T.Buffer((8, 1024), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(32, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_idft_init"):
                    v0 = T.axis.spatial(8, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1024)
                    v1 = T.axis.spatial(1024, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1024)
                    T.reads()
                    T.writes(T_idft[v0, v1])
                    T_idft[v0, v1] = T.float32(0.0)
                for ax2 in range(513):
                    with T.sblock("T_idft_update"):
                        v0 = T.axis.spatial(8, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1024)
                        v1 = T.axis.spatial(1024, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1024)
                        v2 = T.axis.reduce(513, ax2)
                        T.reads(T_idft[v0, v1], xr[v0, v2], yr[v0, v2], xi[v0, v2], yi[v0, v2])
                        T.writes(T_idft[v0, v1])
                        T_idft[v0, v1] = T_idft[v0, v1] + T.if_then_else(v2 == 0 or v2 == 512, T.float32(0.0009765625), T.float32(0.001953125)) * ((xr[v0, v2] * yr[v0, v2] + xi[v0, v2] * yi[v0, v2]) / (T.sqrt((xr[v0, v2] * yr[v0, v2] + xi[v0, v2] * yi[v0, v2]) * (xr[v0, v2] * yr[v0, v2] + xi[v0, v2] * yi[v0, v2]) + (xi[v0, v2] * yr[v0, v2] - xr[v0, v2] * yi[v0, v2]) * (xi[v0, v2] * yr[v0, v2] - xr[v0, v2] * yi[v0, v2])) + T.float32(9.9999999999999998e-13)) * T.cos(T.float32(0.0061359231515425647) * T.Cast("float32", v2 * v1 % 1024)) - T.if_then_else(v2 == 0 or v2 == 512, T.float32(0.0), (xi[v0, v2] * yr[v0, v2] - xr[v0, v2] * yi[v0, v2]) / (T.sqrt((xr[v0, v2] * yr[v0, v2] + xi[v0, v2] * yi[v0, v2]) * (xr[v0, v2] * yr[v0, v2] + xi[v0, v2] * yi[v0, v2]) + (xi[v0, v2] * yr[v0, v2] - xr[v0, v2] * yi[v0, v2]) * (xi[v0, v2] * yr[v0, v2] - xr[v0, v2] * yi[v0, v2])) + T.float32(9.9999999999999998e-13)) * T.sin(T.float32(0.0061359231515425647) * T.Cast("float32", v2 * v1 % 1024))))
