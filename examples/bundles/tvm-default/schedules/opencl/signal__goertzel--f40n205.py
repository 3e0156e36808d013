# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((40, 205), "float32", offset_factor=1), out_buf: T.Buffer((40, 8), "float32")):
        T.func_attr({"tirx.noalias": True})
        with T.sblock("T_goertzel"):
            T.reads()
            T.writes()
            for v in T.thread_binding(40, thread="blockIdx.x"):
                buffer = T.alloc_local((3,))
                buffer[0] = T.float32(0.0)
                buffer[1] = T.float32(0.0)
                for v_1 in range(205):
                    buffer[2] = X[v, v_1] + T.float32(1.7032753991180369) * buffer[0] - buffer[1]
                    buffer[1] = buffer[0]
                    buffer[0] = buffer[2]
                out_buf[v, 0] = buffer[0] * buffer[0] + buffer[1] * buffer[1] - T.float32(1.7032753991180369) * buffer[0] * buffer[1]
                buffer_1 = T.alloc_local((3,))
                buffer_1[0] = T.float32(0.0)
                buffer_1[1] = T.float32(0.0)
                for v_1 in range(205):
                    buffer_1[2] = X[v, v_1] + T.float32(1.6358587215334353) * buffer_1[0] - buffer_1[1]
                    buffer_1[1] = buffer_1[0]
                    buffer_1[0] = buffer_1[2]
                out_buf[v, 1] = buffer_1[0] * buffer_1[0] + buffer_1[1] * buffer_1[1] - T.float32(1.6358587215334353) * buffer_1[0] * buffer_1[1]
                buffer_2 = T.alloc_local((3,))
                buffer_2[0] = T.float32(0.0)
                buffer_2[1] = T.float32(0.0)
                for v_1 in range(205):
                    buffer_2[2] = X[v, v_1] + T.float32(1.5622970451418507) * buffer_2[0] - buffer_2[1]
                    buffer_2[1] = buffer_2[0]
                    buffer_2[0] = buffer_2[2]
                out_buf[v, 2] = buffer_2[0] * buffer_2[0] + buffer_2[1] * buffer_2[1] - T.float32(1.5622970451418507) * buffer_2[0] * buffer_2[1]
                buffer_3 = T.alloc_local((3,))
                buffer_3[0] = T.float32(0.0)
                buffer_3[1] = T.float32(0.0)
                for v_1 in range(205):
                    buffer_3[2] = X[v, v_1] + T.float32(1.4828666996823465) * buffer_3[0] - buffer_3[1]
                    buffer_3[1] = buffer_3[0]
                    buffer_3[0] = buffer_3[2]
                out_buf[v, 3] = buffer_3[0] * buffer_3[0] + buffer_3[1] * buffer_3[1] - T.float32(1.4828666996823465) * buffer_3[0] * buffer_3[1]
                buffer_4 = T.alloc_local((3,))
                buffer_4[0] = T.float32(0.0)
                buffer_4[1] = T.float32(0.0)
                for v_1 in range(205):
                    buffer_4[2] = X[v, v_1] + T.float32(1.1631380578303314) * buffer_4[0] - buffer_4[1]
                    buffer_4[1] = buffer_4[0]
                    buffer_4[0] = buffer_4[2]
                out_buf[v, 4] = buffer_4[0] * buffer_4[0] + buffer_4[1] * buffer_4[1] - T.float32(1.1631380578303314) * buffer_4[0] * buffer_4[1]
                buffer_5 = T.alloc_local((3,))
                buffer_5[0] = T.float32(0.0)
                buffer_5[1] = T.float32(0.0)
                for v_1 in range(205):
                    buffer_5[2] = X[v, v_1] + T.float32(1.0088347160592528) * buffer_5[0] - buffer_5[1]
                    buffer_5[1] = buffer_5[0]
                    buffer_5[0] = buffer_5[2]
                out_buf[v, 5] = buffer_5[0] * buffer_5[0] + buffer_5[1] * buffer_5[1] - T.float32(1.0088347160592528) * buffer_5[0] * buffer_5[1]
                buffer_6 = T.alloc_local((3,))
                buffer_6[0] = T.float32(0.0)
                buffer_6[1] = T.float32(0.0)
                for v_1 in range(205):
                    buffer_6[2] = X[v, v_1] + T.float32(0.79007435295170847) * buffer_6[0] - buffer_6[1]
                    buffer_6[1] = buffer_6[0]
                    buffer_6[0] = buffer_6[2]
                out_buf[v, 6] = buffer_6[0] * buffer_6[0] + buffer_6[1] * buffer_6[1] - T.float32(0.79007435295170847) * buffer_6[0] * buffer_6[1]
                buffer_7 = T.alloc_local((3,))
                buffer_7[0] = T.float32(0.0)
                buffer_7[1] = T.float32(0.0)
                for v_1 in range(205):
                    buffer_7[2] = X[v, v_1] + T.float32(0.55945368305233567) * buffer_7[0] - buffer_7[1]
                    buffer_7[1] = buffer_7[0]
                    buffer_7[0] = buffer_7[2]
                out_buf[v, 7] = buffer_7[0] * buffer_7[0] + buffer_7[1] * buffer_7[1] - T.float32(0.55945368305233567) * buffer_7[0] * buffer_7[1]
