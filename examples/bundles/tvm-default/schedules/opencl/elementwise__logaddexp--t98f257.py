# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((98, 257), "float32"), B: T.Buffer((98, 257), "float32"), T_logaddexp: T.Buffer((98, 257), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(99, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_logaddexp"):
                    v0 = T.axis.spatial(98, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 257)
                    v1 = T.axis.spatial(257, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 257)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 25186)
                    T.reads(A[v0, v1], B[v0, v1])
                    T.writes(T_logaddexp[v0, v1])
                    T_logaddexp[v0, v1] = T.log(T.exp(A[v0, v1]) + T.exp(B[v0, v1]))
