# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(Q: T.Buffer((12, 128, 64), "float16"), K: T.Buffer((12, 128, 64), "float16"), V: T.Buffer((12, 128, 64), "float16"), T_batch_matmul_NN_f16: T.Buffer((12, 128, 64), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_batch_matmul_NT = T.sblock_alloc_buffer((12, 128, 128))
        T_softmax_maxelem = T.sblock_alloc_buffer((12, 128))
        T_softmax_expsum = T.sblock_alloc_buffer((12, 128))
        T_batch_matmul_NN = T.sblock_alloc_buffer((12, 128, 64))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(768, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_batch_matmul_NT_init"):
                    v0 = T.axis.spatial(12, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 16384)
                    v1 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 16384 // 128)
                    v2 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 128)
                    T.reads()
                    T.writes(T_batch_matmul_NT[v0, v1, v2])
                    K_f32 = T.Buffer((12, 128, 64))
                    T.sblock_attr({"layout_free_placeholders": [K_f32]})
                    T_batch_matmul_NT[v0, v1, v2] = T.float32(0.0)
                K_f32 = T.Buffer((12, 128, 64))
                for ax3 in range(64):
                    with T.sblock("T_batch_matmul_NT_update"):
                        v0 = T.axis.spatial(12, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 16384)
                        v1 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 16384 // 128)
                        v2 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 128)
                        v3 = T.axis.reduce(64, ax3)
                        T.reads(T_batch_matmul_NT[v0, v1, v2], Q[v0, v1, v3], K[v0, v2, v3])
                        T.writes(T_batch_matmul_NT[v0, v1, v2])
                        T.sblock_attr({"layout_free_placeholders": [K_f32]})
                        T_batch_matmul_NT[v0, v1, v2] = T_batch_matmul_NT[v0, v1, v2] + T.Cast("float32", Q[v0, v1, v3]) * T.Cast("float32", K[v0, v2, v3])
        for ax0_ax1_fused_0 in T.thread_binding(6, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_softmax_maxelem_init"):
                    v0 = T.axis.spatial(12, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                    v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                    T.reads()
                    T.writes(T_softmax_maxelem[v0, v1])
                    T_softmax_maxelem[v0, v1] = T.float32(-340282346638528859811704183484516925440.0)
                for ax2 in range(128):
                    with T.sblock("T_softmax_maxelem_update"):
                        v0 = T.axis.spatial(12, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                        v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                        v2 = T.axis.reduce(128, ax2)
                        T.reads(T_softmax_maxelem[v0, v1], T_batch_matmul_NT[v0, v1, v2])
                        T.writes(T_softmax_maxelem[v0, v1])
                        T_softmax_maxelem[v0, v1] = T.max(T_softmax_maxelem[v0, v1], T_batch_matmul_NT[v0, v1, v2] * T.float32(0.125))
        for ax0_ax1_fused_0 in T.thread_binding(6, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_softmax_expsum_init"):
                    v0 = T.axis.spatial(12, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                    v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                    T.reads()
                    T.writes(T_softmax_expsum[v0, v1])
                    T_softmax_expsum[v0, v1] = T.float32(0.0)
                for ax2 in range(128):
                    with T.sblock("T_softmax_expsum_update"):
                        v0 = T.axis.spatial(12, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                        v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                        v2 = T.axis.reduce(128, ax2)
                        T.reads(T_softmax_expsum[v0, v1], T_batch_matmul_NT[v0, v1, v2], T_softmax_maxelem[v0, v1])
                        T.writes(T_softmax_expsum[v0, v1])
                        T_softmax_expsum[v0, v1] = T_softmax_expsum[v0, v1] + T.exp(T_batch_matmul_NT[v0, v1, v2] * T.float32(0.125) - T_softmax_maxelem[v0, v1])
        for ax0_ax1_ax2_fused_0 in T.thread_binding(384, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_batch_matmul_NN_init"):
                    v0 = T.axis.spatial(12, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 8192)
                    v1 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 8192 // 64)
                    v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                    T.reads()
                    T.writes(T_batch_matmul_NN[v0, v1, v2])
                    V_f32 = T.Buffer((12, 128, 64))
                    T.sblock_attr({"layout_free_placeholders": [V_f32]})
                    T_batch_matmul_NN[v0, v1, v2] = T.float32(0.0)
                V_f32 = T.Buffer((12, 128, 64))
                for ax3 in range(128):
                    with T.sblock("T_batch_matmul_NN_update"):
                        v0 = T.axis.spatial(12, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 8192)
                        v1 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 8192 // 64)
                        v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                        v3 = T.axis.reduce(128, ax3)
                        T.reads(T_batch_matmul_NN[v0, v1, v2], T_batch_matmul_NT[v0, v1, v3], T_softmax_maxelem[v0, v1], T_softmax_expsum[v0, v1], V[v0, v3, v2])
                        T.writes(T_batch_matmul_NN[v0, v1, v2])
                        T.sblock_attr({"layout_free_placeholders": [V_f32]})
                        T_batch_matmul_NN[v0, v1, v2] = T_batch_matmul_NN[v0, v1, v2] + T.exp(T_batch_matmul_NT[v0, v1, v3] * T.float32(0.125) - T_softmax_maxelem[v0, v1]) / T_softmax_expsum[v0, v1] * T.Cast("float32", V[v0, v3, v2])
        for ax0_ax1_ax2_fused_0 in T.thread_binding(384, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_batch_matmul_NN_f16"):
                    v0 = T.axis.spatial(12, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 8192)
                    v1 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 8192 // 64)
                    v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                    T.reads(T_batch_matmul_NN[v0, v1, v2])
                    T.writes(T_batch_matmul_NN_f16[v0, v1, v2])
                    T_batch_matmul_NN_f16[v0, v1, v2] = T.Cast("float16", T_batch_matmul_NN[v0, v1, v2])
