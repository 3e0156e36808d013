# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 224, 224, 3), "float32"), W: T.Buffer((7, 7, 3, 64), "float32"), bias: T.Buffer((64,), "float32"), bn_offset: T.Buffer((64,), "float32"), bn_scale: T.Buffer((64,), "float32"), T_bias_bn_relu: T.Buffer((1, 112, 112, 64), "float32")):
        T.func_attr({"layout_free_buffers": [1], "tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        conv2d_nhwc_reindex_local = T.sblock_alloc_buffer((1, 12544, 64), scope="local")
        pad_temp_reindex_pad_shared = T.sblock_alloc_buffer((1, 12544, 152), scope="shared")
        W_reindex_pad_shared = T.sblock_alloc_buffer((1, 64, 152), scope="shared")
        for ax0_ax2_0_fused in T.thread_binding(2, thread="blockIdx.y"):
            for ax1_0 in T.thread_binding(392, thread="blockIdx.x"):
                for ax2_1 in T.thread_binding(1, thread="vthread.y"):
                    for ax1_1 in T.thread_binding(1, thread="vthread.x"):
                        for ax2_2 in T.thread_binding(8, thread="threadIdx.y"):
                            for ax1_2 in T.thread_binding(8, thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                                for ax1_3_init, ax2_3_0_init in T.grid(4, 4):
                                    for ax2_3_1_init in T.vectorized(1):
                                        with T.sblock("conv2d_nhwc_init"):
                                            v0 = T.axis.spatial(1, 0)
                                            v1 = T.axis.spatial(12544, ax1_0 * 32 + ax1_1 * 32 + ax1_2 * 4 + ax1_3_init)
                                            v2 = T.axis.spatial(64, ax0_ax2_0_fused * 32 + ax2_1 * 32 + ax2_2 * 4 + ax2_3_0_init + ax2_3_1_init)
                                            T.reads()
                                            T.writes(conv2d_nhwc_reindex_local[0, v1, v2])
                                            conv2d_nhwc_reindex_local[0, v1, v2] = T.float32(0.0)
                                for ax3_0 in range(19):
                                    for ax0_ax1_ax2_fused_0 in T.thread_binding(8, thread="threadIdx.y"):
                                        for ax0_ax1_ax2_fused_1 in T.thread_binding(8, thread="threadIdx.x"):
                                            for ax0_ax1_ax2_fused_2 in range(4):
                                                for ax0_ax1_ax2_fused_3 in T.vectorized(1):
                                                    with T.sblock("pad_temp_reindex_pad_shared"):
                                                        v0 = T.axis.spatial(1, 0)
                                                        v1 = T.axis.spatial(12544, ax1_0 * 32 + (ax0_ax1_ax2_fused_0 * 32 + ax0_ax1_ax2_fused_1 * 4 + ax0_ax1_ax2_fused_2 + ax0_ax1_ax2_fused_3) // 8)
                                                        v2 = T.axis.spatial(152, ax3_0 * 8 + (ax0_ax1_ax2_fused_0 * 32 + ax0_ax1_ax2_fused_1 * 4 + ax0_ax1_ax2_fused_2 + ax0_ax1_ax2_fused_3) % 8)
                                                        T.reads(X[0, v1 // 112 * 2 + v2 // 21 - 3, v1 % 112 * 2 + v2 // 3 % 7 - 3, v2 % 3])
                                                        T.writes(pad_temp_reindex_pad_shared[v0, v1, v2])
                                                        pad_temp_reindex_pad_shared[v0, v1, v2] = T.if_then_else(v2 < 147, T.if_then_else(3 <= v1 // 112 * 2 + v2 // 21 and v1 // 112 * 2 + v2 // 21 < 227 and 3 <= v1 % 112 * 2 + v2 // 3 % 7 and v1 % 112 * 2 + v2 // 3 % 7 < 227, X[0, v1 // 112 * 2 + v2 // 21 - 3, v1 % 112 * 2 + v2 // 3 % 7 - 3, v2 % 3], T.float32(0.0)), T.float32(0.0))
                                    for ax0_ax1_ax2_fused_0 in T.thread_binding(8, thread="threadIdx.y"):
                                        for ax0_ax1_ax2_fused_1 in T.thread_binding(8, thread="threadIdx.x"):
                                            for ax0_ax1_ax2_fused_2 in range(4):
                                                for ax0_ax1_ax2_fused_3 in T.vectorized(1):
                                                    with T.sblock("W_reindex_pad_shared"):
                                                        v0 = T.axis.spatial(1, 0)
                                                        v1 = T.axis.spatial(64, ax0_ax2_0_fused * 32 + (ax0_ax1_ax2_fused_0 * 32 + ax0_ax1_ax2_fused_1 * 4 + ax0_ax1_ax2_fused_2 + ax0_ax1_ax2_fused_3) // 8)
                                                        v2 = T.axis.spatial(152, ax3_0 * 8 + (ax0_ax1_ax2_fused_0 * 32 + ax0_ax1_ax2_fused_1 * 4 + ax0_ax1_ax2_fused_2 + ax0_ax1_ax2_fused_3) % 8)
                                                        T.reads(W[v2 // 21, v2 // 3 % 7, v2 % 3, v1])
                                                        T.writes(W_reindex_pad_shared[v0, v1, v2])
                                                        W_reindex_pad_shared[v0, v1, v2] = T.if_then_else(v2 < 147, W[v2 // 21, v2 // 3 % 7, v2 % 3, v1], T.float32(0.0))
                                    for ax3_1, ax1_3, ax2_3_0 in T.grid(8, 4, 4):
                                        for ax2_3_1 in T.vectorized(1):
                                            with T.sblock("conv2d_nhwc_update"):
                                                v0 = T.axis.spatial(1, 0)
                                                v1 = T.axis.spatial(12544, ax1_0 * 32 + ax1_1 * 32 + ax1_2 * 4 + ax1_3)
                                                v2 = T.axis.spatial(64, ax0_ax2_0_fused * 32 + ax2_1 * 32 + ax2_2 * 4 + ax2_3_0 + ax2_3_1)
                                                v3 = T.axis.reduce(152, ax3_0 * 8 + ax3_1)
                                                T.reads(conv2d_nhwc_reindex_local[0, v1, v2], pad_temp_reindex_pad_shared[0, v1, v3], W_reindex_pad_shared[0, v2, v3])
                                                T.writes(conv2d_nhwc_reindex_local[0, v1, v2])
                                                conv2d_nhwc_reindex_local[0, v1, v2] = conv2d_nhwc_reindex_local[0, v1, v2] + pad_temp_reindex_pad_shared[0, v1, v3] * W_reindex_pad_shared[0, v2, v3]
                                for ax0, ax1, ax2_0 in T.grid(1, 4, 4):
                                    for ax2_1_1 in T.vectorized(1):
                                        with T.sblock("conv2d_nhwc_reindex_local"):
                                            v0 = T.axis.spatial(1, ax0)
                                            v1 = T.axis.spatial(12544, ax1_0 * 32 + ax1_2 * 4 + ax1)
                                            v2 = T.axis.spatial(64, ax0_ax2_0_fused * 32 + ax2_2 * 4 + ax2_0 + ax2_1_1)
                                            T.reads(conv2d_nhwc_reindex_local[v0, v1, v2], bias[v2], bn_scale[v2], bn_offset[v2])
                                            T.writes(T_bias_bn_relu[0, v1 // 112, v1 % 112, v2])
                                            T_bias_bn_relu[0, v1 // 112, v1 % 112, v2] = T.max((conv2d_nhwc_reindex_local[v0, v1, v2] + bias[v2]) * bn_scale[v2] + bn_offset[v2], T.float32(0.0))
