# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((64, 2048), "float32", offset_factor=1), out_buf: T.Buffer((64, 2048), "float32")):
        T.func_attr({"tirx.noalias": True})
        with T.sblock("cumsum_generic"):
            T.reads()
            T.writes()
            for v in T.thread_binding(64, thread="blockIdx.x"):
                out_buf[v * 2048 // 2048, v * 2048 % 2048] = T.float32(0.0)
                for v_1 in range(2047):
                    out_buf[(v * 2048 + (v_1 + 1)) // 2048, (v * 2048 + (v_1 + 1)) % 2048] = out_buf[(v * 2048 + (v_1 + 1 - 1)) // 2048, (v * 2048 + (v_1 + 1 - 1)) % 2048] + X[(v * 2048 + (v_1 + 1 - 1)) // 2048, (v * 2048 + (v_1 + 1 - 1)) % 2048]
