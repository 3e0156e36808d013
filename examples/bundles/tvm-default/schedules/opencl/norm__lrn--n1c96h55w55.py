# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 96, 55, 55), "float32"), T_divide: T.Buffer((1, 96, 55, 55), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        tensor_shared = T.sblock_alloc_buffer((1, 96, 55, 55), scope="shared")
        for ax0_ax1_ax2_fused in T.thread_binding(290400, thread="blockIdx.x"):
            for ax0, ax1, ax2 in T.grid(1, 1, 1):
                for ax3_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax3_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("tensor"):
                            v0 = T.axis.spatial(96, ax0_ax1_ax2_fused // 3025 + ax0)
                            v1 = T.axis.spatial(55, ax0_ax1_ax2_fused % 3025 // 55 + ax1)
                            v2 = T.axis.spatial(55, ax0_ax1_ax2_fused % 55 + ax2)
                            v3 = T.axis.reduce(5, ax3_fused_0 * 256 + ax3_fused_1)
                            T.where(ax3_fused_0 * 256 + ax3_fused_1 < 5)
                            T.reads(X[0, v0 + v3 - 2, v1, v2])
                            T.writes(tensor_shared[0, v0, v1, v2])
                            with T.init():
                                tensor_shared[0, v0, v1, v2] = T.float32(0.0)
                            tensor_shared[0, v0, v1, v2] = tensor_shared[0, v0, v1, v2] + T.if_then_else(2 <= v0 + v3 and v0 + v3 < 98, X[0, v0 + v3 - 2, v1, v2], T.float32(0.0)) * T.if_then_else(2 <= v0 + v3 and v0 + v3 < 98, X[0, v0 + v3 - 2, v1, v2], T.float32(0.0))
            for ax3_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                for ax3_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_divide"):
                        v0 = T.axis.spatial(96, ax0_ax1_ax2_fused // 3025)
                        v1 = T.axis.spatial(55, ax0_ax1_ax2_fused % 3025 // 55)
                        v2 = T.axis.spatial(55, ax0_ax1_ax2_fused % 55)
                        v3 = T.axis.spatial(T.int64(1), ax3_0 * T.int64(256) + ax3_1)
                        T.where(ax3_0 * T.int64(256) + ax3_1 < T.int64(1))
                        T.reads(X[0, v0, v1, v2], tensor_shared[0, v0, v1, v2])
                        T.writes(T_divide[0, v0, v1, v2])
                        T_divide[0, v0, v1, v2] = X[0, v0, v1, v2] / T.pow(T.float32(2.0) + T.float32(9.9999997473787516e-05) * tensor_shared[0, v0, v1, v2] / T.float32(5.0), T.float32(0.75))
