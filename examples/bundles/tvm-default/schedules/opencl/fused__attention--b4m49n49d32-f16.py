# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(Q: T.Buffer((4, 49, 32), "float16"), K: T.Buffer((4, 49, 32), "float16"), V: T.Buffer((4, 49, 32), "float16"), T_batch_matmul_NN_f16: T.Buffer((4, 49, 32), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_batch_matmul_NT = T.sblock_alloc_buffer((4, 49, 49))
        T_softmax_maxelem = T.sblock_alloc_buffer((4, 49))
        T_softmax_expsum = T.sblock_alloc_buffer((4, 49))
        T_batch_matmul_NN = T.sblock_alloc_buffer((4, 49, 32))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(38, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_batch_matmul_NT_init"):
                    v0 = T.axis.spatial(4, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 2401)
                    v1 = T.axis.spatial(49, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 2401 // 49)
                    v2 = T.axis.spatial(49, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 49)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 9604)
                    T.reads()
                    T.writes(T_batch_matmul_NT[v0, v1, v2])
                    K_f32 = T.Buffer((4, 49, 32))
                    T.sblock_attr({"layout_free_placeholders": [K_f32]})
                    T_batch_matmul_NT[v0, v1, v2] = T.float32(0.0)
                K_f32 = T.Buffer((4, 49, 32))
                for ax3 in range(32):
                    with T.sblock("T_batch_matmul_NT_update"):
                        v0 = T.axis.spatial(4, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 2401)
                        v1 = T.axis.spatial(49, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 2401 // 49)
                        v2 = T.axis.spatial(49, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 49)
                        v3 = T.axis.reduce(32, ax3)
                        T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 9604)
                        T.reads(T_batch_matmul_NT[v0, v1, v2], Q[v0, v1, v3], K[v0, v2, v3])
                        T.writes(T_batch_matmul_NT[v0, v1, v2])
                        T.sblock_attr({"layout_free_placeholders": [K_f32]})
                        T_batch_matmul_NT[v0, v1, v2] = T_batch_matmul_NT[v0, v1, v2] + T.Cast("float32", Q[v0, v1, v3]) * T.Cast("float32", K[v0, v2, v3])
        for ax0_ax1_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_softmax_maxelem_init"):
                    v0 = T.axis.spatial(4, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 49)
                    v1 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 49)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 196)
                    T.reads()
                    T.writes(T_softmax_maxelem[v0, v1])
                    T_softmax_maxelem[v0, v1] = T.float32(-340282346638528859811704183484516925440.0)
                for ax2 in range(49):
                    with T.sblock("T_softmax_maxelem_update"):
                        v0 = T.axis.spatial(4, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 49)
                        v1 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 49)
                        v2 = T.axis.reduce(49, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 196)
                        T.reads(T_softmax_maxelem[v0, v1], T_batch_matmul_NT[v0, v1, v2])
                        T.writes(T_softmax_maxelem[v0, v1])
                        T_softmax_maxelem[v0, v1] = T.max(T_softmax_maxelem[v0, v1], T_batch_matmul_NT[v0, v1, v2] * T.float32(0.17677669529663687))
        for ax0_ax1_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_softmax_expsum_init"):
                    v0 = T.axis.spatial(4, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 49)
                    v1 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 49)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 196)
                    T.reads()
                    T.writes(T_softmax_expsum[v0, v1])
                    T_softmax_expsum[v0, v1] = T.float32(0.0)
                for ax2 in range(49):
                    with T.sblock("T_softmax_expsum_update"):
                        v0 = T.axis.spatial(4, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 49)
                        v1 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 49)
                        v2 = T.axis.reduce(49, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 196)
                        T.reads(T_softmax_expsum[v0, v1], T_batch_matmul_NT[v0, v1, v2], T_softmax_maxelem[v0, v1])
                        T.writes(T_softmax_expsum[v0, v1])
                        T_softmax_expsum[v0, v1] = T_softmax_expsum[v0, v1] + T.exp(T_batch_matmul_NT[v0, v1, v2] * T.float32(0.17677669529663687) - T_softmax_maxelem[v0, v1])
        for ax0_ax1_ax2_fused_0 in T.thread_binding(25, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_batch_matmul_NN_init"):
                    v0 = T.axis.spatial(4, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 1568)
                    v1 = T.axis.spatial(49, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 1568 // 32)
                    v2 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 6272)
                    T.reads()
                    T.writes(T_batch_matmul_NN[v0, v1, v2])
                    V_f32 = T.Buffer((4, 49, 32))
                    T.sblock_attr({"layout_free_placeholders": [V_f32]})
                    T_batch_matmul_NN[v0, v1, v2] = T.float32(0.0)
                V_f32 = T.Buffer((4, 49, 32))
                for ax3 in range(49):
                    with T.sblock("T_batch_matmul_NN_update"):
                        v0 = T.axis.spatial(4, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 1568)
                        v1 = T.axis.spatial(49, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 1568 // 32)
                        v2 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32)
                        v3 = T.axis.reduce(49, ax3)
                        T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 6272)
                        T.reads(T_batch_matmul_NN[v0, v1, v2], T_batch_matmul_NT[v0, v1, v3], T_softmax_maxelem[v0, v1], T_softmax_expsum[v0, v1], V[v0, v3, v2])
                        T.writes(T_batch_matmul_NN[v0, v1, v2])
                        T.sblock_attr({"layout_free_placeholders": [V_f32]})
                        T_batch_matmul_NN[v0, v1, v2] = T_batch_matmul_NN[v0, v1, v2] + T.exp(T_batch_matmul_NT[v0, v1, v3] * T.float32(0.17677669529663687) - T_softmax_maxelem[v0, v1]) / T_softmax_expsum[v0, v1] * T.Cast("float32", V[v0, v3, v2])
        for ax0_ax1_ax2_fused_0 in T.thread_binding(25, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_batch_matmul_NN_f16"):
                    v0 = T.axis.spatial(4, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 1568)
                    v1 = T.axis.spatial(49, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 1568 // 32)
                    v2 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 6272)
                    T.reads(T_batch_matmul_NN[v0, v1, v2])
                    T.writes(T_batch_matmul_NN_f16[v0, v1, v2])
                    T_batch_matmul_NN_f16[v0, v1, v2] = T.Cast("float16", T_batch_matmul_NN[v0, v1, v2])
