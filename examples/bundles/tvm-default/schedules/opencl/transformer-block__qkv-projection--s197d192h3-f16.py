# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((197, 192), "float16"), W: T.Buffer((576, 192), "float16"), b: T.Buffer((576,), "float16"), T_q_f16: T.Buffer((3, 197, 64), "float16"), T_k_f16: T.Buffer((3, 197, 64), "float16"), T_v_f16: T.Buffer((3, 197, 64), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_matmul = T.sblock_alloc_buffer((197, 576))
        for ax0_ax1_fused_0 in T.thread_binding(444, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_matmul_init"):
                    v0 = T.axis.spatial(197, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 576)
                    v1 = T.axis.spatial(576, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 576)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 113472)
                    T.reads()
                    T.writes(T_matmul[v0, v1])
                    T_matmul[v0, v1] = T.float32(0.0)
                for ax2 in range(192):
                    with T.sblock("T_matmul_update"):
                        v0 = T.axis.spatial(197, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 576)
                        v1 = T.axis.spatial(576, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 576)
                        v2 = T.axis.reduce(192, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 113472)
                        T.reads(T_matmul[v0, v1], X[v0, v2], W[v1, v2])
                        T.writes(T_matmul[v0, v1])
                        T_matmul[v0, v1] = T_matmul[v0, v1] + T.Cast("float32", X[v0, v2]) * T.Cast("float32", W[v1, v2])
        for ax0_ax1_ax2_fused_0 in T.thread_binding(148, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_q_f16"):
                    v0 = T.axis.spatial(3, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 12608)
                    v1 = T.axis.spatial(197, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 12608 // 64)
                    v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 37824)
                    T.reads(T_matmul[v1, v0 * 64 + v2], b[v0 * 64 + v2])
                    T.writes(T_q_f16[v0, v1, v2])
                    T_q_f16[v0, v1, v2] = T.Cast("float16", T_matmul[v1, v0 * 64 + v2] + T.Cast("float32", b[v0 * 64 + v2]))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(148, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_k_f16"):
                    v0 = T.axis.spatial(3, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 12608)
                    v1 = T.axis.spatial(197, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 12608 // 64)
                    v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 37824)
                    T.reads(T_matmul[v1, v0 * 64 + v2 + 192], b[v0 * 64 + v2 + 192])
                    T.writes(T_k_f16[v0, v1, v2])
                    T_k_f16[v0, v1, v2] = T.Cast("float16", T_matmul[v1, v0 * 64 + v2 + 192] + T.Cast("float32", b[v0 * 64 + v2 + 192]))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(148, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_v_f16"):
                    v0 = T.axis.spatial(3, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 12608)
                    v1 = T.axis.spatial(197, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 12608 // 64)
                    v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 37824)
                    T.reads(T_matmul[v1, v0 * 64 + v2 + 384], b[v0 * 64 + v2 + 384])
                    T.writes(T_v_f16[v0, v1, v2])
                    T_v_f16[v0, v1, v2] = T.Cast("float16", T_matmul[v1, v0 * 64 + v2 + 384] + T.Cast("float32", b[v0 * 64 + v2 + 384]))
