# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(table: T.Buffer((10000, 64), "float32"), idx: T.Buffer((32, 20), "int32"), T_embedding_bag_mean: T.Buffer((32, 64), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_embedding_bag_shared = T.sblock_alloc_buffer((32, 64), scope="shared")
        for ax0_ax1_fused in T.thread_binding(2048, thread="blockIdx.x"):
            for ax0, ax1 in T.grid(1, 1):
                for ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax2_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_embedding_bag"):
                            v0 = T.axis.spatial(32, ax0_ax1_fused // 64 + ax0)
                            v1 = T.axis.spatial(64, ax0_ax1_fused % 64 + ax1)
                            v2 = T.axis.reduce(20, ax2_fused_0 * 256 + ax2_fused_1)
                            T.where(ax2_fused_0 * 256 + ax2_fused_1 < 20)
                            T.reads(table[idx[v0, v2], v1], idx[v0, v2])
                            T.writes(T_embedding_bag_shared[v0, v1])
                            with T.init():
                                T_embedding_bag_shared[v0, v1] = T.float32(0.0)
                            T_embedding_bag_shared[v0, v1] = T_embedding_bag_shared[v0, v1] + table[idx[v0, v2], v1]
            for ax2_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                for ax2_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_embedding_bag_mean"):
                        v0 = T.axis.spatial(32, ax0_ax1_fused // 64)
                        v1 = T.axis.spatial(64, ax0_ax1_fused % 64)
                        v2 = T.axis.spatial(T.int64(1), ax2_0 * T.int64(256) + ax2_1)
                        T.where(ax2_0 * T.int64(256) + ax2_1 < T.int64(1))
                        T.reads(T_embedding_bag_shared[v0, v1])
                        T.writes(T_embedding_bag_mean[v0, v1])
                        T_embedding_bag_mean[v0, v1] = T_embedding_bag_shared[v0, v1] / T.float32(20.0)
