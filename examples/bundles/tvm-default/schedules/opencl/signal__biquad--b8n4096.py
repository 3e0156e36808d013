# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((8, 4096), "float32", offset_factor=1), out_buf: T.Buffer((8, 4096), "float32")):
        T.func_attr({"tirx.noalias": True})
        with T.sblock("T_biquad"):
            T.reads()
            T.writes()
            for v in T.thread_binding(8, thread="blockIdx.x"):
                out_buf[v, 0] = T.float32(0.029954582208092478) * x[v, 0]
                out_buf[v, 1] = T.float32(0.029954582208092478) * x[v, 1] + T.float32(0.059909164416184955) * x[v, 0] - T.float32(-1.4542435862515848) * out_buf[v, 0]
                for v_1 in range(2, 4096):
                    out_buf[v, v_1] = T.float32(0.029954582208092478) * x[v, v_1] + T.float32(0.059909164416184955) * x[v, v_1 - 1] + T.float32(0.029954582208092478) * x[v, v_1 - 2] - T.float32(-1.4542435862515848) * out_buf[v, v_1 - 1] - T.float32(0.57406191508395477) * out_buf[v, v_1 - 2]
