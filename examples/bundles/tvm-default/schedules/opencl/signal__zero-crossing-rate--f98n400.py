# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((98, 400), "float32"), T_zcr: T.Buffer((98,), "float32")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        T_crossings = T.sblock_alloc_buffer((98,))
        for f_0 in T.thread_binding(1, thread="blockIdx.x"):
            for f_1 in T.thread_binding(256, thread="threadIdx.x"):
                for i in range(1, 400):
                    with T.sblock("T_crossings"):
                        v_f = T.axis.spatial(98, f_0 * 256 + f_1)
                        v_i = T.axis.reduce((1, 400), i - 1 + 1)
                        T.where(f_0 * 256 + f_1 < 98)
                        T.reads(X[v_f, v_i - 1:v_i - 1 + 2])
                        T.writes(T_crossings[v_f])
                        with T.init():
                            T_crossings[v_f] = T.float32(0.0)
                        T_crossings[v_f] = T_crossings[v_f] + T.if_then_else(X[v_f, v_i] * X[v_f, v_i - 1] < T.float32(0.0), T.float32(1.0), T.float32(0.0))
        for f_0 in T.thread_binding(1, thread="blockIdx.x"):
            for f_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_zcr"):
                    v_f = T.axis.spatial(98, f_0 * 256 + f_1)
                    T.where(f_0 * 256 + f_1 < 98)
                    T.reads(T_crossings[v_f])
                    T.writes(T_zcr[v_f])
                    T_zcr[v_f] = T_crossings[v_f] / T.float32(400.0)
