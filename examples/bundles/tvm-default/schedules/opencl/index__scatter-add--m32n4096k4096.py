# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((32, 4096), "float32", offset_factor=1), idx: T.Buffer((32, 4096), "int32", offset_factor=1), U: T.Buffer((32, 4096), "float32", offset_factor=1), out_buf: T.Buffer((32, 4096), "float32")):
        T.func_attr({"tirx.noalias": True})
        with T.sblock("scatter_elements_generic"):
            T.reads()
            T.writes()
            T.attr({"pragma_scope": "seq"})
            for v in T.thread_binding(131072, thread="blockIdx.x"):
                out_buf[v // 4096, v % 4096] = X[v // 4096, v % 4096]
            for v in T.thread_binding(32, thread="blockIdx.x"):
                for v_1 in range(4096):
                    out_buf[(v * 4096 + (idx[(v * 4096 + v_1) // 4096, (v * 4096 + v_1) % 4096] + T.Cast("int32", idx[(v * 4096 + v_1) // 4096, (v * 4096 + v_1) % 4096] < 0) * 4096)) // 4096, (v * 4096 + (idx[(v * 4096 + v_1) // 4096, (v * 4096 + v_1) % 4096] + T.Cast("int32", idx[(v * 4096 + v_1) // 4096, (v * 4096 + v_1) % 4096] < 0) * 4096)) % 4096] = out_buf[(v * 4096 + (idx[(v * 4096 + v_1) // 4096, (v * 4096 + v_1) % 4096] + T.Cast("int32", idx[(v * 4096 + v_1) // 4096, (v * 4096 + v_1) % 4096] < 0) * 4096)) // 4096, (v * 4096 + (idx[(v * 4096 + v_1) // 4096, (v * 4096 + v_1) % 4096] + T.Cast("int32", idx[(v * 4096 + v_1) // 4096, (v * 4096 + v_1) % 4096] < 0) * 4096)) % 4096] + U[(v * 4096 + v_1) // 4096, (v * 4096 + v_1) % 4096]
