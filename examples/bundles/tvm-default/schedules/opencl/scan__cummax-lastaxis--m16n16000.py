# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((16, 16000), "float32", offset_factor=1), out_buf: T.Buffer((16, 16000), "float32")):
        T.func_attr({"tirx.noalias": True})
        with T.sblock("cummax"):
            T.reads()
            T.writes()
            for v in T.thread_binding(16, thread="blockIdx.x"):
                out_buf[v * 16000 // 16000, v * 16000 % 16000] = X[v * 16000 // 16000, v * 16000 % 16000]
                for v_1 in range(15999):
                    out_buf[(v * 16000 + (v_1 + 1)) // 16000, (v * 16000 + (v_1 + 1)) % 16000] = T.max(out_buf[(v * 16000 + (v_1 + 1 - 1)) // 16000, (v * 16000 + (v_1 + 1 - 1)) % 16000], X[(v * 16000 + (v_1 + 1)) // 16000, (v * 16000 + (v_1 + 1)) % 16000])
