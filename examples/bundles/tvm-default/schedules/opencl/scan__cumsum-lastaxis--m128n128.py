# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((128, 128), "float32", offset_factor=1), out_buf: T.Buffer((128, 128), "float32")):
        T.func_attr({"tirx.noalias": True})
        with T.sblock("cumsum_generic"):
            T.reads()
            T.writes()
            for v in T.thread_binding(128, thread="blockIdx.x"):
                out_buf[v * 128 // 128, v * 128 % 128] = X[v * 128 // 128, v * 128 % 128]
                for v_1 in range(127):
                    out_buf[(v * 128 + (v_1 + 1)) // 128, (v * 128 + (v_1 + 1)) % 128] = out_buf[(v * 128 + (v_1 + 1 - 1)) // 128, (v * 128 + (v_1 + 1 - 1)) % 128] + X[(v * 128 + (v_1 + 1)) // 128, (v * 128 + (v_1 + 1)) % 128]
