# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((256, 64), "float32", offset_factor=1), out_buf: T.Buffer((256, 64), "float32")):
        T.func_attr({"tirx.noalias": True})
        with T.sblock("cumprod_generic"):
            T.reads()
            T.writes()
            for v in T.thread_binding(256, thread="blockIdx.x"):
                out_buf[v * 64 // 64, v * 64 % 64] = X[v * 64 // 64, v * 64 % 64]
                for v_1 in range(63):
                    out_buf[(v * 64 + (v_1 + 1)) // 64, (v * 64 + (v_1 + 1)) % 64] = out_buf[(v * 64 + (v_1 + 1 - 1)) // 64, (v * 64 + (v_1 + 1 - 1)) % 64] * X[(v * 64 + (v_1 + 1)) // 64, (v * 64 + (v_1 + 1)) % 64]
