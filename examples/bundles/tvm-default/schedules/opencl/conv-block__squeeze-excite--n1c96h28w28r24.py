# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 96, 28, 28), "float32"), W1: T.Buffer((24, 96), "float32"), b1: T.Buffer((24,), "float32"), W2: T.Buffer((96, 24), "float32"), b2: T.Buffer((96,), "float32"), T_excite: T.Buffer((1, 96, 28, 28), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_squeeze = T.sblock_alloc_buffer((1, 96))
        T_fc1 = T.sblock_alloc_buffer((1, 24))
        T_fc2 = T.sblock_alloc_buffer((1, 96))
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_squeeze_init"):
                    v0 = T.axis.spatial(96, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 96)
                    T.reads()
                    T.writes(T_squeeze[0, v0])
                    T_squeeze[0, v0] = T.float32(0.0)
                for ax1, ax2 in T.grid(28, 28):
                    with T.sblock("T_squeeze_update"):
                        v0 = T.axis.spatial(96, ax0_fused_0 * 256 + ax0_fused_1)
                        v1, v2 = T.axis.remap("RR", [ax1, ax2])
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 96)
                        T.reads(T_squeeze[0, v0], X[0, v0, v1, v2])
                        T.writes(T_squeeze[0, v0])
                        T_squeeze[0, v0] = T_squeeze[0, v0] + X[0, v0, v1, v2]
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_fc1_init"):
                    v0 = T.axis.spatial(24, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 24)
                    T.reads()
                    T.writes(T_fc1[0, v0])
                    T_fc1[0, v0] = T.float32(0.0)
                for ax1 in range(96):
                    with T.sblock("T_fc1_update"):
                        v0 = T.axis.spatial(24, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(96, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 24)
                        T.reads(T_fc1[0, v0], T_squeeze[0, v1], W1[v0, v1])
                        T.writes(T_fc1[0, v0])
                        T_fc1[0, v0] = T_fc1[0, v0] + T_squeeze[0, v1] * T.float32(0.0012755102040816326) * W1[v0, v1]
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_fc2_init"):
                    v0 = T.axis.spatial(96, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 96)
                    T.reads()
                    T.writes(T_fc2[0, v0])
                    T_fc2[0, v0] = T.float32(0.0)
                for ax1 in range(24):
                    with T.sblock("T_fc2_update"):
                        v0 = T.axis.spatial(96, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(24, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 96)
                        T.reads(T_fc2[0, v0], T_fc1[0, v1], b1[v1], W2[v0, v1])
                        T.writes(T_fc2[0, v0])
                        T_fc2[0, v0] = T_fc2[0, v0] + T.max(T_fc1[0, v1] + b1[v1], T.float32(0.0)) * W2[v0, v1]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(294, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_excite"):
                    v0 = T.axis.spatial(96, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                    v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                    v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                    T.reads(X[0, v0, v1, v2], T_fc2[0, v0], b2[v0])
                    T.writes(T_excite[0, v0, v1, v2])
                    T_excite[0, v0, v1, v2] = X[0, v0, v1, v2] / (T.float32(1.0) + T.exp((T_fc2[0, v0] + b2[v0]) * T.float32(-1.0)))
