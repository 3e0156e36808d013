# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((64, 1024), "float32"), T_dc_removal: T.Buffer((64, 1024), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_sum_shared = T.sblock_alloc_buffer((64,), scope="shared")
        T_sum_rf_local = T.sblock_alloc_buffer((256, 64), scope="local")
        for ax0_fused in T.thread_binding(64, thread="blockIdx.x"):
            for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                with T.sblock("T_sum_rf_init"):
                    vax1_fused_1, v0 = T.axis.remap("SS", [ax1_fused_1, ax0_fused])
                    T.reads()
                    T.writes(T_sum_rf_local[vax1_fused_1, v0])
                    T_sum_rf_local[vax1_fused_1, v0] = T.float32(0.0)
                for ax1_fused_0, u in T.grid(4, 1):
                    with T.sblock("T_sum_rf_update"):
                        vax1_fused_1, v0, vax1_fused_0 = T.axis.remap("SSR", [ax1_fused_1, ax0_fused, ax1_fused_0])
                        T.reads(T_sum_rf_local[vax1_fused_1, v0], X[v0, vax1_fused_0 * 256 + vax1_fused_1])
                        T.writes(T_sum_rf_local[vax1_fused_1, v0])
                        T_sum_rf_local[vax1_fused_1, v0] = T_sum_rf_local[vax1_fused_1, v0] + X[v0, vax1_fused_0 * 256 + vax1_fused_1]
            for ax1_fused in range(1):
                for ax0 in T.thread_binding(256, thread="threadIdx.x"):
                    with T.sblock("T_sum"):
                        vax1_fused_1, v0 = T.axis.remap("RS", [ax0, ax0_fused])
                        T.reads(T_sum_rf_local[vax1_fused_1, v0])
                        T.writes(T_sum_shared[v0])
                        with T.init():
                            T_sum_shared[v0] = T.float32(0.0)
                        T_sum_shared[v0] = T_sum_shared[v0] + T_sum_rf_local[vax1_fused_1, v0]
            for ax0_ax1_fused_0 in range(4):
                for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    with T.sblock("T_dc_removal"):
                        v0 = T.axis.spatial(64, ax0_fused)
                        v1 = T.axis.spatial(1024, ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1)
                        T.reads(X[v0, v1], T_sum_shared[v0])
                        T.writes(T_dc_removal[v0, v1])
                        T_dc_removal[v0, v1] = X[v0, v1] - T_sum_shared[v0] / T.float32(1024.0)
