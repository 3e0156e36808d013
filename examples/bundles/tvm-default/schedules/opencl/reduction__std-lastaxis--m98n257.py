# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((98, 257), "float32"), T_std: T.Buffer((98,), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_sum_shared = T.sblock_alloc_buffer((98,), scope="shared")
        T_sq_dev_shared = T.sblock_alloc_buffer((98,), scope="shared")
        for ax0_fused in T.thread_binding(98, thread="blockIdx.x"):
            for ax0 in range(1):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(2, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_sum"):
                            v0 = T.axis.spatial(98, ax0_fused + ax0)
                            v1 = T.axis.reduce(257, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 257)
                            T.reads(X[v0, v1])
                            T.writes(T_sum_shared[v0])
                            with T.init():
                                T_sum_shared[v0] = T.float32(0.0)
                            T_sum_shared[v0] = T_sum_shared[v0] + X[v0, v1]
            for ax0 in range(1):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(2, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_sq_dev"):
                            v0 = T.axis.spatial(98, ax0_fused + ax0)
                            v1 = T.axis.reduce(257, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 257)
                            T.reads(X[v0, v1], T_sum_shared[v0])
                            T.writes(T_sq_dev_shared[v0])
                            with T.init():
                                T_sq_dev_shared[v0] = T.float32(0.0)
                            T_sq_dev_shared[v0] = T_sq_dev_shared[v0] + (X[v0, v1] - T_sum_shared[v0] / T.float32(257.0)) * (X[v0, v1] - T_sum_shared[v0] / T.float32(257.0))
            for ax1_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                for ax1_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_std"):
                        v0 = T.axis.spatial(98, ax0_fused)
                        v1 = T.axis.spatial(T.int64(1), ax1_0 * T.int64(256) + ax1_1)
                        T.where(ax1_0 * T.int64(256) + ax1_1 < T.int64(1))
                        T.reads(T_sq_dev_shared[v0])
                        T.writes(T_std[v0])
                        T_std[v0] = T.sqrt(T_sq_dev_shared[v0] / T.float32(257.0))
