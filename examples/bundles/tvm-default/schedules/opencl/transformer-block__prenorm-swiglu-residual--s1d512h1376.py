# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 512), "float32"), g: T.Buffer((512,), "float32"), W1: T.Buffer((1376, 512), "float32"), W3: T.Buffer((1376, 512), "float32"), W2: T.Buffer((512, 1376), "float32"), T_residual: T.Buffer((1, 512), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_sq_sum_shared = T.sblock_alloc_buffer((1,), scope="shared")
        T_gate_shared = T.sblock_alloc_buffer((1, 1376), scope="shared")
        T_up_shared = T.sblock_alloc_buffer((1, 1376), scope="shared")
        T_down_shared = T.sblock_alloc_buffer((1, 512), scope="shared")
        for ax0_fused in T.thread_binding(T.int64(1), thread="blockIdx.x"):
            for ax0 in range(T.int64(1)):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(2, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_sq_sum"):
                            v0 = T.axis.spatial(T.int64(1), ax0)
                            v1 = T.axis.reduce(512, ax1_fused_0 * 256 + ax1_fused_1)
                            T.reads(X[0, v1])
                            T.writes(T_sq_sum_shared[0])
                            with T.init():
                                T_sq_sum_shared[0] = T.float32(0.0)
                            T_sq_sum_shared[0] = T_sq_sum_shared[0] + X[0, v1] * X[0, v1]
            for ax0 in range(1376):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(2, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_up"):
                            v0 = T.axis.spatial(1376, ax0)
                            v1 = T.axis.reduce(512, ax1_fused_0 * 256 + ax1_fused_1)
                            T.reads(X[0, v1], T_sq_sum_shared[0], g[v1], W3[v0, v1])
                            T.writes(T_up_shared[0, v0])
                            with T.init():
                                T_up_shared[0, v0] = T.float32(0.0)
                            T_up_shared[0, v0] = T_up_shared[0, v0] + X[0, v1] * T.rsqrt(T_sq_sum_shared[0] / T.float32(512.0) + T.float32(1.0000000000000001e-05)) * g[v1] * W3[v0, v1]
            for ax0 in range(1376):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(2, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_gate"):
                            v0 = T.axis.spatial(1376, ax0)
                            v1 = T.axis.reduce(512, ax1_fused_0 * 256 + ax1_fused_1)
                            T.reads(X[0, v1], T_sq_sum_shared[0], g[v1], W1[v0, v1])
                            T.writes(T_gate_shared[0, v0])
                            with T.init():
                                T_gate_shared[0, v0] = T.float32(0.0)
                            T_gate_shared[0, v0] = T_gate_shared[0, v0] + X[0, v1] * T.rsqrt(T_sq_sum_shared[0] / T.float32(512.0) + T.float32(1.0000000000000001e-05)) * g[v1] * W1[v0, v1]
            for ax0 in range(512):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(6, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_down"):
                            v0 = T.axis.spatial(512, ax0)
                            v1 = T.axis.reduce(1376, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 1376)
                            T.reads(T_gate_shared[0, v1], T_up_shared[0, v1], W2[v0, v1])
                            T.writes(T_down_shared[0, v0])
                            with T.init():
                                T_down_shared[0, v0] = T.float32(0.0)
                            T_down_shared[0, v0] = T_down_shared[0, v0] + T_gate_shared[0, v1] * (T.float32(1.0) / (T.float32(1.0) + T.exp(T_gate_shared[0, v1] * T.float32(-1.0)))) * T_up_shared[0, v1] * W2[v0, v1]
            for ax1_1 in T.thread_binding(256, thread="threadIdx.x"):
                for ax1_0 in T.serial(2, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_residual"):
                        v0 = T.axis.spatial(T.int64(1), T.int64(0))
                        v1 = T.axis.spatial(512, ax1_0 * 256 + ax1_1)
                        T.reads(X[0, v1], T_down_shared[0, v1])
                        T.writes(T_residual[0, v1])
                        T_residual[0, v1] = X[0, v1] + T_down_shared[0, v1]
