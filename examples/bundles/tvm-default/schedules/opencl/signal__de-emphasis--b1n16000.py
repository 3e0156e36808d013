# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((1, 16000), "float32", offset_factor=1), out_buf: T.Buffer((1, 16000), "float32")):
        T.func_attr({"tirx.noalias": True})
        with T.sblock("T_deemphasis"):
            T.reads()
            T.writes()
            for v in T.thread_binding(1, thread="blockIdx.x"):
                out_buf[v, 0] = x[v, 0]
                for v_1 in range(15999):
                    out_buf[v, v_1 + 1] = x[v, v_1 + 1] + T.float32(0.96999999999999997) * out_buf[v, v_1]
