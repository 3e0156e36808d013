# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((64, 1024), "float32", offset_factor=1), idx: T.Buffer((64, 256), "int32", offset_factor=1), U: T.Buffer((64, 256), "float32", offset_factor=1), out_buf: T.Buffer((64, 1024), "float32")):
        T.func_attr({"tirx.noalias": True})
        with T.sblock("scatter_elements_generic"):
            T.reads()
            T.writes()
            T.attr({"pragma_scope": "seq"})
            for v in T.thread_binding(65536, thread="blockIdx.x"):
                out_buf[v // 1024, v % 1024] = X[v // 1024, v % 1024]
            for v in T.thread_binding(64, thread="blockIdx.x"):
                for v_1 in range(256):
                    out_buf[(v * 1024 + (idx[(v * 256 + v_1) // 256, (v * 256 + v_1) % 256] + T.Cast("int32", idx[(v * 256 + v_1) // 256, (v * 256 + v_1) % 256] < 0) * 1024)) // 1024, (v * 1024 + (idx[(v * 256 + v_1) // 256, (v * 256 + v_1) % 256] + T.Cast("int32", idx[(v * 256 + v_1) // 256, (v * 256 + v_1) % 256] < 0) * 1024)) % 1024] = out_buf[(v * 1024 + (idx[(v * 256 + v_1) // 256, (v * 256 + v_1) % 256] + T.Cast("int32", idx[(v * 256 + v_1) // 256, (v * 256 + v_1) % 256] < 0) * 1024)) // 1024, (v * 1024 + (idx[(v * 256 + v_1) // 256, (v * 256 + v_1) % 256] + T.Cast("int32", idx[(v * 256 + v_1) // 256, (v * 256 + v_1) % 256] < 0) * 1024)) % 1024] + U[(v * 256 + v_1) // 256, (v * 256 + v_1) % 256]
