# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(data_buf: T.Buffer((16, 1000), "float32", align=8), out_buf: T.Buffer((16, 1000), "int32", align=8)):
        T.func_attr({"tirx.noalias": True})
        with T.sblock("argsort_cpu"):
            T.reads()
            T.writes()
            T.call_packed("tvm.contrib.sort.argsort", T.tvm_stack_make_array(data_buf.data, T.tvm_stack_make_shape(16, 1000), 0, 2, T.float32(0.0), 0), T.tvm_stack_make_array(out_buf.data, T.tvm_stack_make_shape(16, 1000), 0, 2, 0, 0), -1, T.bool(True))
