# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((64, 1024), "float32"), M: T.Buffer((64, 1024), "int8"), out_buf: T.Buffer((64, 1024), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for u_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for u_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("cumsum_generic"):
                    T.where(u_fused_0 * 256 + u_fused_1 < 1)
                    T.reads()
                    T.writes()
                    for v in T.parallel(64):
                        out_buf[v * 1024 // 1024, v * 1024 % 1024] = T.if_then_else(T.Cast("int32", M[v * 1024 // 1024, v * 1024 % 1024]) != 0, X[v * 1024 // 1024, v * 1024 % 1024], T.float32(0.0))
                        for v_1 in range(1023):
                            out_buf[(v * 1024 + (v_1 + 1)) // 1024, (v * 1024 + (v_1 + 1)) % 1024] = out_buf[(v * 1024 + (v_1 + 1 - 1)) // 1024, (v * 1024 + (v_1 + 1 - 1)) % 1024] + T.if_then_else(T.Cast("int32", M[(v * 1024 + (v_1 + 1)) // 1024, (v * 1024 + (v_1 + 1)) % 1024]) != 0, X[(v * 1024 + (v_1 + 1)) // 1024, (v * 1024 + (v_1 + 1)) % 1024], T.float32(0.0))
