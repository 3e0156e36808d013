# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(P: T.Buffer((98, 257), "float32"), T_power_to_db: T.Buffer((98, 257), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_top_shared = T.sblock_alloc_buffer((1,), scope="shared")
        for ax0_fused in T.thread_binding(T.int64(1), thread="blockIdx.x"):
            for ax0 in range(T.int64(1)):
                for ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_ax2_fused_0 in T.serial(99, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_top"):
                            v0 = T.axis.spatial(T.int64(1), ax0)
                            v1 = T.axis.reduce(98, (ax1_ax2_fused_0 * 256 + ax1_ax2_fused_1) // 257)
                            v2 = T.axis.reduce(257, (ax1_ax2_fused_0 * 256 + ax1_ax2_fused_1) % 257)
                            T.where(ax1_ax2_fused_0 * 256 + ax1_ax2_fused_1 < 25186)
                            T.reads(P[v1, v2])
                            T.writes(T_top_shared[0])
                            with T.init():
                                T_top_shared[0] = T.float32(-340282346638528859811704183484516925440.0)
                            T_top_shared[0] = T.max(T_top_shared[0], T.float32(10.0) * T.log10(T.max(P[v1, v2], T.float32(1e-10))))
            for ax1 in range(98):
                for ax2_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax2_0 in T.serial(2, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_power_to_db"):
                            v0 = T.axis.spatial(T.int64(1), T.int64(0))
                            v1 = T.axis.spatial(98, ax1)
                            v2 = T.axis.spatial(257, ax2_0 * 256 + ax2_1)
                            T.where(ax2_0 * 256 + ax2_1 < 257)
                            T.reads(P[v1, v2], T_top_shared[0])
                            T.writes(T_power_to_db[v1, v2])
                            T_power_to_db[v1, v2] = T.max(T.float32(10.0) * T.log10(T.max(P[v1, v2], T.float32(1e-10))), T_top_shared[0] - T.float32(80.0))
