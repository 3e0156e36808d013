# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((32, 64), "float32"), h: T.Buffer((32, 128), "float32"), Wx: T.Buffer((384, 64), "float32"), Wh: T.Buffer((384, 128), "float32"), bx: T.Buffer((384,), "float32"), bh: T.Buffer((384,), "float32"), T_gru: T.Buffer((32, 128), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_gates_x = T.sblock_alloc_buffer((32, 384))
        T_gates_h = T.sblock_alloc_buffer((32, 384))
        for ax0_ax1_fused_0 in T.thread_binding(48, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_gates_x_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 384)
                    v1 = T.axis.spatial(384, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 384)
                    T.reads()
                    T.writes(T_gates_x[v0, v1])
                    T_gates_x[v0, v1] = T.float32(0.0)
                for ax2 in range(64):
                    with T.sblock("T_gates_x_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 384)
                        v1 = T.axis.spatial(384, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 384)
                        v2 = T.axis.reduce(64, ax2)
                        T.reads(T_gates_x[v0, v1], x[v0, v2], Wx[v1, v2])
                        T.writes(T_gates_x[v0, v1])
                        T_gates_x[v0, v1] = T_gates_x[v0, v1] + x[v0, v2] * Wx[v1, v2]
        for ax0_ax1_fused_0 in T.thread_binding(48, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_gates_h_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 384)
                    v1 = T.axis.spatial(384, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 384)
                    T.reads()
                    T.writes(T_gates_h[v0, v1])
                    T_gates_h[v0, v1] = T.float32(0.0)
                for ax2 in range(128):
                    with T.sblock("T_gates_h_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 384)
                        v1 = T.axis.spatial(384, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 384)
                        v2 = T.axis.reduce(128, ax2)
                        T.reads(T_gates_h[v0, v1], h[v0, v2], Wh[v1, v2])
                        T.writes(T_gates_h[v0, v1])
                        T_gates_h[v0, v1] = T_gates_h[v0, v1] + h[v0, v2] * Wh[v1, v2]
        for ax0_ax1_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_gru"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                    v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                    T.reads(T_gates_x[v0, v1:v1 + 257], bx[v1:v1 + 257], T_gates_h[v0, v1:v1 + 257], bh[v1:v1 + 257], h[v0, v1])
                    T.writes(T_gru[v0, v1])
                    T_gru[v0, v1] = (T.float32(1.0) - T.float32(1.0) / (T.float32(1.0) + T.exp((T_gates_x[v0, v1 + 128] + bx[v1 + 128] + (T_gates_h[v0, v1 + 128] + bh[v1 + 128])) * T.float32(-1.0)))) * T.tanh(T_gates_x[v0, v1 + 256] + bx[v1 + 256] + T.float32(1.0) / (T.float32(1.0) + T.exp((T_gates_x[v0, v1] + bx[v1] + (T_gates_h[v0, v1] + bh[v1])) * T.float32(-1.0))) * (T_gates_h[v0, v1 + 256] + bh[v1 + 256])) + T.float32(1.0) / (T.float32(1.0) + T.exp((T_gates_x[v0, v1 + 128] + bx[v1 + 128] + (T_gates_h[v0, v1 + 128] + bh[v1 + 128])) * T.float32(-1.0))) * h[v0, v1]
