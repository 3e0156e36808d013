# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(table: T.Buffer((1000, 64), "float32"), ids: T.Buffer((512,), "int32"), T_embedding: T.Buffer((512, 64), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(128, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_embedding"):
                    v0 = T.axis.spatial(512, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 64)
                    v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 64)
                    T.reads(table[ids[v0], v1], ids[v0])
                    T.writes(T_embedding[v0, v1])
                    T_embedding[v0, v1] = table[ids[v0], v1]
