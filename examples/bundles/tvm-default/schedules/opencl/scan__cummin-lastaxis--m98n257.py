# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((98, 257), "float32", offset_factor=1), out_buf: T.Buffer((98, 257), "float32")):
        T.func_attr({"tirx.noalias": True})
        with T.sblock("cummin"):
            T.reads()
            T.writes()
            for v in T.thread_binding(98, thread="blockIdx.x"):
                out_buf[v * 257 // 257, v * 257 % 257] = X[v * 257 // 257, v * 257 % 257]
                for v_1 in range(256):
                    out_buf[(v * 257 + (v_1 + 1)) // 257, (v * 257 + (v_1 + 1)) % 257] = T.min(out_buf[(v * 257 + (v_1 + 1 - 1)) // 257, (v * 257 + (v_1 + 1 - 1)) % 257], X[(v * 257 + (v_1 + 1)) // 257, (v * 257 + (v_1 + 1)) % 257])
