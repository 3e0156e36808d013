# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 16), "float32"), T_1: T.Buffer((1, 27, 16), "float32"), li: T.Buffer((351,), "int32"), lj: T.Buffer((351,), "int32"), T_interaction: T.Buffer((1, 367), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_pair_dots_shared = T.sblock_alloc_buffer((1, 351), scope="shared")
        for ax0_fused in T.thread_binding(T.int64(1), thread="blockIdx.x"):
            for ax0 in range(351):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_pair_dots"):
                            v0 = T.axis.spatial(351, ax0)
                            v1 = T.axis.reduce(16, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 16)
                            T.reads(T_1[0, T.min(li[v0], lj[v0]):T.min(li[v0], lj[v0]) + (T.max(li[v0], lj[v0]) + 1 - T.min(li[v0], lj[v0])), v1], li[v0], lj[v0])
                            T.writes(T_pair_dots_shared[0, v0])
                            with T.init():
                                T_pair_dots_shared[0, v0] = T.float32(0.0)
                            T_pair_dots_shared[0, v0] = T_pair_dots_shared[0, v0] + T_1[0, li[v0], v1] * T_1[0, lj[v0], v1]
            for ax1_1 in T.thread_binding(256, thread="threadIdx.x"):
                for ax1_0 in T.serial(2, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_interaction"):
                        v0 = T.axis.spatial(T.int64(1), T.int64(0))
                        v1 = T.axis.spatial(367, ax1_0 * 256 + ax1_1)
                        T.where(ax1_0 * 256 + ax1_1 < 367)
                        T.reads(X[0, v1], T_pair_dots_shared[0, T.max(v1 - 16, 0)])
                        T.writes(T_interaction[0, v1])
                        T_interaction[0, v1] = T.if_then_else(v1 < 16, X[0, v1], T_pair_dots_shared[0, T.max(v1 - 16, 0)])
