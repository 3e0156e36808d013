# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 4096, 1024), "float32"), T_frobenius_norm: T.Buffer((1,), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_row_sumsq = T.sblock_alloc_buffer((1, 4096))
        T_sumsq = T.sblock_alloc_buffer((1,))
        for ax0_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_row_sumsq_init"):
                    v0 = T.axis.spatial(4096, ax0_fused_0 * 256 + ax0_fused_1)
                    T.reads()
                    T.writes(T_row_sumsq[0, v0])
                    T_row_sumsq[0, v0] = T.float32(0.0)
                for ax1 in range(1024):
                    with T.sblock("T_row_sumsq_update"):
                        v0 = T.axis.spatial(4096, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(1024, ax1)
                        T.reads(T_row_sumsq[0, v0], X[0, v0, v1])
                        T.writes(T_row_sumsq[0, v0])
                        T_row_sumsq[0, v0] = T_row_sumsq[0, v0] + X[0, v0, v1] * X[0, v0, v1]
        for ax0_fused_0 in T.thread_binding(T.int64(1), thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                with T.sblock("T_sumsq_init"):
                    v0 = T.axis.spatial(T.int64(1), T.int64(0))
                    T.where(ax0_fused_0 * T.int64(256) + ax0_fused_1 < T.int64(1))
                    T.reads()
                    T.writes(T_sumsq[0])
                    T_sumsq[0] = T.float32(0.0)
                for ax1 in range(4096):
                    with T.sblock("T_sumsq_update"):
                        v0 = T.axis.spatial(T.int64(1), T.int64(0))
                        v1 = T.axis.reduce(4096, ax1)
                        T.where(ax0_fused_0 * T.int64(256) + ax0_fused_1 < T.int64(1))
                        T.reads(T_sumsq[0], T_row_sumsq[0, v1])
                        T.writes(T_sumsq[0])
                        T_sumsq[0] = T_sumsq[0] + T_row_sumsq[0, v1]
        for ax0_fused_0 in T.thread_binding(T.int64(1), thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                with T.sblock("T_frobenius_norm"):
                    v0 = T.axis.spatial(T.int64(1), T.int64(0))
                    T.where(ax0_fused_0 * T.int64(256) + ax0_fused_1 < T.int64(1))
                    T.reads(T_sumsq[0])
                    T.writes(T_frobenius_norm[0])
                    T_frobenius_norm[0] = T.sqrt(T_sumsq[0])
