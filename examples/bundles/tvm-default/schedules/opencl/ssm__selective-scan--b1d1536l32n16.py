# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(u: T.Buffer((1, 1536, 32), "float32", offset_factor=1), delta: T.Buffer((1, 1536, 32), "float32", offset_factor=1), A_log: T.Buffer((1536, 16), "float32", offset_factor=1), B: T.Buffer((1, 16, 32), "float32", offset_factor=1), C: T.Buffer((1, 16, 32), "float32", offset_factor=1), D: T.Buffer((1536,), "float32", offset_factor=1), out_buf: T.Buffer((1, 1536, 32), "float32")):
        T.func_attr({"tirx.noalias": True})
        with T.sblock("T_selective_scan"):
            T.reads()
            T.writes()
            for v in T.thread_binding(1536, thread="blockIdx.x"):
                buffer = T.alloc_local((16,))
                buffer_1 = T.alloc_local((16,))
                buffer_2: T.float32
                for v_1 in range(16):
                    buffer[v_1] = T.exp(A_log[v % 1536, v_1]) * T.float32(-1.0)
                    buffer_1[v_1] = T.float32(0.0)
                for v_1 in range(32):
                    buffer_2 = T.float32(0.0)
                    for v_2 in range(16):
                        buffer_1[v_2] = T.exp(T.log(T.float32(1.0) + T.exp(delta[v // 1536, v % 1536, v_1])) * buffer[v_2]) * buffer_1[v_2] + T.log(T.float32(1.0) + T.exp(delta[v // 1536, v % 1536, v_1])) * B[v // 1536, v_2, v_1] * u[v // 1536, v % 1536, v_1]
                        buffer_2 = buffer_2 + C[v // 1536, v_2, v_1] * buffer_1[v_2]
                    out_buf[v // 1536, v % 1536, v_1] = buffer_2 + D[v % 1536] * u[v // 1536, v % 1536, v_1]
