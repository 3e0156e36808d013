# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((64, 1024), "float32", offset_factor=1), out_buf: T.Buffer((64, 1024), "float32")):
        T.func_attr({"tirx.noalias": True})
        with T.sblock("cumsum_generic"):
            T.reads()
            T.writes()
            for v in T.thread_binding(64, thread="blockIdx.x"):
                out_buf[v * 1024 // 1024, v * 1024 % 1024] = X[v * 1024 // 1024, v * 1024 % 1024]
                for v_1 in range(1023):
                    out_buf[(v * 1024 + (v_1 + 1)) // 1024, (v * 1024 + (v_1 + 1)) % 1024] = out_buf[(v * 1024 + (v_1 + 1 - 1)) // 1024, (v * 1024 + (v_1 + 1 - 1)) % 1024] + X[(v * 1024 + (v_1 + 1)) // 1024, (v * 1024 + (v_1 + 1)) % 1024]
