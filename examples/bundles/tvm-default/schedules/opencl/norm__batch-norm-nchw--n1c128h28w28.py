# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 128, 28, 28), "float32"), gamma: T.Buffer((128,), "float32"), beta: T.Buffer((128,), "float32"), mean: T.Buffer((128,), "float32"), var: T.Buffer((128,), "float32"), T_batch_norm: T.Buffer((1, 128, 28, 28), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(392, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_batch_norm"):
                    v0 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                    v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                    v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                    T.reads(X[0, v0, v1, v2], mean[v0], var[v0], gamma[v0], beta[v0])
                    T.writes(T_batch_norm[0, v0, v1, v2])
                    T_batch_norm[0, v0, v1, v2] = (X[0, v0, v1, v2] - mean[v0]) * T.rsqrt(var[v0] + T.float32(1.0000000000000001e-05)) * gamma[v0] + beta[v0]
