# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((32, 64), "float32"), Y: T.Buffer((4096, 64), "float32"), T_cosine: T.Buffer((32, 4096), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_dot = T.sblock_alloc_buffer((32, 4096))
        T_norm_x_sq = T.sblock_alloc_buffer((32,))
        T_norm_y_sq = T.sblock_alloc_buffer((4096,))
        for ax0_ax1_fused_0 in T.thread_binding(512, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_dot_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 4096)
                    v1 = T.axis.spatial(4096, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 4096)
                    T.reads()
                    T.writes(T_dot[v0, v1])
                    T_dot[v0, v1] = T.float32(0.0)
                for ax2 in range(64):
                    with T.sblock("T_dot_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 4096)
                        v1 = T.axis.spatial(4096, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 4096)
                        v2 = T.axis.reduce(64, ax2)
                        T.reads(T_dot[v0, v1], X[v0, v2], Y[v1, v2])
                        T.writes(T_dot[v0, v1])
                        T_dot[v0, v1] = T_dot[v0, v1] + X[v0, v2] * Y[v1, v2]
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_norm_x_sq_init"):
                    v0 = T.axis.spatial(32, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 32)
                    T.reads()
                    T.writes(T_norm_x_sq[v0])
                    T_norm_x_sq[v0] = T.float32(0.0)
                for ax1 in range(64):
                    with T.sblock("T_norm_x_sq_update"):
                        v0 = T.axis.spatial(32, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(64, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 32)
                        T.reads(T_norm_x_sq[v0], X[v0, v1])
                        T.writes(T_norm_x_sq[v0])
                        T_norm_x_sq[v0] = T_norm_x_sq[v0] + X[v0, v1] * X[v0, v1]
        for ax0_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_norm_y_sq_init"):
                    v0 = T.axis.spatial(4096, ax0_fused_0 * 256 + ax0_fused_1)
                    T.reads()
                    T.writes(T_norm_y_sq[v0])
                    T_norm_y_sq[v0] = T.float32(0.0)
                for ax1 in range(64):
                    with T.sblock("T_norm_y_sq_update"):
                        v0 = T.axis.spatial(4096, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(64, ax1)
                        T.reads(T_norm_y_sq[v0], Y[v0, v1])
                        T.writes(T_norm_y_sq[v0])
                        T_norm_y_sq[v0] = T_norm_y_sq[v0] + Y[v0, v1] * Y[v0, v1]
        for ax0_ax1_fused_0 in T.thread_binding(512, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_cosine"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 4096)
                    v1 = T.axis.spatial(4096, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 4096)
                    T.reads(T_dot[v0, v1], T_norm_x_sq[v0], T_norm_y_sq[v1])
                    T.writes(T_cosine[v0, v1])
                    T_cosine[v0, v1] = T_dot[v0, v1] / T.max(T.sqrt(T_norm_x_sq[v0]) * T.sqrt(T_norm_y_sq[v1]), T.float32(1e-08))
