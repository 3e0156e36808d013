# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((128, 256), "float32"), W1: T.Buffer((1024, 256), "float32"), b1: T.Buffer((1024,), "float32"), W2: T.Buffer((256, 1024), "float32"), b2: T.Buffer((256,), "float32"), gamma: T.Buffer((256,), "float32"), beta: T.Buffer((256,), "float32"), T_layer_norm: T.Buffer((128, 256), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_up = T.sblock_alloc_buffer((128, 1024))
        T_down = T.sblock_alloc_buffer((128, 256))
        T_residual_sum = T.sblock_alloc_buffer((128,))
        T_residual_var_sum = T.sblock_alloc_buffer((128,))
        for ax0_ax1_fused_0 in T.thread_binding(512, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_up_init"):
                    v0 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1024)
                    v1 = T.axis.spatial(1024, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1024)
                    T.reads()
                    T.writes(T_up[v0, v1])
                    T_up[v0, v1] = T.float32(0.0)
                for ax2 in range(256):
                    with T.sblock("T_up_update"):
                        v0 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1024)
                        v1 = T.axis.spatial(1024, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1024)
                        v2 = T.axis.reduce(256, ax2)
                        T.reads(T_up[v0, v1], X[v0, v2], W1[v1, v2])
                        T.writes(T_up[v0, v1])
                        T_up[v0, v1] = T_up[v0, v1] + X[v0, v2] * W1[v1, v2]
        for ax0_ax1_fused_0 in T.thread_binding(128, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_down_init"):
                    v0 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 256)
                    v1 = T.axis.spatial(256, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 256)
                    T.reads()
                    T.writes(T_down[v0, v1])
                    T_down[v0, v1] = T.float32(0.0)
                for ax2 in range(1024):
                    with T.sblock("T_down_update"):
                        v0 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 256)
                        v1 = T.axis.spatial(256, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 256)
                        v2 = T.axis.reduce(1024, ax2)
                        T.reads(T_down[v0, v1], T_up[v0, v2], b1[v2], W2[v1, v2])
                        T.writes(T_down[v0, v1])
                        T_down[v0, v1] = T_down[v0, v1] + T.float32(0.5) * (T_up[v0, v2] + b1[v2]) * (T.float32(1.0) + T.tanh(T.float32(0.79788456080286541) * (T_up[v0, v2] + b1[v2] + T.float32(0.044714999999999998) * (T_up[v0, v2] + b1[v2]) * (T_up[v0, v2] + b1[v2]) * (T_up[v0, v2] + b1[v2])))) * W2[v1, v2]
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_residual_sum_init"):
                    v0 = T.axis.spatial(128, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 128)
                    T.reads()
                    T.writes(T_residual_sum[v0])
                    T_residual_sum[v0] = T.float32(0.0)
                for ax1 in range(256):
                    with T.sblock("T_residual_sum_update"):
                        v0 = T.axis.spatial(128, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(256, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 128)
                        T.reads(T_residual_sum[v0], X[v0, v1], T_down[v0, v1], b2[v1])
                        T.writes(T_residual_sum[v0])
                        T_residual_sum[v0] = T_residual_sum[v0] + (X[v0, v1] + T_down[v0, v1] + b2[v1])
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_residual_var_sum_init"):
                    v0 = T.axis.spatial(128, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 128)
                    T.reads()
                    T.writes(T_residual_var_sum[v0])
                    T_residual_var_sum[v0] = T.float32(0.0)
                for ax1 in range(256):
                    with T.sblock("T_residual_var_sum_update"):
                        v0 = T.axis.spatial(128, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(256, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 128)
                        T.reads(T_residual_var_sum[v0], X[v0, v1], T_down[v0, v1], b2[v1], T_residual_sum[v0])
                        T.writes(T_residual_var_sum[v0])
                        T_residual_var_sum[v0] = T_residual_var_sum[v0] + (X[v0, v1] + T_down[v0, v1] + b2[v1] - T_residual_sum[v0] / T.float32(256.0)) * (X[v0, v1] + T_down[v0, v1] + b2[v1] - T_residual_sum[v0] / T.float32(256.0))
        for ax0_ax1_fused_0 in T.thread_binding(128, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_layer_norm"):
                    v0 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 256)
                    v1 = T.axis.spatial(256, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 256)
                    T.reads(X[v0, v1], T_down[v0, v1], b2[v1], T_residual_sum[v0], T_residual_var_sum[v0], gamma[v1], beta[v1])
                    T.writes(T_layer_norm[v0, v1])
                    T_layer_norm[v0, v1] = (X[v0, v1] + T_down[v0, v1] + b2[v1] - T_residual_sum[v0] / T.float32(256.0)) * T.rsqrt(T_residual_var_sum[v0] / T.float32(256.0) + T.float32(1.0000000000000001e-05)) * gamma[v1] + beta[v1]
