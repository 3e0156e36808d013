# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((256, 512), "bfloat16"), T_softmax_norm_bf16: T.Buffer((256, 512), "bfloat16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_softmax_maxelem_shared = T.sblock_alloc_buffer((256,), scope="shared")
        T_softmax_expsum_shared = T.sblock_alloc_buffer((256,), scope="shared")
        for ax0_fused in T.thread_binding(256, thread="blockIdx.x"):
            for ax0 in range(1):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(2, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_softmax_maxelem"):
                            v0 = T.axis.spatial(256, ax0_fused + ax0)
                            v1 = T.axis.reduce(512, ax1_fused_0 * 256 + ax1_fused_1)
                            T.reads(X[v0, v1])
                            T.writes(T_softmax_maxelem_shared[v0])
                            with T.init():
                                T_softmax_maxelem_shared[v0] = T.float32(-340282346638528859811704183484516925440.0)
                            T_softmax_maxelem_shared[v0] = T.max(T_softmax_maxelem_shared[v0], T.Cast("float32", X[v0, v1]))
            for ax0 in range(1):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(2, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_softmax_expsum"):
                            v0 = T.axis.spatial(256, ax0_fused + ax0)
                            v1 = T.axis.reduce(512, ax1_fused_0 * 256 + ax1_fused_1)
                            T.reads(X[v0, v1], T_softmax_maxelem_shared[v0])
                            T.writes(T_softmax_expsum_shared[v0])
                            with T.init():
                                T_softmax_expsum_shared[v0] = T.float32(0.0)
                            T_softmax_expsum_shared[v0] = T_softmax_expsum_shared[v0] + T.exp(T.Cast("float32", X[v0, v1]) - T_softmax_maxelem_shared[v0])
            for ax1_1 in T.thread_binding(256, thread="threadIdx.x"):
                for ax1_0 in T.serial(2, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_softmax_norm_bf16"):
                        v0 = T.axis.spatial(256, ax0_fused)
                        v1 = T.axis.spatial(512, ax1_0 * 256 + ax1_1)
                        T.reads(X[v0, v1], T_softmax_maxelem_shared[v0], T_softmax_expsum_shared[v0])
                        T.writes(T_softmax_norm_bf16[v0, v1])
                        T_softmax_norm_bf16[v0, v1] = T.Cast("bfloat16", T.exp(T.Cast("float32", X[v0, v1]) - T_softmax_maxelem_shared[v0]) / T_softmax_expsum_shared[v0])
