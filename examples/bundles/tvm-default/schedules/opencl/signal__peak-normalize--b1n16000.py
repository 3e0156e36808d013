# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((1, 16000), "float32"), T_normalize: T.Buffer((1, 16000), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_peak_shared = T.sblock_alloc_buffer((1,), scope="shared")
        for ax0_fused in T.thread_binding(T.int64(1), thread="blockIdx.x"):
            for ax0 in range(T.int64(1)):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(63, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_peak"):
                            v0 = T.axis.spatial(T.int64(1), ax0)
                            v1 = T.axis.reduce(16000, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 16000)
                            T.reads(x[0, v1])
                            T.writes(T_peak_shared[0])
                            with T.init():
                                T_peak_shared[0] = T.float32(-340282346638528859811704183484516925440.0)
                            T_peak_shared[0] = T.max(T_peak_shared[0], T.fabs(x[0, v1]))
            for ax1_1 in T.thread_binding(256, thread="threadIdx.x"):
                for ax1_0 in T.serial(63, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_normalize"):
                        v0 = T.axis.spatial(T.int64(1), T.int64(0))
                        v1 = T.axis.spatial(16000, ax1_0 * 256 + ax1_1)
                        T.where(ax1_0 * 256 + ax1_1 < 16000)
                        T.reads(x[0, v1], T_peak_shared[0])
                        T.writes(T_normalize[0, v1])
                        T_normalize[0, v1] = x[0, v1] / T_peak_shared[0]
