# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((64, 128), "float32"), W1: T.Buffer((512, 128), "float32"), b1: T.Buffer((512,), "float32"), W2: T.Buffer((128, 512), "float32"), b2: T.Buffer((128,), "float32"), T_bias2: T.Buffer((64, 128), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_matmul = T.sblock_alloc_buffer((64, 512))
        T_matmul2 = T.sblock_alloc_buffer((64, 128))
        for ax0_ax1_fused_0 in T.thread_binding(128, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_matmul_init"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 512)
                    v1 = T.axis.spatial(512, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 512)
                    T.reads()
                    T.writes(T_matmul[v0, v1])
                    T_matmul[v0, v1] = T.float32(0.0)
                for ax2 in range(128):
                    with T.sblock("T_matmul_update"):
                        v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 512)
                        v1 = T.axis.spatial(512, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 512)
                        v2 = T.axis.reduce(128, ax2)
                        T.reads(T_matmul[v0, v1], X[v0, v2], W1[v1, v2])
                        T.writes(T_matmul[v0, v1])
                        T_matmul[v0, v1] = T_matmul[v0, v1] + X[v0, v2] * W1[v1, v2]
        for ax0_ax1_fused_0 in T.thread_binding(32, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_matmul2_init"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                    v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                    T.reads()
                    T.writes(T_matmul2[v0, v1])
                    T_matmul2[v0, v1] = T.float32(0.0)
                for ax2 in range(512):
                    with T.sblock("T_matmul2_update"):
                        v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                        v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                        v2 = T.axis.reduce(512, ax2)
                        T.reads(T_matmul2[v0, v1], T_matmul[v0, v2], b1[v2], W2[v1, v2])
                        T.writes(T_matmul2[v0, v1])
                        T_matmul2[v0, v1] = T_matmul2[v0, v1] + T.max(T_matmul[v0, v2] + b1[v2], T.float32(0.0)) * W2[v1, v2]
        for ax0_ax1_fused_0 in T.thread_binding(32, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_bias2"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                    v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                    T.reads(T_matmul2[v0, v1], b2[v1])
                    T.writes(T_bias2[v0, v1])
                    T_bias2[v0, v1] = T_matmul2[v0, v1] + b2[v1]
