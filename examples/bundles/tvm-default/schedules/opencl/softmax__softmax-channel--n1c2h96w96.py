# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 2, 96, 96), "float32"), T_softmax_norm: T.Buffer((1, 2, 96, 96), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_softmax_maxelem_shared = T.sblock_alloc_buffer((1, 96, 96), scope="shared")
        T_softmax_expsum_shared = T.sblock_alloc_buffer((1, 96, 96), scope="shared")
        for ax1_ax2_fused in T.thread_binding(9216, thread="blockIdx.x"):
            for ax0, ax1 in T.grid(1, 1):
                for ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax2_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_softmax_maxelem"):
                            v0 = T.axis.spatial(96, ax1_ax2_fused // 96 + ax0)
                            v1 = T.axis.spatial(96, ax1_ax2_fused % 96 + ax1)
                            v2 = T.axis.reduce(2, ax2_fused_0 * 256 + ax2_fused_1)
                            T.where(ax2_fused_0 * 256 + ax2_fused_1 < 2)
                            T.reads(X[0, v2, v0, v1])
                            T.writes(T_softmax_maxelem_shared[0, v0, v1])
                            with T.init():
                                T_softmax_maxelem_shared[0, v0, v1] = T.float32(-340282346638528859811704183484516925440.0)
                            T_softmax_maxelem_shared[0, v0, v1] = T.max(T_softmax_maxelem_shared[0, v0, v1], X[0, v2, v0, v1])
            for ax0, ax1 in T.grid(1, 1):
                for ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax2_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_softmax_expsum"):
                            v0 = T.axis.spatial(96, ax1_ax2_fused // 96 + ax0)
                            v1 = T.axis.spatial(96, ax1_ax2_fused % 96 + ax1)
                            v2 = T.axis.reduce(2, ax2_fused_0 * 256 + ax2_fused_1)
                            T.where(ax2_fused_0 * 256 + ax2_fused_1 < 2)
                            T.reads(X[0, v2, v0, v1], T_softmax_maxelem_shared[0, v0, v1])
                            T.writes(T_softmax_expsum_shared[0, v0, v1])
                            with T.init():
                                T_softmax_expsum_shared[0, v0, v1] = T.float32(0.0)
                            T_softmax_expsum_shared[0, v0, v1] = T_softmax_expsum_shared[0, v0, v1] + T.exp(X[0, v2, v0, v1] - T_softmax_maxelem_shared[0, v0, v1])
            for ax0_1 in T.thread_binding(256, thread="threadIdx.x"):
                for ax0_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_softmax_norm"):
                        v0 = T.axis.spatial(2, ax0_0 * 256 + ax0_1)
                        v1 = T.axis.spatial(96, ax1_ax2_fused // 96)
                        v2 = T.axis.spatial(96, ax1_ax2_fused % 96)
                        T.where(ax0_0 * 256 + ax0_1 < 2)
                        T.reads(X[0, v0, v1, v2], T_softmax_maxelem_shared[0, v1, v2], T_softmax_expsum_shared[0, v1, v2])
                        T.writes(T_softmax_norm[0, v0, v1, v2])
                        T.sblock_attr({"axis": 1})
                        T_softmax_norm[0, v0, v1, v2] = T.exp(X[0, v0, v1, v2] - T_softmax_maxelem_shared[0, v1, v2]) / T_softmax_expsum_shared[0, v1, v2]
