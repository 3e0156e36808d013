# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((16, 128), "float32"), h: T.Buffer((16, 256), "float32"), c: T.Buffer((16, 256), "float32"), Wx: T.Buffer((1024, 128), "float32"), Wh: T.Buffer((1024, 256), "float32"), bias: T.Buffer((1024,), "float32"), T_hidden: T.Buffer((16, 256), "float32"), T_cell: T.Buffer((16, 256), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_gates_x = T.sblock_alloc_buffer((16, 1024))
        T_gates_h = T.sblock_alloc_buffer((16, 1024))
        for ax0_ax1_fused_0 in T.thread_binding(64, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_gates_x_init"):
                    v0 = T.axis.spatial(16, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1024)
                    v1 = T.axis.spatial(1024, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1024)
                    T.reads()
                    T.writes(T_gates_x[v0, v1])
                    T_gates_x[v0, v1] = T.float32(0.0)
                for ax2 in range(128):
                    with T.sblock("T_gates_x_update"):
                        v0 = T.axis.spatial(16, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1024)
                        v1 = T.axis.spatial(1024, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1024)
                        v2 = T.axis.reduce(128, ax2)
                        T.reads(T_gates_x[v0, v1], x[v0, v2], Wx[v1, v2])
                        T.writes(T_gates_x[v0, v1])
                        T_gates_x[v0, v1] = T_gates_x[v0, v1] + x[v0, v2] * Wx[v1, v2]
        for ax0_ax1_fused_0 in T.thread_binding(64, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_gates_h_init"):
                    v0 = T.axis.spatial(16, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1024)
                    v1 = T.axis.spatial(1024, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1024)
                    T.reads()
                    T.writes(T_gates_h[v0, v1])
                    T_gates_h[v0, v1] = T.float32(0.0)
                for ax2 in range(256):
                    with T.sblock("T_gates_h_update"):
                        v0 = T.axis.spatial(16, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1024)
                        v1 = T.axis.spatial(1024, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1024)
                        v2 = T.axis.reduce(256, ax2)
                        T.reads(T_gates_h[v0, v1], h[v0, v2], Wh[v1, v2])
                        T.writes(T_gates_h[v0, v1])
                        T_gates_h[v0, v1] = T_gates_h[v0, v1] + h[v0, v2] * Wh[v1, v2]
        for ax0_ax1_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_cell"):
                    v0 = T.axis.spatial(16, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 256)
                    v1 = T.axis.spatial(256, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 256)
                    T.reads(T_gates_x[v0, v1:v1 + 513], T_gates_h[v0, v1:v1 + 513], bias[v1:v1 + 513], c[v0, v1])
                    T.writes(T_cell[v0, v1])
                    T_cell[v0, v1] = T.float32(1.0) / (T.float32(1.0) + T.exp((T_gates_x[v0, v1 + 256] + T_gates_h[v0, v1 + 256] + bias[v1 + 256]) * T.float32(-1.0))) * c[v0, v1] + T.float32(1.0) / (T.float32(1.0) + T.exp((T_gates_x[v0, v1] + T_gates_h[v0, v1] + bias[v1]) * T.float32(-1.0))) * T.tanh(T_gates_x[v0, v1 + 512] + T_gates_h[v0, v1 + 512] + bias[v1 + 512])
        for ax0_ax1_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_hidden"):
                    v0 = T.axis.spatial(16, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 256)
                    v1 = T.axis.spatial(256, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 256)
                    T.reads(T_gates_x[v0, v1 + 768], T_gates_h[v0, v1 + 768], bias[v1 + 768], T_cell[v0, v1])
                    T.writes(T_hidden[v0, v1])
                    T_hidden[v0, v1] = T.float32(1.0) / (T.float32(1.0) + T.exp((T_gates_x[v0, v1 + 768] + T_gates_h[v0, v1 + 768] + bias[v1 + 768]) * T.float32(-1.0))) * T.tanh(T_cell[v0, v1])
