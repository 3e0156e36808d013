# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(data_buf: T.Buffer((32, 32000), "float32", align=8), value_buf: T.Buffer((32, 40), "float32", align=8)):
        T.func_attr({"tirx.noalias": True})
        with T.sblock("topk_cpu"):
            T.reads()
            T.writes()
            T.call_packed("tvm.contrib.sort.topk", T.tvm_stack_make_array(data_buf.data, T.tvm_stack_make_shape(32, 32000), 0, 2, T.float32(0.0), 0), T.tvm_stack_make_array(value_buf.data, T.tvm_stack_make_shape(32, 40), 0, 2, T.float32(0.0), 0), 40, -1, "values", T.bool(False))
