# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 256, 3, 3), "int8"), W: T.Buffer((2, 256), "int8"), bias: T.Buffer((2,), "int32"), mult: T.Buffer((2,), "int32"), shift: T.Buffer((2,), "int32"), T_requantize: T.Buffer((1, 2), "int8")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_sum = T.sblock_alloc_buffer((1, 256), "int32")
        T_qdense = T.sblock_alloc_buffer((1, 2), "int32")
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_sum_init"):
                    v0 = T.axis.spatial(256, ax0_fused_0 * 256 + ax0_fused_1)
                    T.reads()
                    T.writes(T_sum[0, v0])
                    T_sum[0, v0] = 0
                for ax1, ax2 in T.grid(3, 3):
                    with T.sblock("T_sum_update"):
                        v0 = T.axis.spatial(256, ax0_fused_0 * 256 + ax0_fused_1)
                        v1, v2 = T.axis.remap("RR", [ax1, ax2])
                        T.reads(T_sum[0, v0], X[0, v0, v1, v2])
                        T.writes(T_sum[0, v0])
                        T_sum[0, v0] = T_sum[0, v0] + T.Cast("int32", X[0, v0, v1, v2])
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_qdense_init"):
                    v0 = T.axis.spatial(2, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 2)
                    T.reads()
                    T.writes(T_qdense[0, v0])
                    T_qdense[0, v0] = 0
                for ax1 in range(256):
                    with T.sblock("T_qdense_update"):
                        v0 = T.axis.spatial(2, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(256, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 2)
                        T.reads(T_qdense[0, v0], T_sum[0, v1], W[v0, v1])
                        T.writes(T_qdense[0, v0])
                        T_qdense[0, v0] = T_qdense[0, v0] + (T.if_then_else(T_sum[0, v1] < 0, 0 - (4 - T_sum[0, v1]) // 9, (T_sum[0, v1] + 4) // 9) + 100) * T.Cast("int32", W[v0, v1])
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_requantize"):
                    v0 = T.axis.spatial(2, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 2)
                    T.reads(T_qdense[0, v0], bias[v0], mult[v0], shift[v0])
                    T.writes(T_requantize[0, v0])
                    T_requantize[0, v0] = T.Cast("int8", T.max(T.min(T.Cast("int32", (T.Cast("int64", T_qdense[0, v0]) + T.Cast("int64", bias[v0])) * T.Cast("int64", mult[v0]) + (T.int64(1) << T.Cast("int64", shift[v0]) - T.int64(1)) >> T.Cast("int64", shift[v0])) + 5, 127), -128))
