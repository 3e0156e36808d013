# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((128, 256), "float16"), W: T.Buffer((768, 256), "float16"), b: T.Buffer((768,), "float16"), T_q_f16: T.Buffer((4, 128, 64), "float16"), T_k_f16: T.Buffer((4, 128, 64), "float16"), T_v_f16: T.Buffer((4, 128, 64), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_matmul = T.sblock_alloc_buffer((128, 768))
        for ax0_ax1_fused_0 in T.thread_binding(384, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_matmul_init"):
                    v0 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 768)
                    v1 = T.axis.spatial(768, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 768)
                    T.reads()
                    T.writes(T_matmul[v0, v1])
                    T_matmul[v0, v1] = T.float32(0.0)
                for ax2 in range(256):
                    with T.sblock("T_matmul_update"):
                        v0 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 768)
                        v1 = T.axis.spatial(768, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 768)
                        v2 = T.axis.reduce(256, ax2)
                        T.reads(T_matmul[v0, v1], X[v0, v2], W[v1, v2])
                        T.writes(T_matmul[v0, v1])
                        T_matmul[v0, v1] = T_matmul[v0, v1] + T.Cast("float32", X[v0, v2]) * T.Cast("float32", W[v1, v2])
        for ax0_ax1_ax2_fused_0 in T.thread_binding(128, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_q_f16"):
                    v0 = T.axis.spatial(4, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 8192)
                    v1 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 8192 // 64)
                    v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                    T.reads(T_matmul[v1, v0 * 64 + v2], b[v0 * 64 + v2])
                    T.writes(T_q_f16[v0, v1, v2])
                    T_q_f16[v0, v1, v2] = T.Cast("float16", T_matmul[v1, v0 * 64 + v2] + T.Cast("float32", b[v0 * 64 + v2]))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(128, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_k_f16"):
                    v0 = T.axis.spatial(4, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 8192)
                    v1 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 8192 // 64)
                    v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                    T.reads(T_matmul[v1, v0 * 64 + v2 + 256], b[v0 * 64 + v2 + 256])
                    T.writes(T_k_f16[v0, v1, v2])
                    T_k_f16[v0, v1, v2] = T.Cast("float16", T_matmul[v1, v0 * 64 + v2 + 256] + T.Cast("float32", b[v0 * 64 + v2 + 256]))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(128, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_v_f16"):
                    v0 = T.axis.spatial(4, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 8192)
                    v1 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 8192 // 64)
                    v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                    T.reads(T_matmul[v1, v0 * 64 + v2 + 512], b[v0 * 64 + v2 + 512])
                    T.writes(T_v_f16[v0, v1, v2])
                    T_v_f16[v0, v1, v2] = T.Cast("float16", T_matmul[v1, v0 * 64 + v2 + 512] + T.Cast("float32", b[v0 * 64 + v2 + 512]))
