# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((1, 40), "float32"), h: T.Buffer((1, 128), "float32"), c: T.Buffer((1, 128), "float32"), Wx: T.Buffer((512, 40), "float32"), Wh: T.Buffer((512, 128), "float32"), bias: T.Buffer((512,), "float32"), T_hidden: T.Buffer((1, 128), "float32"), T_cell: T.Buffer((1, 128), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_gates_x = T.sblock_alloc_buffer((1, 512))
        T_gates_h = T.sblock_alloc_buffer((1, 512))
        for ax0_fused_0 in T.thread_binding(2, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_gates_x_init"):
                    v0 = T.axis.spatial(512, ax0_fused_0 * 256 + ax0_fused_1)
                    T.reads()
                    T.writes(T_gates_x[0, v0])
                    T_gates_x[0, v0] = T.float32(0.0)
                for ax1 in range(40):
                    with T.sblock("T_gates_x_update"):
                        v0 = T.axis.spatial(512, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(40, ax1)
                        T.reads(T_gates_x[0, v0], x[0, v1], Wx[v0, v1])
                        T.writes(T_gates_x[0, v0])
                        T_gates_x[0, v0] = T_gates_x[0, v0] + x[0, v1] * Wx[v0, v1]
        for ax0_fused_0 in T.thread_binding(2, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_gates_h_init"):
                    v0 = T.axis.spatial(512, ax0_fused_0 * 256 + ax0_fused_1)
                    T.reads()
                    T.writes(T_gates_h[0, v0])
                    T_gates_h[0, v0] = T.float32(0.0)
                for ax1 in range(128):
                    with T.sblock("T_gates_h_update"):
                        v0 = T.axis.spatial(512, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(128, ax1)
                        T.reads(T_gates_h[0, v0], h[0, v1], Wh[v0, v1])
                        T.writes(T_gates_h[0, v0])
                        T_gates_h[0, v0] = T_gates_h[0, v0] + h[0, v1] * Wh[v0, v1]
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_cell"):
                    v0 = T.axis.spatial(128, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 128)
                    T.reads(T_gates_x[0, v0:v0 + 257], T_gates_h[0, v0:v0 + 257], bias[v0:v0 + 257], c[0, v0])
                    T.writes(T_cell[0, v0])
                    T_cell[0, v0] = T.float32(1.0) / (T.float32(1.0) + T.exp((T_gates_x[0, v0 + 128] + T_gates_h[0, v0 + 128] + bias[v0 + 128]) * T.float32(-1.0))) * c[0, v0] + T.float32(1.0) / (T.float32(1.0) + T.exp((T_gates_x[0, v0] + T_gates_h[0, v0] + bias[v0]) * T.float32(-1.0))) * T.tanh(T_gates_x[0, v0 + 256] + T_gates_h[0, v0 + 256] + bias[v0 + 256])
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_hidden"):
                    v0 = T.axis.spatial(128, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 128)
                    T.reads(T_gates_x[0, v0 + 384], T_gates_h[0, v0 + 384], bias[v0 + 384], T_cell[0, v0])
                    T.writes(T_hidden[0, v0])
                    T_hidden[0, v0] = T.float32(1.0) / (T.float32(1.0) + T.exp((T_gates_x[0, v0 + 384] + T_gates_h[0, v0 + 384] + bias[v0 + 384]) * T.float32(-1.0))) * T.tanh(T_cell[0, v0])
