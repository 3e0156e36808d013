# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((128, 768), "bfloat16"), B: T.Buffer((768, 768), "bfloat16"), T_matmul_bf16: T.Buffer((128, 768), "bfloat16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_matmul_reindex_local = T.sblock_alloc_buffer((1, 128, 768), scope="local")
        A_reindex_shared = T.sblock_alloc_buffer((1, 128, 768), "bfloat16", scope="shared")
        B_reindex_shared = T.sblock_alloc_buffer((1, 768, 768), "bfloat16", scope="shared")
        for ax0_ax2_0_fused in T.thread_binding(24, thread="blockIdx.y"):
            for ax1_0 in T.thread_binding(4, thread="blockIdx.x"):
                for ax2_1 in T.thread_binding(1, thread="vthread.y"):
                    for ax1_1 in T.thread_binding(1, thread="vthread.x"):
                        for ax2_2 in T.thread_binding(8, thread="threadIdx.y"):
                            for ax1_2 in T.thread_binding(8, thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                                for ax1_3_init, ax2_3_0_init in T.grid(4, 4):
                                    for ax2_3_1_init in T.vectorized(1):
                                        with T.sblock("T_matmul_init"):
                                            v0 = T.axis.spatial(1, 0)
                                            v1 = T.axis.spatial(128, ax1_0 * 32 + ax1_1 * 32 + ax1_2 * 4 + ax1_3_init)
                                            v2 = T.axis.spatial(768, ax0_ax2_0_fused * 32 + ax2_1 * 32 + ax2_2 * 4 + ax2_3_0_init + ax2_3_1_init)
                                            T.reads()
                                            T.writes(T_matmul_reindex_local[0, v1, v2])
                                            T_matmul_reindex_local[0, v1, v2] = T.float32(0.0)
                                for ax3_0 in range(96):
                                    for ax0_ax1_ax2_fused_0 in T.thread_binding(8, thread="threadIdx.y"):
                                        for ax0_ax1_ax2_fused_1 in T.thread_binding(8, thread="threadIdx.x"):
                                            for ax0_ax1_ax2_fused_2 in range(4):
                                                for ax0_ax1_ax2_fused_3 in T.vectorized(1):
                                                    with T.sblock("A_reindex_shared"):
                                                        v0 = T.axis.spatial(1, 0)
                                                        v1 = T.axis.spatial(128, ax1_0 * 32 + (ax0_ax1_ax2_fused_0 * 32 + ax0_ax1_ax2_fused_1 * 4 + ax0_ax1_ax2_fused_2 + ax0_ax1_ax2_fused_3) // 8)
                                                        v2 = T.axis.spatial(768, ax3_0 * 8 + (ax0_ax1_ax2_fused_0 * 32 + ax0_ax1_ax2_fused_1 * 4 + ax0_ax1_ax2_fused_2 + ax0_ax1_ax2_fused_3) % 8)
                                                        T.reads(A[v1, v2])
                                                        T.writes(A_reindex_shared[v0, v1, v2])
                                                        A_reindex_shared[v0, v1, v2] = A[v1, v2]
                                    for ax0_ax1_ax2_fused_0 in T.thread_binding(8, thread="threadIdx.y"):
                                        for ax0_ax1_ax2_fused_1 in T.thread_binding(8, thread="threadIdx.x"):
                                            for ax0_ax1_ax2_fused_2 in range(4):
                                                for ax0_ax1_ax2_fused_3 in T.vectorized(1):
                                                    with T.sblock("B_reindex_shared"):
                                                        v0 = T.axis.spatial(1, 0)
                                                        v1 = T.axis.spatial(768, ax0_ax2_0_fused * 32 + (ax0_ax1_ax2_fused_0 * 32 + ax0_ax1_ax2_fused_1 * 4 + ax0_ax1_ax2_fused_2 + ax0_ax1_ax2_fused_3) // 8)
                                                        v2 = T.axis.spatial(768, ax3_0 * 8 + (ax0_ax1_ax2_fused_0 * 32 + ax0_ax1_ax2_fused_1 * 4 + ax0_ax1_ax2_fused_2 + ax0_ax1_ax2_fused_3) % 8)
                                                        T.reads(B[v1, v2])
                                                        T.writes(B_reindex_shared[v0, v1, v2])
                                                        B_reindex_shared[v0, v1, v2] = B[v1, v2]
                                    for ax3_1, ax1_3, ax2_3_0 in T.grid(8, 4, 4):
                                        for ax2_3_1 in T.vectorized(1):
                                            with T.sblock("T_matmul_update"):
                                                v0 = T.axis.spatial(1, 0)
                                                v1 = T.axis.spatial(128, ax1_0 * 32 + ax1_1 * 32 + ax1_2 * 4 + ax1_3)
                                                v2 = T.axis.spatial(768, ax0_ax2_0_fused * 32 + ax2_1 * 32 + ax2_2 * 4 + ax2_3_0 + ax2_3_1)
                                                v3 = T.axis.reduce(768, ax3_0 * 8 + ax3_1)
                                                T.reads(T_matmul_reindex_local[0, v1, v2], A_reindex_shared[0, v1, v3], B_reindex_shared[0, v2, v3])
                                                T.writes(T_matmul_reindex_local[0, v1, v2])
                                                T_matmul_reindex_local[0, v1, v2] = T_matmul_reindex_local[0, v1, v2] + T.Cast("float32", A_reindex_shared[0, v1, v3]) * T.Cast("float32", B_reindex_shared[0, v2, v3])
                                for ax0, ax1, ax2_0 in T.grid(1, 4, 4):
                                    for ax2_1_1 in T.vectorized(1):
                                        with T.sblock("T_matmul_reindex_local"):
                                            v0 = T.axis.spatial(1, ax0)
                                            v1 = T.axis.spatial(128, ax1_0 * 32 + ax1_2 * 4 + ax1)
                                            v2 = T.axis.spatial(768, ax0_ax2_0_fused * 32 + ax2_2 * 4 + ax2_0 + ax2_1_1)
                                            T.reads(T_matmul_reindex_local[v0, v1, v2])
                                            T.writes(T_matmul_bf16[v1, v2])
                                            T_matmul_bf16[v1, v2] = T.Cast("bfloat16", T_matmul_reindex_local[v0, v1, v2])
