# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((32, 128), "float32"), gamma: T.Buffer((128,), "float32"), beta: T.Buffer((128,), "float32"), mean: T.Buffer((128,), "float32"), var: T.Buffer((128,), "float32"), T_batch_norm: T.Buffer((32, 128), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_batch_norm"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                    v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                    T.reads(X[v0, v1], mean[v1], var[v1], gamma[v1], beta[v1])
                    T.writes(T_batch_norm[v0, v1])
                    T_batch_norm[v0, v1] = (X[v0, v1] - mean[v1]) * T.rsqrt(var[v1] + T.float32(1.0000000000000001e-05)) * gamma[v1] + beta[v1]
