# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(idx: T.Buffer((512,), "int32"), T_one_hot: T.Buffer((512, 1000), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(2000, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_one_hot"):
                    v0 = T.axis.spatial(512, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1000)
                    v1 = T.axis.spatial(1000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1000)
                    T.reads(idx[v0])
                    T.writes(T_one_hot[v0, v1])
                    T_one_hot[v0, v1] = T.Select(idx[v0] == v1, T.float32(1.0), T.float32(0.0))
