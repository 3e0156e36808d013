# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 1, 8000), "float32"), resize: T.Buffer((1, 1, 16000), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_fused_0 in T.thread_binding(63, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("resize"):
                    v0 = T.axis.spatial(16000, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 16000)
                    T.reads(X[0, 0, 0:8000])
                    T.writes(resize[0, 0, v0])
                    resize[0, 0, v0] = X[0, 0, T.max(T.min(T.Cast("int32", T.floor((T.Cast("float32", v0) + T.float32(0.5)) * T.float32(0.5) - T.float32(0.5))), 7999), 0)] * (T.float32(1.0) - ((T.Cast("float32", v0) + T.float32(0.5)) * T.float32(0.5) - T.float32(0.5) - T.Cast("float32", T.Cast("int32", T.floor((T.Cast("float32", v0) + T.float32(0.5)) * T.float32(0.5) - T.float32(0.5)))))) + X[0, 0, T.max(T.min(T.Cast("int32", T.floor((T.Cast("float32", v0) + T.float32(0.5)) * T.float32(0.5) - T.float32(0.5))) + 1, 7999), 0)] * ((T.Cast("float32", v0) + T.float32(0.5)) * T.float32(0.5) - T.float32(0.5) - T.Cast("float32", T.Cast("int32", T.floor((T.Cast("float32", v0) + T.float32(0.5)) * T.float32(0.5) - T.float32(0.5)))))
