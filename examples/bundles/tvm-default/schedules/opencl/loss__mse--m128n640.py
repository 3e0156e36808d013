# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(P: T.Buffer((128, 640), "float32"), T_1: T.Buffer((128, 640), "float32"), T_mse: T.Buffer((1,), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_sse_shared = T.sblock_alloc_buffer((1,), scope="shared")
        T_sse_rf_local = T.sblock_alloc_buffer((256, 1), scope="local")
        for ax0_fused in T.thread_binding(T.int64(1), thread="blockIdx.x"):
            for ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x", annotations={"pragma_auto_unroll_max_step": 256, "pragma_unroll_explicit": 1}):
                with T.sblock("T_sse_rf_init"):
                    vax1_ax2_fused_1 = T.axis.spatial(256, ax1_ax2_fused_1)
                    v0 = T.axis.spatial(T.int64(1), T.int64(0))
                    T.reads()
                    T.writes(T_sse_rf_local[vax1_ax2_fused_1, 0])
                    T_sse_rf_local[vax1_ax2_fused_1, 0] = T.float32(0.0)
                for ax1_ax2_fused_0, u in T.grid(320, 1):
                    with T.sblock("T_sse_rf_update"):
                        vax1_ax2_fused_1 = T.axis.spatial(256, ax1_ax2_fused_1)
                        v0 = T.axis.spatial(T.int64(1), T.int64(0))
                        vax1_ax2_fused_0 = T.axis.reduce(320, ax1_ax2_fused_0)
                        T.reads(T_sse_rf_local[vax1_ax2_fused_1, 0], P[(vax1_ax2_fused_0 * 256 + vax1_ax2_fused_1) // 640, (vax1_ax2_fused_0 * 256 + vax1_ax2_fused_1) % 640], T_1[(vax1_ax2_fused_0 * 256 + vax1_ax2_fused_1) // 640, (vax1_ax2_fused_0 * 256 + vax1_ax2_fused_1) % 640])
                        T.writes(T_sse_rf_local[vax1_ax2_fused_1, 0])
                        T_sse_rf_local[vax1_ax2_fused_1, 0] = T_sse_rf_local[vax1_ax2_fused_1, 0] + (P[(vax1_ax2_fused_0 * 256 + vax1_ax2_fused_1) // 640, (vax1_ax2_fused_0 * 256 + vax1_ax2_fused_1) % 640] - T_1[(vax1_ax2_fused_0 * 256 + vax1_ax2_fused_1) // 640, (vax1_ax2_fused_0 * 256 + vax1_ax2_fused_1) % 640]) * (P[(vax1_ax2_fused_0 * 256 + vax1_ax2_fused_1) // 640, (vax1_ax2_fused_0 * 256 + vax1_ax2_fused_1) % 640] - T_1[(vax1_ax2_fused_0 * 256 + vax1_ax2_fused_1) // 640, (vax1_ax2_fused_0 * 256 + vax1_ax2_fused_1) % 640])
            for ax1_fused in range(T.int64(1)):
                for ax0 in T.thread_binding(256, thread="threadIdx.x"):
                    with T.sblock("T_sse"):
                        vax1_ax2_fused_1 = T.axis.reduce(256, ax0)
                        v0 = T.axis.spatial(T.int64(1), T.int64(0))
                        T.reads(T_sse_rf_local[vax1_ax2_fused_1, 0])
                        T.writes(T_sse_shared[0])
                        with T.init():
                            T_sse_shared[0] = T.float32(0.0)
                        T_sse_shared[0] = T_sse_shared[0] + T_sse_rf_local[vax1_ax2_fused_1, 0]
            for ax0_fused_0 in range(T.int64(1)):
                for ax0_fused_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                    with T.sblock("T_mse"):
                        v0 = T.axis.spatial(T.int64(1), T.int64(0))
                        T.where(ax0_fused_0 * T.int64(256) + ax0_fused_1 < T.int64(1))
                        T.reads(T_sse_shared[0])
                        T.writes(T_mse[0])
                        T_mse[0] = T_sse_shared[0] * T.float32(1.2207031250000001e-05)
