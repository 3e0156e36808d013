# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 32, 33, 33), "float32"), resize: T.Buffer((1, 32, 65, 65), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(529, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("resize"):
                    v0 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 4225)
                    v1 = T.axis.spatial(65, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 4225 // 65)
                    v2 = T.axis.spatial(65, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 65)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 135200)
                    T.reads(X[0, v0, 0:33, 0:33])
                    T.writes(resize[0, v0, v1, v2])
                    resize[0, v0, v1, v2] = (X[0, v0, T.max(T.min(T.Cast("int32", T.floor(T.float32(0.5) * T.Cast("float32", v1))), 32), 0), T.max(T.min(T.Cast("int32", T.floor(T.float32(0.5) * T.Cast("float32", v2))), 32), 0)] * (T.float32(1.0) - (T.float32(0.5) * T.Cast("float32", v2) - T.Cast("float32", T.Cast("int32", T.floor(T.float32(0.5) * T.Cast("float32", v2)))))) + X[0, v0, T.max(T.min(T.Cast("int32", T.floor(T.float32(0.5) * T.Cast("float32", v1))), 32), 0), T.max(T.min(T.Cast("int32", T.floor(T.float32(0.5) * T.Cast("float32", v2))) + 1, 32), 0)] * (T.float32(0.5) * T.Cast("float32", v2) - T.Cast("float32", T.Cast("int32", T.floor(T.float32(0.5) * T.Cast("float32", v2)))))) * (T.float32(1.0) - (T.float32(0.5) * T.Cast("float32", v1) - T.Cast("float32", T.Cast("int32", T.floor(T.float32(0.5) * T.Cast("float32", v1)))))) + (X[0, v0, T.max(T.min(T.Cast("int32", T.floor(T.float32(0.5) * T.Cast("float32", v1))) + 1, 32), 0), T.max(T.min(T.Cast("int32", T.floor(T.float32(0.5) * T.Cast("float32", v2))), 32), 0)] * (T.float32(1.0) - (T.float32(0.5) * T.Cast("float32", v2) - T.Cast("float32", T.Cast("int32", T.floor(T.float32(0.5) * T.Cast("float32", v2)))))) + X[0, v0, T.max(T.min(T.Cast("int32", T.floor(T.float32(0.5) * T.Cast("float32", v1))) + 1, 32), 0), T.max(T.min(T.Cast("int32", T.floor(T.float32(0.5) * T.Cast("float32", v2))) + 1, 32), 0)] * (T.float32(0.5) * T.Cast("float32", v2) - T.Cast("float32", T.Cast("int32", T.floor(T.float32(0.5) * T.Cast("float32", v2)))))) * (T.float32(0.5) * T.Cast("float32", v1) - T.Cast("float32", T.Cast("int32", T.floor(T.float32(0.5) * T.Cast("float32", v1)))))
