# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 3, 32, 32), "bfloat16"), W: T.Buffer((16, 3, 3, 3), "bfloat16"), bn_gamma: T.Buffer((16,), "bfloat16"), bn_beta: T.Buffer((16,), "bfloat16"), bn_mean: T.Buffer((16,), "bfloat16"), bn_var: T.Buffer((16,), "bfloat16"), T_relu_bf16: T.Buffer((1, 16, 32, 32), "bfloat16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        conv2d_nchw_reindex_pad_local = T.sblock_alloc_buffer((1, 1024, 32), scope="local")
        pad_temp_reindex_pad_shared = T.sblock_alloc_buffer((1, 1024, 32), scope="shared")
        W_f32_reindex_pad_shared = T.sblock_alloc_buffer((1, 32, 32), scope="shared")
        for ax0_ax2_0_fused in T.thread_binding(1, thread="blockIdx.y"):
            for ax1_0 in T.thread_binding(32, thread="blockIdx.x"):
                for ax2_1 in T.thread_binding(1, thread="vthread.y"):
                    for ax1_1 in T.thread_binding(1, thread="vthread.x"):
                        for ax2_2 in T.thread_binding(8, thread="threadIdx.y"):
                            for ax1_2 in T.thread_binding(8, thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                                for ax1_3_init, ax2_3_0_init in T.grid(4, 4):
                                    for ax2_3_1_init in T.vectorized(1):
                                        with T.sblock("conv2d_nchw_init"):
                                            v0 = T.axis.spatial(1, 0)
                                            v1 = T.axis.spatial(1024, ax1_0 * 32 + ax1_1 * 32 + ax1_2 * 4 + ax1_3_init)
                                            v2 = T.axis.spatial(32, ax2_1 * 32 + ax2_2 * 4 + ax2_3_0_init + ax2_3_1_init)
                                            T.reads()
                                            T.writes(conv2d_nchw_reindex_pad_local[0, v1, v2])
                                            conv2d_nchw_reindex_pad_local[0, v1, v2] = T.float32(0.0)
                                for ax3_0 in range(4):
                                    for ax0_ax1_ax2_fused_0 in T.thread_binding(8, thread="threadIdx.y"):
                                        for ax0_ax1_ax2_fused_1 in T.thread_binding(8, thread="threadIdx.x"):
                                            for ax0_ax1_ax2_fused_2 in range(4):
                                                for ax0_ax1_ax2_fused_3 in T.vectorized(1):
                                                    with T.sblock("pad_temp_reindex_pad_shared"):
                                                        v0 = T.axis.spatial(1, 0)
                                                        v1 = T.axis.spatial(1024, ax1_0 * 32 + (ax0_ax1_ax2_fused_0 * 32 + ax0_ax1_ax2_fused_1 * 4 + ax0_ax1_ax2_fused_2 + ax0_ax1_ax2_fused_3) // 8)
                                                        v2 = T.axis.spatial(32, ax3_0 * 8 + (ax0_ax1_ax2_fused_0 * 32 + ax0_ax1_ax2_fused_1 * 4 + ax0_ax1_ax2_fused_2 + ax0_ax1_ax2_fused_3) % 8)
                                                        T.reads(X[0, v2 // 9, v1 // 32 + v2 // 3 % 3 - 1, v1 % 32 + v2 % 3 - 1])
                                                        T.writes(pad_temp_reindex_pad_shared[v0, v1, v2])
                                                        pad_temp_reindex_pad_shared[v0, v1, v2] = T.if_then_else(v2 < 27, T.if_then_else(1 <= v1 // 32 + v2 // 3 % 3 and v1 // 32 + v2 // 3 % 3 < 33 and 1 <= v1 % 32 + v2 % 3 and v1 % 32 + v2 % 3 < 33, T.Cast("float32", X[0, v2 // 9, v1 // 32 + v2 // 3 % 3 - 1, v1 % 32 + v2 % 3 - 1]), T.float32(0.0)), T.float32(0.0))
                                    for ax0_ax1_ax2_fused_0 in T.thread_binding(8, thread="threadIdx.y"):
                                        for ax0_ax1_ax2_fused_1 in T.thread_binding(8, thread="threadIdx.x"):
                                            for ax0_ax1_ax2_fused_2 in range(4):
                                                for ax0_ax1_ax2_fused_3 in T.vectorized(1):
                                                    with T.sblock("W_f32_reindex_pad_shared"):
                                                        v0 = T.axis.spatial(1, 0)
                                                        v1 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 32 + ax0_ax1_ax2_fused_1 * 4 + ax0_ax1_ax2_fused_2 + ax0_ax1_ax2_fused_3) // 8)
                                                        v2 = T.axis.spatial(32, ax3_0 * 8 + (ax0_ax1_ax2_fused_0 * 32 + ax0_ax1_ax2_fused_1 * 4 + ax0_ax1_ax2_fused_2 + ax0_ax1_ax2_fused_3) % 8)
                                                        T.reads(W[v1, v2 // 9, v2 // 3 % 3, v2 % 3])
                                                        T.writes(W_f32_reindex_pad_shared[v0, v1, v2])
                                                        W_f32_reindex_pad_shared[v0, v1, v2] = T.if_then_else(v1 < 16 and v2 < 27, T.Cast("float32", W[v1, v2 // 9, v2 // 3 % 3, v2 % 3]), T.float32(0.0))
                                    for ax3_1, ax1_3, ax2_3_0 in T.grid(8, 4, 4):
                                        for ax2_3_1 in T.vectorized(1):
                                            with T.sblock("conv2d_nchw_update"):
                                                v0 = T.axis.spatial(1, 0)
                                                v1 = T.axis.spatial(1024, ax1_0 * 32 + ax1_1 * 32 + ax1_2 * 4 + ax1_3)
                                                v2 = T.axis.spatial(32, ax2_1 * 32 + ax2_2 * 4 + ax2_3_0 + ax2_3_1)
                                                v3 = T.axis.reduce(32, ax3_0 * 8 + ax3_1)
                                                T.reads(conv2d_nchw_reindex_pad_local[0, v1, v2], pad_temp_reindex_pad_shared[0, v1, v3], W_f32_reindex_pad_shared[0, v2, v3])
                                                T.writes(conv2d_nchw_reindex_pad_local[0, v1, v2])
                                                conv2d_nchw_reindex_pad_local[0, v1, v2] = conv2d_nchw_reindex_pad_local[0, v1, v2] + pad_temp_reindex_pad_shared[0, v1, v3] * W_f32_reindex_pad_shared[0, v2, v3]
                                for ax0, ax1, ax2_0 in T.grid(1, 4, 4):
                                    for ax2_1_1 in T.vectorized(1):
                                        with T.sblock("conv2d_nchw_reindex_pad_local"):
                                            v0 = T.axis.spatial(1, ax0)
                                            v1 = T.axis.spatial(1024, ax1_0 * 32 + ax1_2 * 4 + ax1)
                                            v2 = T.axis.spatial(32, ax2_2 * 4 + ax2_0 + ax2_1_1)
                                            T.where(ax2_2 * 4 + ax2_0 + ax2_1_1 < 16)
                                            T.reads(conv2d_nchw_reindex_pad_local[v0, v1, v2], bn_mean[v2], bn_var[v2], bn_gamma[v2], bn_beta[v2])
                                            T.writes(T_relu_bf16[0, v2, v1 // 32, v1 % 32])
                                            T_relu_bf16[0, v2, v1 // 32, v1 % 32] = T.Cast("bfloat16", T.max((conv2d_nchw_reindex_pad_local[v0, v1, v2] - T.Cast("float32", bn_mean[v2])) * T.rsqrt(T.Cast("float32", bn_var[v2]) + T.float32(0.001)) * T.Cast("float32", bn_gamma[v2]) + T.Cast("float32", bn_beta[v2]), T.float32(0.0)))
