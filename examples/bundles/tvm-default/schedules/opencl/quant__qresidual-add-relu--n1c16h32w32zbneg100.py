# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((1, 16, 32, 32), "int8"), B: T.Buffer((1, 16, 32, 32), "int8"), T_qadd_relu: T.Buffer((1, 16, 32, 32), "int8")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(64, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_qadd_relu"):
                    v0 = T.axis.spatial(16, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 1024)
                    v1 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 1024 // 32)
                    v2 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32)
                    T.reads(A[0, v0, v1, v2], B[0, v0, v1, v2])
                    T.writes(T_qadd_relu[0, v0, v1, v2])
                    T_qadd_relu[0, v0, v1, v2] = T.Cast("int8", T.max(T.min(T.Cast("int32", (((T.Cast("int64", A[0, v0, v1, v2]) - T.int64(5) << T.int64(20)) * T.int64(1073741824) + T.int64(1073741824) >> T.int64(31)) * T.int64(1503238554) + ((T.Cast("int64", B[0, v0, v1, v2]) + T.int64(100) << T.int64(20)) * T.int64(1717986918) + T.int64(2147483648) >> T.int64(32)) * T.int64(1503238554) + T.int64(562949953421312) >> T.int64(50)) - T.int64(100)), 127), -100))
