# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 21, 32, 32), "float32"), resize: T.Buffer((1, 21, 128, 128), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(1344, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("resize"):
                    v0 = T.axis.spatial(21, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 16384)
                    v1 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 16384 // 128)
                    v2 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 128)
                    T.reads(X[0, v0, 0:32, 0:32])
                    T.writes(resize[0, v0, v1, v2])
                    resize[0, v0, v1, v2] = (X[0, v0, T.max(T.min(T.Cast("int32", T.floor((T.Cast("float32", v1) + T.float32(0.5)) * T.float32(0.25) - T.float32(0.5))), 31), 0), T.max(T.min(T.Cast("int32", T.floor((T.Cast("float32", v2) + T.float32(0.5)) * T.float32(0.25) - T.float32(0.5))), 31), 0)] * (T.float32(1.0) - ((T.Cast("float32", v2) + T.float32(0.5)) * T.float32(0.25) - T.float32(0.5) - T.Cast("float32", T.Cast("int32", T.floor((T.Cast("float32", v2) + T.float32(0.5)) * T.float32(0.25) - T.float32(0.5)))))) + X[0, v0, T.max(T.min(T.Cast("int32", T.floor((T.Cast("float32", v1) + T.float32(0.5)) * T.float32(0.25) - T.float32(0.5))), 31), 0), T.max(T.min(T.Cast("int32", T.floor((T.Cast("float32", v2) + T.float32(0.5)) * T.float32(0.25) - T.float32(0.5))) + 1, 31), 0)] * ((T.Cast("float32", v2) + T.float32(0.5)) * T.float32(0.25) - T.float32(0.5) - T.Cast("float32", T.Cast("int32", T.floor((T.Cast("float32", v2) + T.float32(0.5)) * T.float32(0.25) - T.float32(0.5)))))) * (T.float32(1.0) - ((T.Cast("float32", v1) + T.float32(0.5)) * T.float32(0.25) - T.float32(0.5) - T.Cast("float32", T.Cast("int32", T.floor((T.Cast("float32", v1) + T.float32(0.5)) * T.float32(0.25) - T.float32(0.5)))))) + (X[0, v0, T.max(T.min(T.Cast("int32", T.floor((T.Cast("float32", v1) + T.float32(0.5)) * T.float32(0.25) - T.float32(0.5))) + 1, 31), 0), T.max(T.min(T.Cast("int32", T.floor((T.Cast("float32", v2) + T.float32(0.5)) * T.float32(0.25) - T.float32(0.5))), 31), 0)] * (T.float32(1.0) - ((T.Cast("float32", v2) + T.float32(0.5)) * T.float32(0.25) - T.float32(0.5) - T.Cast("float32", T.Cast("int32", T.floor((T.Cast("float32", v2) + T.float32(0.5)) * T.float32(0.25) - T.float32(0.5)))))) + X[0, v0, T.max(T.min(T.Cast("int32", T.floor((T.Cast("float32", v1) + T.float32(0.5)) * T.float32(0.25) - T.float32(0.5))) + 1, 31), 0), T.max(T.min(T.Cast("int32", T.floor((T.Cast("float32", v2) + T.float32(0.5)) * T.float32(0.25) - T.float32(0.5))) + 1, 31), 0)] * ((T.Cast("float32", v2) + T.float32(0.5)) * T.float32(0.25) - T.float32(0.5) - T.Cast("float32", T.Cast("int32", T.floor((T.Cast("float32", v2) + T.float32(0.5)) * T.float32(0.25) - T.float32(0.5)))))) * ((T.Cast("float32", v1) + T.float32(0.5)) * T.float32(0.25) - T.float32(0.5) - T.Cast("float32", T.Cast("int32", T.floor((T.Cast("float32", v1) + T.float32(0.5)) * T.float32(0.25) - T.float32(0.5)))))
