# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((256, 8, 64), "float16"), T_rope_f16: T.Buffer((256, 8, 64), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(512, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_rope_f16"):
                    v0 = T.axis.spatial(256, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 512)
                    v1 = T.axis.spatial(8, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 512 // 64)
                    v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                    T.reads(X[v0, v1, v2 // 2 * 2:v2 // 2 * 2 + 2])
                    T.writes(T_rope_f16[v0, v1, v2])
                    T_rope_f16[v0, v1, v2] = T.Cast("float16", T.if_then_else(v2 % 2 == 0, T.Cast("float32", X[v0, v1, v2 // 2 * 2]) * T.cos(T.Cast("float32", v0) * T.pow(T.float32(10000.0), T.float32(-2.0) * T.Cast("float32", v2 // 2) / T.float32(64.0))) - T.Cast("float32", X[v0, v1, v2 // 2 * 2 + 1]) * T.sin(T.Cast("float32", v0) * T.pow(T.float32(10000.0), T.float32(-2.0) * T.Cast("float32", v2 // 2) / T.float32(64.0))), T.Cast("float32", X[v0, v1, v2 // 2 * 2]) * T.sin(T.Cast("float32", v0) * T.pow(T.float32(10000.0), T.float32(-2.0) * T.Cast("float32", v2 // 2) / T.float32(64.0))) + T.Cast("float32", X[v0, v1, v2 // 2 * 2 + 1]) * T.cos(T.Cast("float32", v0) * T.pow(T.float32(10000.0), T.float32(-2.0) * T.Cast("float32", v2 // 2) / T.float32(64.0)))))
