# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((197, 192), "float32"), W1: T.Buffer((768, 192), "float32"), b1: T.Buffer((768,), "float32"), W2: T.Buffer((192, 768), "float32"), b2: T.Buffer((192,), "float32"), T_bias2: T.Buffer((197, 192), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_matmul = T.sblock_alloc_buffer((197, 768))
        T_matmul2 = T.sblock_alloc_buffer((197, 192))
        for ax0_ax1_fused_0 in T.thread_binding(591, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_matmul_init"):
                    v0 = T.axis.spatial(197, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 768)
                    v1 = T.axis.spatial(768, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 768)
                    T.reads()
                    T.writes(T_matmul[v0, v1])
                    T_matmul[v0, v1] = T.float32(0.0)
                for ax2 in range(192):
                    with T.sblock("T_matmul_update"):
                        v0 = T.axis.spatial(197, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 768)
                        v1 = T.axis.spatial(768, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 768)
                        v2 = T.axis.reduce(192, ax2)
                        T.reads(T_matmul[v0, v1], X[v0, v2], W1[v1, v2])
                        T.writes(T_matmul[v0, v1])
                        T_matmul[v0, v1] = T_matmul[v0, v1] + X[v0, v2] * W1[v1, v2]
        for ax0_ax1_fused_0 in T.thread_binding(148, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_matmul2_init"):
                    v0 = T.axis.spatial(197, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 192)
                    v1 = T.axis.spatial(192, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 192)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 37824)
                    T.reads()
                    T.writes(T_matmul2[v0, v1])
                    T_matmul2[v0, v1] = T.float32(0.0)
                for ax2 in range(768):
                    with T.sblock("T_matmul2_update"):
                        v0 = T.axis.spatial(197, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 192)
                        v1 = T.axis.spatial(192, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 192)
                        v2 = T.axis.reduce(768, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 37824)
                        T.reads(T_matmul2[v0, v1], T_matmul[v0, v2], b1[v2], W2[v1, v2])
                        T.writes(T_matmul2[v0, v1])
                        T_matmul2[v0, v1] = T_matmul2[v0, v1] + T.float32(0.5) * (T_matmul[v0, v2] + b1[v2]) * (T.float32(1.0) + T.tanh(T.float32(0.79788456080286541) * (T_matmul[v0, v2] + b1[v2] + T.float32(0.044714999999999998) * (T_matmul[v0, v2] + b1[v2]) * (T_matmul[v0, v2] + b1[v2]) * (T_matmul[v0, v2] + b1[v2])))) * W2[v1, v2]
        for ax0_ax1_fused_0 in T.thread_binding(148, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_bias2"):
                    v0 = T.axis.spatial(197, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 192)
                    v1 = T.axis.spatial(192, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 192)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 37824)
                    T.reads(T_matmul2[v0, v1], b2[v1])
                    T.writes(T_bias2[v0, v1])
                    T_bias2[v0, v1] = T_matmul2[v0, v1] + b2[v1]
