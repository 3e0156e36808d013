# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(table: T.Buffer((10000, 64), "float32"), idx: T.Buffer((32, 20), "int32"), weight: T.Buffer((32, 20), "float32"), T_embedding_bag_weighted: T.Buffer((32, 64), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(8, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_embedding_bag_weighted_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 64)
                    v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 64)
                    T.reads()
                    T.writes(T_embedding_bag_weighted[v0, v1])
                    T_embedding_bag_weighted[v0, v1] = T.float32(0.0)
                for ax2 in range(20):
                    with T.sblock("T_embedding_bag_weighted_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 64)
                        v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 64)
                        v2 = T.axis.reduce(20, ax2)
                        T.reads(T_embedding_bag_weighted[v0, v1], weight[v0, v2], table[idx[v0, v2], v1], idx[v0, v2])
                        T.writes(T_embedding_bag_weighted[v0, v1])
                        T_embedding_bag_weighted[v0, v1] = T_embedding_bag_weighted[v0, v1] + weight[v0, v2] * table[idx[v0, v2], v1]
