# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((257, 98), "float32"), T_transpose: T.Buffer((98, 257), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        X_shared = T.sblock_alloc_buffer((257, 98), scope="shared")
        for ax0_0_0 in T.thread_binding(13, thread="blockIdx.y", annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
            for ax1_0 in T.thread_binding(17, thread="blockIdx.x"):
                for ax0_ax1_fused_0 in range(1):
                    for ax0_ax1_fused_1 in T.thread_binding(8, thread="threadIdx.y"):
                        for ax0_ax1_fused_2 in T.thread_binding(16, thread="threadIdx.x"):
                            for ax0_ax1_fused_3 in T.unroll(1):
                                with T.sblock("X_shared"):
                                    v0 = T.axis.spatial(257, ax1_0 * 16 + (ax0_ax1_fused_0 * 128 + ax0_ax1_fused_1 * 16 + ax0_ax1_fused_2 + ax0_ax1_fused_3) // 8)
                                    v1 = T.axis.spatial(98, ax0_0_0 * 8 + (ax0_ax1_fused_0 * 128 + ax0_ax1_fused_1 * 16 + ax0_ax1_fused_2 + ax0_ax1_fused_3) % 8)
                                    T.where(ax1_0 * 16 + ((ax0_ax1_fused_0 * 8 + ax0_ax1_fused_1) * 16 + ax0_ax1_fused_2 + ax0_ax1_fused_3) // 8 < 257 and ax0_0_0 * 8 + ((ax0_ax1_fused_0 * 8 + ax0_ax1_fused_1) * 16 + ax0_ax1_fused_2 + ax0_ax1_fused_3) % 8 < 98)
                                    T.reads(X[v0, v1])
                                    T.writes(X_shared[v0, v1])
                                    T.sblock_attr({"buffer_dim_align": [[0, 0, 32, 1]]})
                                    X_shared[v0, v1] = X[v0, v1]
                for ax0_0_1 in T.thread_binding(8, thread="threadIdx.y"):
                    for ax1_1 in T.thread_binding(16, thread="threadIdx.x"):
                        for ax0_1_0, ax0_1_1 in T.grid(1, 1):
                            with T.sblock("T_transpose"):
                                v0 = T.axis.spatial(98, ax0_0_0 * 8 + ax0_0_1 + ax0_1_0 + ax0_1_1)
                                v1 = T.axis.spatial(257, ax1_0 * 16 + ax1_1)
                                T.where(ax0_0_0 * 8 + ax0_0_1 < 98 and ax1_0 * 16 + ax1_1 < 257)
                                T.reads(X_shared[v1, v0])
                                T.writes(T_transpose[v0, v1])
                                T_transpose[v0, v1] = X_shared[v1, v0]
