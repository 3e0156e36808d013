# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((64, 512), "float32", offset_factor=1), out_buf: T.Buffer((64, 512), "float32")):
        T.func_attr({"tirx.noalias": True})
        with T.sblock("logcumsumexp"):
            T.reads()
            T.writes()
            for v in T.thread_binding(64, thread="blockIdx.x"):
                out_buf[v * 512 // 512, v * 512 % 512] = X[v * 512 // 512, v * 512 % 512]
                for v_1 in range(511):
                    out_buf[(v * 512 + (v_1 + 1)) // 512, (v * 512 + (v_1 + 1)) % 512] = T.log(T.exp(out_buf[(v * 512 + (v_1 + 1 - 1)) // 512, (v * 512 + (v_1 + 1 - 1)) % 512]) + T.exp(X[(v * 512 + (v_1 + 1)) // 512, (v * 512 + (v_1 + 1)) % 512]))
