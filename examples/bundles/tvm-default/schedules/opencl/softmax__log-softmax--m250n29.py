# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((250, 29), "float32"), compute: T.Buffer((250, 29), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_softmax_maxelem_shared = T.sblock_alloc_buffer((250,), scope="shared")
        compute_shared = T.sblock_alloc_buffer((250,), scope="shared")
        for ax0_fused in T.thread_binding(250, thread="blockIdx.x"):
            for ax0 in range(1):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_softmax_maxelem"):
                            v0 = T.axis.spatial(250, ax0_fused + ax0)
                            v1 = T.axis.reduce(29, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 29)
                            T.reads(X[v0, v1])
                            T.writes(T_softmax_maxelem_shared[v0])
                            with T.init():
                                T_softmax_maxelem_shared[v0] = T.float32(-340282346638528859811704183484516925440.0)
                            T_softmax_maxelem_shared[v0] = T.max(T_softmax_maxelem_shared[v0], X[v0, v1])
            for ax0 in range(1):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("compute"):
                            v0 = T.axis.spatial(250, ax0_fused + ax0)
                            v1 = T.axis.reduce(29, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 29)
                            T.reads(X[v0, v1], T_softmax_maxelem_shared[v0])
                            T.writes(compute_shared[v0])
                            with T.init():
                                compute_shared[v0] = T.float32(0.0)
                            compute_shared[v0] = compute_shared[v0] + T.exp(X[v0, v1] - T_softmax_maxelem_shared[v0])
            for ax1_1 in T.thread_binding(256, thread="threadIdx.x"):
                for ax1_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("compute_1"):
                        v0 = T.axis.spatial(250, ax0_fused)
                        v1 = T.axis.spatial(29, ax1_0 * 256 + ax1_1)
                        T.where(ax1_0 * 256 + ax1_1 < 29)
                        T.reads(X[v0, v1], T_softmax_maxelem_shared[v0], compute_shared[v0])
                        T.writes(compute[v0, v1])
                        T.sblock_attr({"axis": 1})
                        compute[v0, v1] = X[v0, v1] - T_softmax_maxelem_shared[v0] - T.log(compute_shared[v0])
