# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((64, 479), "float32"), W1: T.Buffer((256, 479), "float32"), b1: T.Buffer((256,), "float32"), W2: T.Buffer((64, 256), "float32"), b2: T.Buffer((64,), "float32"), T_bias2: T.Buffer((64, 64), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_matmul = T.sblock_alloc_buffer((64, 256))
        T_matmul2 = T.sblock_alloc_buffer((64, 64))
        for ax0_ax1_fused_0 in T.thread_binding(64, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_matmul_init"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 256)
                    v1 = T.axis.spatial(256, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 256)
                    T.reads()
                    T.writes(T_matmul[v0, v1])
                    T_matmul[v0, v1] = T.float32(0.0)
                for ax2 in range(479):
                    with T.sblock("T_matmul_update"):
                        v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 256)
                        v1 = T.axis.spatial(256, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 256)
                        v2 = T.axis.reduce(479, ax2)
                        T.reads(T_matmul[v0, v1], X[v0, v2], W1[v1, v2])
                        T.writes(T_matmul[v0, v1])
                        T_matmul[v0, v1] = T_matmul[v0, v1] + X[v0, v2] * W1[v1, v2]
        for ax0_ax1_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_matmul2_init"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 64)
                    v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 64)
                    T.reads()
                    T.writes(T_matmul2[v0, v1])
                    T_matmul2[v0, v1] = T.float32(0.0)
                for ax2 in range(256):
                    with T.sblock("T_matmul2_update"):
                        v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 64)
                        v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 64)
                        v2 = T.axis.reduce(256, ax2)
                        T.reads(T_matmul2[v0, v1], T_matmul[v0, v2], b1[v2], W2[v1, v2])
                        T.writes(T_matmul2[v0, v1])
                        T_matmul2[v0, v1] = T_matmul2[v0, v1] + T.max(T_matmul[v0, v2] + b1[v2], T.float32(0.0)) * W2[v1, v2]
        for ax0_ax1_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_bias2"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 64)
                    v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 64)
                    T.reads(T_matmul2[v0, v1], b2[v1])
                    T.writes(T_bias2[v0, v1])
                    T_bias2[v0, v1] = T_matmul2[v0, v1] + b2[v1]
