# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(re: T.Buffer((49, 321), "float32"), im: T.Buffer((49, 321), "float32"), T_power: T.Buffer((49, 321), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(62, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_power"):
                    v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 321)
                    v1 = T.axis.spatial(321, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 321)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 15729)
                    T.reads(re[v0, v1], im[v0, v1])
                    T.writes(T_power[v0, v1])
                    T_power[v0, v1] = re[v0, v1] * re[v0, v1] + im[v0, v1] * im[v0, v1]
