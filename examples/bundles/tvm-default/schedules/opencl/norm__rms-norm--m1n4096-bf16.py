# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 4096), "bfloat16"), gamma: T.Buffer((4096,), "bfloat16"), T_rms_norm_bf16: T.Buffer((1, 4096), "bfloat16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_sq_sum_shared = T.sblock_alloc_buffer((1,), scope="shared")
        T_sq_sum_rf_local = T.sblock_alloc_buffer((256, 1), scope="local")
        for ax0_fused in T.thread_binding(T.int64(1), thread="blockIdx.x"):
            for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                with T.sblock("T_sq_sum_rf_init"):
                    vax1_fused_1 = T.axis.spatial(256, ax1_fused_1)
                    v0 = T.axis.spatial(T.int64(1), T.int64(0))
                    T.reads()
                    T.writes(T_sq_sum_rf_local[vax1_fused_1, 0])
                    T_sq_sum_rf_local[vax1_fused_1, 0] = T.float32(0.0)
                for ax1_fused_0, u in T.grid(16, 1):
                    with T.sblock("T_sq_sum_rf_update"):
                        vax1_fused_1 = T.axis.spatial(256, ax1_fused_1)
                        v0 = T.axis.spatial(T.int64(1), T.int64(0))
                        vax1_fused_0 = T.axis.reduce(16, ax1_fused_0)
                        T.reads(T_sq_sum_rf_local[vax1_fused_1, 0], X[0, vax1_fused_0 * 256 + vax1_fused_1])
                        T.writes(T_sq_sum_rf_local[vax1_fused_1, 0])
                        T_sq_sum_rf_local[vax1_fused_1, 0] = T_sq_sum_rf_local[vax1_fused_1, 0] + T.Cast("float32", X[0, vax1_fused_0 * 256 + vax1_fused_1]) * T.Cast("float32", X[0, vax1_fused_0 * 256 + vax1_fused_1])
            for ax1_fused in range(T.int64(1)):
                for ax0 in T.thread_binding(256, thread="threadIdx.x"):
                    with T.sblock("T_sq_sum"):
                        vax1_fused_1 = T.axis.reduce(256, ax0)
                        v0 = T.axis.spatial(T.int64(1), T.int64(0))
                        T.reads(T_sq_sum_rf_local[vax1_fused_1, 0])
                        T.writes(T_sq_sum_shared[0])
                        with T.init():
                            T_sq_sum_shared[0] = T.float32(0.0)
                        T_sq_sum_shared[0] = T_sq_sum_shared[0] + T_sq_sum_rf_local[vax1_fused_1, 0]
            for ax0_fused_0 in range(16):
                for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    with T.sblock("T_rms_norm_bf16"):
                        v0 = T.axis.spatial(4096, ax0_fused_0 * 256 + ax0_fused_1)
                        T.reads(X[0, v0], T_sq_sum_shared[0], gamma[v0])
                        T.writes(T_rms_norm_bf16[0, v0])
                        T_rms_norm_bf16[0, v0] = T.Cast("bfloat16", T.Cast("float32", X[0, v0]) * T.rsqrt(T_sq_sum_shared[0] / T.float32(4096.0) + T.float32(1.0000000000000001e-05)) * T.Cast("float32", gamma[v0]))
