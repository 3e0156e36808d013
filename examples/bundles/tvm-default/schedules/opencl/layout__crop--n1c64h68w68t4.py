# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 64, 68, 68), "float32"), T_strided_slice: T.Buffer((1, 64, 60, 60), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(900, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_strided_slice"):
                    v0 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3600)
                    v1 = T.axis.spatial(60, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3600 // 60)
                    v2 = T.axis.spatial(60, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 60)
                    T.reads(X[0, v0, v1 + 4, v2 + 4])
                    T.writes(T_strided_slice[0, v0, v1, v2])
                    T_strided_slice[0, v0, v1, v2] = X[0, v0, v1 + 4, v2 + 4]
