# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 4096), "float32"), T_quantize: T.Buffer((1, 4096), "int8"), T_scale: T.Buffer((1,), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_amax = T.sblock_alloc_buffer((1,))
        for ax0_fused_0 in T.thread_binding(T.int64(1), thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                with T.sblock("T_amax_init"):
                    v0 = T.axis.spatial(T.int64(1), T.int64(0))
                    T.where(ax0_fused_0 * T.int64(256) + ax0_fused_1 < T.int64(1))
                    T.reads()
                    T.writes(T_amax[0])
                    T_amax[0] = T.float32(-340282346638528859811704183484516925440.0)
                for ax1 in range(4096):
                    with T.sblock("T_amax_update"):
                        v0 = T.axis.spatial(T.int64(1), T.int64(0))
                        v1 = T.axis.reduce(4096, ax1)
                        T.where(ax0_fused_0 * T.int64(256) + ax0_fused_1 < T.int64(1))
                        T.reads(T_amax[0], X[0, v1])
                        T.writes(T_amax[0])
                        T_amax[0] = T.max(T_amax[0], T.fabs(X[0, v1]))
        for ax0_fused_0 in T.thread_binding(T.int64(1), thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                with T.sblock("T_scale"):
                    v0 = T.axis.spatial(T.int64(1), T.int64(0))
                    T.where(ax0_fused_0 * T.int64(256) + ax0_fused_1 < T.int64(1))
                    T.reads(T_amax[0])
                    T.writes(T_scale[0])
                    T_scale[0] = T.max(T_amax[0], T.float32(1e-08)) / T.float32(127.0)
        for ax0_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_quantize"):
                    v0 = T.axis.spatial(4096, ax0_fused_0 * 256 + ax0_fused_1)
                    T.reads(X[0, v0], T_scale[0])
                    T.writes(T_quantize[0, v0])
                    T_quantize[0, v0] = T.Cast("int8", T.max(T.min(T.Cast("int32", T.round(X[0, v0] / T_scale[0])), 127), -128))
