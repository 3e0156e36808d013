# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((32, 288), "float32"), g: T.Buffer((288,), "float32"), W1: T.Buffer((768, 288), "float32"), W3: T.Buffer((768, 288), "float32"), W2: T.Buffer((288, 768), "float32"), T_residual: T.Buffer((32, 288), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_sq_sum = T.sblock_alloc_buffer((32,))
        T_gate = T.sblock_alloc_buffer((32, 768))
        T_up = T.sblock_alloc_buffer((32, 768))
        T_down = T.sblock_alloc_buffer((32, 288))
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_sq_sum_init"):
                    v0 = T.axis.spatial(32, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 32)
                    T.reads()
                    T.writes(T_sq_sum[v0])
                    T_sq_sum[v0] = T.float32(0.0)
                for ax1 in range(288):
                    with T.sblock("T_sq_sum_update"):
                        v0 = T.axis.spatial(32, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(288, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 32)
                        T.reads(T_sq_sum[v0], X[v0, v1])
                        T.writes(T_sq_sum[v0])
                        T_sq_sum[v0] = T_sq_sum[v0] + X[v0, v1] * X[v0, v1]
        for ax0_ax1_fused_0 in T.thread_binding(96, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_gate_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 768)
                    v1 = T.axis.spatial(768, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 768)
                    T.reads()
                    T.writes(T_gate[v0, v1])
                    T_gate[v0, v1] = T.float32(0.0)
                for ax2 in range(288):
                    with T.sblock("T_gate_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 768)
                        v1 = T.axis.spatial(768, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 768)
                        v2 = T.axis.reduce(288, ax2)
                        T.reads(T_gate[v0, v1], X[v0, v2], T_sq_sum[v0], g[v2], W1[v1, v2])
                        T.writes(T_gate[v0, v1])
                        T_gate[v0, v1] = T_gate[v0, v1] + X[v0, v2] * T.rsqrt(T_sq_sum[v0] / T.float32(288.0) + T.float32(1.0000000000000001e-05)) * g[v2] * W1[v1, v2]
        for ax0_ax1_fused_0 in T.thread_binding(96, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_up_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 768)
                    v1 = T.axis.spatial(768, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 768)
                    T.reads()
                    T.writes(T_up[v0, v1])
                    T_up[v0, v1] = T.float32(0.0)
                for ax2 in range(288):
                    with T.sblock("T_up_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 768)
                        v1 = T.axis.spatial(768, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 768)
                        v2 = T.axis.reduce(288, ax2)
                        T.reads(T_up[v0, v1], X[v0, v2], T_sq_sum[v0], g[v2], W3[v1, v2])
                        T.writes(T_up[v0, v1])
                        T_up[v0, v1] = T_up[v0, v1] + X[v0, v2] * T.rsqrt(T_sq_sum[v0] / T.float32(288.0) + T.float32(1.0000000000000001e-05)) * g[v2] * W3[v1, v2]
        for ax0_ax1_fused_0 in T.thread_binding(36, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_down_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 288)
                    v1 = T.axis.spatial(288, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 288)
                    T.reads()
                    T.writes(T_down[v0, v1])
                    T_down[v0, v1] = T.float32(0.0)
                for ax2 in range(768):
                    with T.sblock("T_down_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 288)
                        v1 = T.axis.spatial(288, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 288)
                        v2 = T.axis.reduce(768, ax2)
                        T.reads(T_down[v0, v1], T_gate[v0, v2], T_up[v0, v2], W2[v1, v2])
                        T.writes(T_down[v0, v1])
                        T_down[v0, v1] = T_down[v0, v1] + T_gate[v0, v2] * (T.float32(1.0) / (T.float32(1.0) + T.exp(T_gate[v0, v2] * T.float32(-1.0)))) * T_up[v0, v2] * W2[v1, v2]
        for ax0_ax1_fused_0 in T.thread_binding(36, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_residual"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 288)
                    v1 = T.axis.spatial(288, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 288)
                    T.reads(X[v0, v1], T_down[v0, v1])
                    T.writes(T_residual[v0, v1])
                    T_residual[v0, v1] = X[v0, v1] + T_down[v0, v1]
