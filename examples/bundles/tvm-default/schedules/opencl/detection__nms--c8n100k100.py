# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(boxes: T.Buffer((8, 100, 4), "float32", offset_factor=1), out_buf: T.Buffer((8, 100), "int32")):
        T.func_attr({"tirx.noalias": True})
        with T.sblock("T_nms"):
            T.reads()
            T.writes()
            for v in T.thread_binding(8, thread="blockIdx.x"):
                buffer: T.int32
                buffer_1: T.int32
                buffer = 0
                for v_1 in range(100):
                    out_buf[v, v_1] = -1
                for v_1 in range(100):
                    if buffer < 100:
                        buffer_1 = 1
                        for v_2 in range(100):
                            if v_2 < buffer and buffer_1 == 1:
                                if T.max(T.min(boxes[v, v_1, 0] + boxes[v, v_1, 2], boxes[v, out_buf[v, v_2], 0] + boxes[v, out_buf[v, v_2], 2]) - T.max(boxes[v, v_1, 0], boxes[v, out_buf[v, v_2], 0]), T.float32(0.0)) * T.max(T.min(boxes[v, v_1, 1] + boxes[v, v_1, 3], boxes[v, out_buf[v, v_2], 1] + boxes[v, out_buf[v, v_2], 3]) - T.max(boxes[v, v_1, 1], boxes[v, out_buf[v, v_2], 1]), T.float32(0.0)) / (boxes[v, v_1, 2] * boxes[v, v_1, 3] + boxes[v, out_buf[v, v_2], 2] * boxes[v, out_buf[v, v_2], 3] - T.max(T.min(boxes[v, v_1, 0] + boxes[v, v_1, 2], boxes[v, out_buf[v, v_2], 0] + boxes[v, out_buf[v, v_2], 2]) - T.max(boxes[v, v_1, 0], boxes[v, out_buf[v, v_2], 0]), T.float32(0.0)) * T.max(T.min(boxes[v, v_1, 1] + boxes[v, v_1, 3], boxes[v, out_buf[v, v_2], 1] + boxes[v, out_buf[v, v_2], 3]) - T.max(boxes[v, v_1, 1], boxes[v, out_buf[v, v_2], 1]), T.float32(0.0))) > T.float32(0.50110864745011086):
                                    buffer_1 = 0
                        if buffer_1 == 1:
                            out_buf[v, buffer] = v_1
                            buffer = buffer + 1
