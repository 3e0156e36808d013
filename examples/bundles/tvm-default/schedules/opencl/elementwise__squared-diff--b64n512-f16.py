# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((64, 512), "float16"), B: T.Buffer((64, 512), "float16"), T_squared_diff_f16: T.Buffer((64, 512), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(128, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_squared_diff_f16"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 512)
                    v1 = T.axis.spatial(512, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 512)
                    T.reads(A[v0, v1], B[v0, v1])
                    T.writes(T_squared_diff_f16[v0, v1])
                    T_squared_diff_f16[v0, v1] = T.Cast("float16", (T.Cast("float32", A[v0, v1]) - T.Cast("float32", B[v0, v1])) * (T.Cast("float32", A[v0, v1]) - T.Cast("float32", B[v0, v1])))
