# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((1, 64, 8, 8), "int8"), B: T.Buffer((1, 64, 8, 8), "int8"), T_qadd: T.Buffer((1, 64, 8, 8), "int8")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_qadd"):
                    v0 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 64)
                    v1 = T.axis.spatial(8, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64 // 8)
                    v2 = T.axis.spatial(8, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 8)
                    T.reads(B[0, v0, v1, v2], A[0, v0, v1, v2])
                    T.writes(T_qadd[0, v0, v1, v2])
                    T_qadd[0, v0, v1, v2] = T.Cast("int8", T.max(T.min(T.Cast("int32", T.Cast("int64", T.Cast("int32", B[0, v0, v1, v2])) * T.int64(1610612736) + T.Cast("int64", T.Cast("int32", A[0, v0, v1, v2])) * T.int64(1073741824) + T.int64(14495514624) >> T.int64(31)) - 2, 127), -128))
