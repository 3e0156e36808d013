# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((128, 576), "float16"), gamma: T.Buffer((576,), "float16"), T_rms_norm_f16: T.Buffer((128, 576), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_sq_sum_shared = T.sblock_alloc_buffer((128,), scope="shared")
        T_sq_sum_rf_local = T.sblock_alloc_buffer((256, 128), scope="local")
        for ax0_fused in T.thread_binding(128, thread="blockIdx.x"):
            for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                with T.sblock("T_sq_sum_rf_init"):
                    vax1_fused_1, v0 = T.axis.remap("SS", [ax1_fused_1, ax0_fused])
                    T.reads()
                    T.writes(T_sq_sum_rf_local[vax1_fused_1, v0])
                    T_sq_sum_rf_local[vax1_fused_1, v0] = T.float32(0.0)
                for ax1_fused_0, u in T.grid(3, 1):
                    with T.sblock("T_sq_sum_rf_update"):
                        vax1_fused_1, v0, vax1_fused_0 = T.axis.remap("SSR", [ax1_fused_1, ax0_fused, ax1_fused_0])
                        T.where(ax1_fused_0 * 256 + ax1_fused_1 < 576)
                        T.reads(T_sq_sum_rf_local[vax1_fused_1, v0], X[v0, vax1_fused_0 * 256 + vax1_fused_1])
                        T.writes(T_sq_sum_rf_local[vax1_fused_1, v0])
                        T_sq_sum_rf_local[vax1_fused_1, v0] = T_sq_sum_rf_local[vax1_fused_1, v0] + T.Cast("float32", X[v0, vax1_fused_0 * 256 + vax1_fused_1]) * T.Cast("float32", X[v0, vax1_fused_0 * 256 + vax1_fused_1])
            for ax1_fused in range(1):
                for ax0 in T.thread_binding(256, thread="threadIdx.x"):
                    with T.sblock("T_sq_sum"):
                        vax1_fused_1, v0 = T.axis.remap("RS", [ax0, ax0_fused])
                        T.reads(T_sq_sum_rf_local[vax1_fused_1, v0])
                        T.writes(T_sq_sum_shared[v0])
                        with T.init():
                            T_sq_sum_shared[v0] = T.float32(0.0)
                        T_sq_sum_shared[v0] = T_sq_sum_shared[v0] + T_sq_sum_rf_local[vax1_fused_1, v0]
            for ax0_ax1_fused_0 in range(3):
                for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    with T.sblock("T_rms_norm_f16"):
                        v0 = T.axis.spatial(128, ax0_fused)
                        v1 = T.axis.spatial(576, ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 576)
                        T.reads(X[v0, v1], T_sq_sum_shared[v0], gamma[v1])
                        T.writes(T_rms_norm_f16[v0, v1])
                        T_rms_norm_f16[v0, v1] = T.Cast("float16", T.Cast("float32", X[v0, v1]) * T.rsqrt(T_sq_sum_shared[v0] / T.float32(576.0) + T.float32(1.0000000000000001e-05)) * T.Cast("float32", gamma[v1]))
