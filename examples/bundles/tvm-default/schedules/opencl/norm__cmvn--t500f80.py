# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((500, 80), "float32"), T_cmvn: T.Buffer((500, 80), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_sum_shared = T.sblock_alloc_buffer((80,), scope="shared")
        T_sq_dev_shared = T.sblock_alloc_buffer((80,), scope="shared")
        for ax1_fused in T.thread_binding(80, thread="blockIdx.x"):
            for ax0 in range(1):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(2, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_sum"):
                            v0 = T.axis.spatial(80, ax1_fused + ax0)
                            v1 = T.axis.reduce(500, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 500)
                            T.reads(X[v1, v0])
                            T.writes(T_sum_shared[v0])
                            with T.init():
                                T_sum_shared[v0] = T.float32(0.0)
                            T_sum_shared[v0] = T_sum_shared[v0] + X[v1, v0]
            for ax0 in range(1):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(2, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_sq_dev"):
                            v0 = T.axis.spatial(80, ax1_fused + ax0)
                            v1 = T.axis.reduce(500, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 500)
                            T.reads(X[v1, v0], T_sum_shared[v0])
                            T.writes(T_sq_dev_shared[v0])
                            with T.init():
                                T_sq_dev_shared[v0] = T.float32(0.0)
                            T_sq_dev_shared[v0] = T_sq_dev_shared[v0] + (X[v1, v0] - T_sum_shared[v0] / T.float32(500.0)) * (X[v1, v0] - T_sum_shared[v0] / T.float32(500.0))
            for ax0_1 in T.thread_binding(256, thread="threadIdx.x"):
                for ax0_0 in T.serial(2, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_cmvn"):
                        v0 = T.axis.spatial(500, ax0_0 * 256 + ax0_1)
                        v1 = T.axis.spatial(80, ax1_fused)
                        T.where(ax0_0 * 256 + ax0_1 < 500)
                        T.reads(X[v0, v1], T_sum_shared[v1], T_sq_dev_shared[v1])
                        T.writes(T_cmvn[v0, v1])
                        T_cmvn[v0, v1] = (X[v0, v1] - T_sum_shared[v1] / T.float32(500.0)) * T.rsqrt(T_sq_dev_shared[v1] / T.float32(500.0) + T.float32(1.0000000000000001e-05))
