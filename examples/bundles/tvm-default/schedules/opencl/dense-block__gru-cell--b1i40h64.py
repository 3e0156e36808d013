# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((1, 40), "float32"), h: T.Buffer((1, 64), "float32"), Wx: T.Buffer((192, 40), "float32"), Wh: T.Buffer((192, 64), "float32"), bx: T.Buffer((192,), "float32"), bh: T.Buffer((192,), "float32"), T_gru: T.Buffer((1, 64), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_gates_x_shared = T.sblock_alloc_buffer((1, 192), scope="shared")
        T_gates_h_shared = T.sblock_alloc_buffer((1, 192), scope="shared")
        for ax0_fused in T.thread_binding(T.int64(1), thread="blockIdx.x"):
            for ax0 in range(192):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_gates_h"):
                            v0 = T.axis.spatial(192, ax0)
                            v1 = T.axis.reduce(64, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 64)
                            T.reads(h[0, v1], Wh[v0, v1])
                            T.writes(T_gates_h_shared[0, v0])
                            with T.init():
                                T_gates_h_shared[0, v0] = T.float32(0.0)
                            T_gates_h_shared[0, v0] = T_gates_h_shared[0, v0] + h[0, v1] * Wh[v0, v1]
            for ax0 in range(192):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_gates_x"):
                            v0 = T.axis.spatial(192, ax0)
                            v1 = T.axis.reduce(40, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 40)
                            T.reads(x[0, v1], Wx[v0, v1])
                            T.writes(T_gates_x_shared[0, v0])
                            with T.init():
                                T_gates_x_shared[0, v0] = T.float32(0.0)
                            T_gates_x_shared[0, v0] = T_gates_x_shared[0, v0] + x[0, v1] * Wx[v0, v1]
            for ax1_1 in T.thread_binding(256, thread="threadIdx.x"):
                for ax1_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_gru"):
                        v0 = T.axis.spatial(T.int64(1), T.int64(0))
                        v1 = T.axis.spatial(64, ax1_0 * 256 + ax1_1)
                        T.where(ax1_0 * 256 + ax1_1 < 64)
                        T.reads(T_gates_x_shared[0, v1:v1 + 129], bx[v1:v1 + 129], T_gates_h_shared[0, v1:v1 + 129], bh[v1:v1 + 129], h[0, v1])
                        T.writes(T_gru[0, v1])
                        T_gru[0, v1] = (T.float32(1.0) - T.float32(1.0) / (T.float32(1.0) + T.exp((T_gates_x_shared[0, v1 + 64] + bx[v1 + 64] + (T_gates_h_shared[0, v1 + 64] + bh[v1 + 64])) * T.float32(-1.0)))) * T.tanh(T_gates_x_shared[0, v1 + 128] + bx[v1 + 128] + T.float32(1.0) / (T.float32(1.0) + T.exp((T_gates_x_shared[0, v1] + bx[v1] + (T_gates_h_shared[0, v1] + bh[v1])) * T.float32(-1.0))) * (T_gates_h_shared[0, v1 + 128] + bh[v1 + 128])) + T.float32(1.0) / (T.float32(1.0) + T.exp((T_gates_x_shared[0, v1 + 64] + bx[v1 + 64] + (T_gates_h_shared[0, v1 + 64] + bh[v1 + 64])) * T.float32(-1.0))) * h[0, v1]
