# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((32, 16), "float32"), T_1: T.Buffer((32, 9, 16), "float32"), li: T.Buffer((36,), "int32"), lj: T.Buffer((36,), "int32"), T_interaction: T.Buffer((32, 52), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_pair_dots = T.sblock_alloc_buffer((32, 36))
        for ax0_ax1_fused_0 in T.thread_binding(5, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_pair_dots_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 36)
                    v1 = T.axis.spatial(36, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 36)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 1152)
                    T.reads()
                    T.writes(T_pair_dots[v0, v1])
                    T_pair_dots[v0, v1] = T.float32(0.0)
                for ax2 in range(16):
                    with T.sblock("T_pair_dots_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 36)
                        v1 = T.axis.spatial(36, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 36)
                        v2 = T.axis.reduce(16, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 1152)
                        T.reads(T_pair_dots[v0, v1], T_1[v0, T.min(li[v1], lj[v1]):T.min(li[v1], lj[v1]) + (T.max(li[v1], lj[v1]) + 1 - T.min(li[v1], lj[v1])), v2], li[v1], lj[v1])
                        T.writes(T_pair_dots[v0, v1])
                        T_pair_dots[v0, v1] = T_pair_dots[v0, v1] + T_1[v0, li[v1], v2] * T_1[v0, lj[v1], v2]
        for ax0_ax1_fused_0 in T.thread_binding(7, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_interaction"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 52)
                    v1 = T.axis.spatial(52, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 52)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 1664)
                    T.reads(X[v0, v1], T_pair_dots[v0, T.max(v1 - 16, 0)])
                    T.writes(T_interaction[v0, v1])
                    T_interaction[v0, v1] = T.if_then_else(v1 < 16, X[v0, v1], T_pair_dots[v0, T.max(v1 - 16, 0)])
