# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((64, 196), "float32"), T_syrk: T.Buffer((64, 64), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_syrk_init"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 64)
                    v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 64)
                    T.reads()
                    T.writes(T_syrk[v0, v1])
                    T_syrk[v0, v1] = T.float32(0.0)
                for ax2 in range(196):
                    with T.sblock("T_syrk_update"):
                        v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 64)
                        v1 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 64)
                        v2 = T.axis.reduce(196, ax2)
                        T.reads(T_syrk[v0, v1], A[T.min(v0, v1):T.min(v0, v1) + (T.max(v0, v1) + 1 - T.min(v0, v1)), v2])
                        T.writes(T_syrk[v0, v1])
                        T_syrk[v0, v1] = T_syrk[v0, v1] + A[v0, v2] * A[v1, v2]
