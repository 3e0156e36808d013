# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((128, 768), "float32"), T_quantize: T.Buffer((128, 768), "int8"), T_scale: T.Buffer((128,), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_amax = T.sblock_alloc_buffer((128,))
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_amax_init"):
                    v0 = T.axis.spatial(128, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 128)
                    T.reads()
                    T.writes(T_amax[v0])
                    T_amax[v0] = T.float32(-340282346638528859811704183484516925440.0)
                for ax1 in range(768):
                    with T.sblock("T_amax_update"):
                        v0 = T.axis.spatial(128, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(768, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 128)
                        T.reads(T_amax[v0], X[v0, v1])
                        T.writes(T_amax[v0])
                        T_amax[v0] = T.max(T_amax[v0], T.fabs(X[v0, v1]))
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_scale"):
                    v0 = T.axis.spatial(128, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 128)
                    T.reads(T_amax[v0])
                    T.writes(T_scale[v0])
                    T_scale[v0] = T.max(T_amax[v0], T.float32(1e-08)) / T.float32(127.0)
        for ax0_ax1_fused_0 in T.thread_binding(384, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_quantize"):
                    v0 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 768)
                    v1 = T.axis.spatial(768, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 768)
                    T.reads(X[v0, v1], T_scale[v0])
                    T.writes(T_quantize[v0, v1])
                    T_quantize[v0, v1] = T.Cast("int8", T.max(T.min(T.Cast("int32", T.round(X[v0, v1] / T_scale[v0])), 127), -128))
