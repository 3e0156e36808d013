# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((16, 4096), "float16"), residual: T.Buffer((16, 4096), "float16"), gamma: T.Buffer((4096,), "float16"), T_rms_norm_f16: T.Buffer((16, 4096), "float16"), T_residual: T.Buffer((16, 4096), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_sq_sum = T.sblock_alloc_buffer((16,))
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_sq_sum_init"):
                    v0 = T.axis.spatial(16, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 16)
                    T.reads()
                    T.writes(T_sq_sum[v0])
                    T_sq_sum[v0] = T.float32(0.0)
                for ax1 in range(4096):
                    with T.sblock("T_sq_sum_update"):
                        v0 = T.axis.spatial(16, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(4096, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 16)
                        T.reads(T_sq_sum[v0], x[v0, v1], residual[v0, v1])
                        T.writes(T_sq_sum[v0])
                        T_sq_sum[v0] = T_sq_sum[v0] + (T.Cast("float32", x[v0, v1]) + T.Cast("float32", residual[v0, v1])) * (T.Cast("float32", x[v0, v1]) + T.Cast("float32", residual[v0, v1]))
        for ax0_ax1_fused_0 in T.thread_binding(256, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_rms_norm_f16"):
                    v0 = T.axis.spatial(16, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 4096)
                    v1 = T.axis.spatial(4096, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 4096)
                    T.reads(x[v0, v1], residual[v0, v1], T_sq_sum[v0], gamma[v1])
                    T.writes(T_rms_norm_f16[v0, v1])
                    T_rms_norm_f16[v0, v1] = T.Cast("float16", (T.Cast("float32", x[v0, v1]) + T.Cast("float32", residual[v0, v1])) * T.rsqrt(T_sq_sum[v0] / T.float32(4096.0) + T.float32(9.9999999999999995e-07)) * T.Cast("float32", gamma[v1]))
        for ax0_ax1_fused_0 in T.thread_binding(256, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_residual"):
                    v0 = T.axis.spatial(16, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 4096)
                    v1 = T.axis.spatial(4096, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 4096)
                    T.reads(x[v0, v1], residual[v0, v1])
                    T.writes(T_residual[v0, v1])
                    T_residual[v0, v1] = T.Cast("float16", T.Cast("float32", x[v0, v1]) + T.Cast("float32", residual[v0, v1]))
