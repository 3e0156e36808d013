# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((8, 512), "float32", offset_factor=1), idx: T.Buffer((8, 64), "int32", offset_factor=1), U: T.Buffer((8, 64), "float32", offset_factor=1), out_buf: T.Buffer((8, 512), "float32")):
        T.func_attr({"tirx.noalias": True})
        with T.sblock("scatter_elements_generic"):
            T.reads()
            T.writes()
            T.attr({"pragma_scope": "seq"})
            for v in T.thread_binding(4096, thread="blockIdx.x"):
                out_buf[v // 512, v % 512] = X[v // 512, v % 512]
            for v in T.thread_binding(8, thread="blockIdx.x"):
                for v_1 in range(64):
                    out_buf[(v * 512 + (idx[(v * 64 + v_1) // 64, (v * 64 + v_1) % 64] + T.Cast("int32", idx[(v * 64 + v_1) // 64, (v * 64 + v_1) % 64] < 0) * 512)) // 512, (v * 512 + (idx[(v * 64 + v_1) // 64, (v * 64 + v_1) % 64] + T.Cast("int32", idx[(v * 64 + v_1) // 64, (v * 64 + v_1) % 64] < 0) * 512)) % 512] = U[(v * 64 + v_1) // 64, (v * 64 + v_1) % 64]
