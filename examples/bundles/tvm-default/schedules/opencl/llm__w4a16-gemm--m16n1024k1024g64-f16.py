# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((16, 1024), "float16"), P: T.Buffer((1024, 512), "uint8"), scale: T.Buffer((1024, 16), "float16"), T_matmul_f16: T.Buffer((16, 1024), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_matmul_reindex_pad_local = T.sblock_alloc_buffer((1, 32, 1024), scope="local")
        x_reindex_pad_shared = T.sblock_alloc_buffer((1, 32, 1024), "float16", scope="shared")
        T_dequantize_reindex_shared = T.sblock_alloc_buffer((1, 1024, 1024), scope="shared")
        for ax0_ax2_0_fused in T.thread_binding(32, thread="blockIdx.y"):
            for ax1_0 in T.thread_binding(1, thread="blockIdx.x"):
                for ax2_1 in T.thread_binding(1, thread="vthread.y"):
                    for ax1_1 in T.thread_binding(1, thread="vthread.x"):
                        for ax2_2 in T.thread_binding(8, thread="threadIdx.y"):
                            for ax1_2 in T.thread_binding(8, thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                                for ax1_3_init, ax2_3_0_init in T.grid(4, 4):
                                    for ax2_3_1_init in T.vectorized(1):
                                        with T.sblock("T_matmul_init"):
                                            v0 = T.axis.spatial(1, 0)
                                            v1 = T.axis.spatial(32, ax1_0 * 32 + ax1_1 * 32 + ax1_2 * 4 + ax1_3_init)
                                            v2 = T.axis.spatial(1024, ax0_ax2_0_fused * 32 + ax2_1 * 32 + ax2_2 * 4 + ax2_3_0_init + ax2_3_1_init)
                                            T.reads()
                                            T.writes(T_matmul_reindex_pad_local[0, v1, v2])
                                            T_matmul_reindex_pad_local[0, v1, v2] = T.float32(0.0)
                                for ax3_0 in range(128):
                                    for ax0_ax1_ax2_fused_0 in T.thread_binding(8, thread="threadIdx.y"):
                                        for ax0_ax1_ax2_fused_1 in T.thread_binding(8, thread="threadIdx.x"):
                                            for ax0_ax1_ax2_fused_2 in range(4):
                                                for ax0_ax1_ax2_fused_3 in T.vectorized(1):
                                                    with T.sblock("x_reindex_pad_shared"):
                                                        v0 = T.axis.spatial(1, 0)
                                                        v1 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 32 + ax0_ax1_ax2_fused_1 * 4 + ax0_ax1_ax2_fused_2 + ax0_ax1_ax2_fused_3) // 8)
                                                        v2 = T.axis.spatial(1024, ax3_0 * 8 + (ax0_ax1_ax2_fused_0 * 32 + ax0_ax1_ax2_fused_1 * 4 + ax0_ax1_ax2_fused_2 + ax0_ax1_ax2_fused_3) % 8)
                                                        T.reads(x[v1, v2])
                                                        T.writes(x_reindex_pad_shared[v0, v1, v2])
                                                        x_reindex_pad_shared[v0, v1, v2] = T.if_then_else(v1 < 16, x[v1, v2], T.float16(0.0))
                                    for ax0_ax1_ax2_fused_0 in T.thread_binding(8, thread="threadIdx.y"):
                                        for ax0_ax1_ax2_fused_1 in T.thread_binding(8, thread="threadIdx.x"):
                                            for ax0_ax1_ax2_fused_2 in range(4):
                                                for ax0_ax1_ax2_fused_3 in T.vectorized(1):
                                                    with T.sblock("T_dequantize_reindex_shared"):
                                                        v0 = T.axis.spatial(1, 0)
                                                        v1 = T.axis.spatial(1024, ax0_ax2_0_fused * 32 + (ax0_ax1_ax2_fused_0 * 32 + ax0_ax1_ax2_fused_1 * 4 + ax0_ax1_ax2_fused_2 + ax0_ax1_ax2_fused_3) // 8)
                                                        v2 = T.axis.spatial(1024, ax3_0 * 8 + (ax0_ax1_ax2_fused_0 * 32 + ax0_ax1_ax2_fused_1 * 4 + ax0_ax1_ax2_fused_2 + ax0_ax1_ax2_fused_3) % 8)
                                                        T.reads(P[v1, v2 // 2], scale[v1, v2 // 64])
                                                        T.writes(T_dequantize_reindex_shared[v0, v1, v2])
                                                        T_dequantize_reindex_shared[v0, v1, v2] = T.Cast("float32", (T.Cast("int32", P[v1, v2 // 2]) >> v2 % 2 * 4 & 15) - 8) * T.Cast("float32", scale[v1, v2 // 64])
                                    for ax3_1, ax1_3, ax2_3_0 in T.grid(8, 4, 4):
                                        for ax2_3_1 in T.vectorized(1):
                                            with T.sblock("T_matmul_update"):
                                                v0 = T.axis.spatial(1, 0)
                                                v1 = T.axis.spatial(32, ax1_0 * 32 + ax1_1 * 32 + ax1_2 * 4 + ax1_3)
                                                v2 = T.axis.spatial(1024, ax0_ax2_0_fused * 32 + ax2_1 * 32 + ax2_2 * 4 + ax2_3_0 + ax2_3_1)
                                                v3 = T.axis.reduce(1024, ax3_0 * 8 + ax3_1)
                                                T.reads(T_matmul_reindex_pad_local[0, v1, v2], x_reindex_pad_shared[0, v1, v3], T_dequantize_reindex_shared[0, v2, v3])
                                                T.writes(T_matmul_reindex_pad_local[0, v1, v2])
                                                T_matmul_reindex_pad_local[0, v1, v2] = T_matmul_reindex_pad_local[0, v1, v2] + T.Cast("float32", x_reindex_pad_shared[0, v1, v3]) * T_dequantize_reindex_shared[0, v2, v3]
                                for ax0, ax1, ax2_0 in T.grid(1, 4, 4):
                                    for ax2_1_1 in T.vectorized(1):
                                        with T.sblock("T_matmul_reindex_pad_local"):
                                            v0 = T.axis.spatial(1, ax0)
                                            v1 = T.axis.spatial(32, ax1_2 * 4 + ax1)
                                            v2 = T.axis.spatial(1024, ax0_ax2_0_fused * 32 + ax2_2 * 4 + ax2_0 + ax2_1_1)
                                            T.where(ax1_2 * 4 + ax1 < 16)
                                            T.reads(T_matmul_reindex_pad_local[v0, v1, v2])
                                            T.writes(T_matmul_f16[v1, v2])
                                            T_matmul_f16[v1, v2] = T.Cast("float16", T_matmul_reindex_pad_local[v0, v1, v2])
