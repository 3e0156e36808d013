# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((4, 64, 14, 14), "float32"), gamma: T.Buffer((64,), "float32"), beta: T.Buffer((64,), "float32"), T_batch_norm: T.Buffer((4, 64, 14, 14), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_sum_shared = T.sblock_alloc_buffer((64,), scope="shared")
        T_sq_dev_shared = T.sblock_alloc_buffer((64,), scope="shared")
        for ax1_fused in T.thread_binding(64, thread="blockIdx.x"):
            for ax0 in range(1):
                for ax1_ax2_ax3_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_ax2_ax3_fused_0 in T.serial(4, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_sum"):
                            v0 = T.axis.spatial(64, ax1_fused + ax0)
                            v1 = T.axis.reduce(4, (ax1_ax2_ax3_fused_0 * 256 + ax1_ax2_ax3_fused_1) // 196)
                            v2 = T.axis.reduce(14, (ax1_ax2_ax3_fused_0 * 256 + ax1_ax2_ax3_fused_1) % 196 // 14)
                            v3 = T.axis.reduce(14, (ax1_ax2_ax3_fused_0 * 256 + ax1_ax2_ax3_fused_1) % 14)
                            T.where(ax1_ax2_ax3_fused_0 * 256 + ax1_ax2_ax3_fused_1 < 784)
                            T.reads(X[v1, v0, v2, v3])
                            T.writes(T_sum_shared[v0])
                            with T.init():
                                T_sum_shared[v0] = T.float32(0.0)
                            T_sum_shared[v0] = T_sum_shared[v0] + X[v1, v0, v2, v3]
            for ax0 in range(1):
                for ax1_ax2_ax3_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_ax2_ax3_fused_0 in T.serial(4, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_sq_dev"):
                            v0 = T.axis.spatial(64, ax1_fused + ax0)
                            v1 = T.axis.reduce(4, (ax1_ax2_ax3_fused_0 * 256 + ax1_ax2_ax3_fused_1) // 196)
                            v2 = T.axis.reduce(14, (ax1_ax2_ax3_fused_0 * 256 + ax1_ax2_ax3_fused_1) % 196 // 14)
                            v3 = T.axis.reduce(14, (ax1_ax2_ax3_fused_0 * 256 + ax1_ax2_ax3_fused_1) % 14)
                            T.where(ax1_ax2_ax3_fused_0 * 256 + ax1_ax2_ax3_fused_1 < 784)
                            T.reads(X[v1, v0, v2, v3], T_sum_shared[v0])
                            T.writes(T_sq_dev_shared[v0])
                            with T.init():
                                T_sq_dev_shared[v0] = T.float32(0.0)
                            T_sq_dev_shared[v0] = T_sq_dev_shared[v0] + (X[v1, v0, v2, v3] - T_sum_shared[v0] / T.float32(784.0)) * (X[v1, v0, v2, v3] - T_sum_shared[v0] / T.float32(784.0))
            for ax0, ax2 in T.grid(4, 14):
                for ax3_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax3_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_batch_norm"):
                            v0, v1, v2 = T.axis.remap("SSS", [ax0, ax1_fused, ax2])
                            v3 = T.axis.spatial(14, ax3_0 * 256 + ax3_1)
                            T.where(ax3_0 * 256 + ax3_1 < 14)
                            T.reads(X[v0, v1, v2, v3], T_sum_shared[v1], T_sq_dev_shared[v1], gamma[v1], beta[v1])
                            T.writes(T_batch_norm[v0, v1, v2, v3])
                            T_batch_norm[v0, v1, v2, v3] = (X[v0, v1, v2, v3] - T_sum_shared[v1] / T.float32(784.0)) * T.rsqrt(T_sq_dev_shared[v1] / T.float32(784.0) + T.float32(1.0000000000000001e-05)) * gamma[v1] + beta[v1]
