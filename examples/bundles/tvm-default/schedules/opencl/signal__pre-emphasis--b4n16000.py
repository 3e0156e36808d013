# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((4, 16000), "float32"), T_pre_emphasis: T.Buffer((4, 16000), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(250, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_pre_emphasis"):
                    v0 = T.axis.spatial(4, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 16000)
                    v1 = T.axis.spatial(16000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 16000)
                    T.reads(x[v0, T.min(v1, T.max(v1 - 1, 0)):T.min(v1, T.max(v1 - 1, 0)) + (T.max(v1, T.max(v1 - 1, 0)) + 1 - T.min(v1, T.max(v1 - 1, 0)))])
                    T.writes(T_pre_emphasis[v0, v1])
                    T_pre_emphasis[v0, v1] = T.if_then_else(v1 == 0, x[v0, v1], x[v0, v1] - T.float32(0.96999999999999997) * x[v0, T.max(v1 - 1, 0)])
