# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 576, 7, 7), "float32"), W1: T.Buffer((144, 576), "float32"), b1: T.Buffer((144,), "float32"), W2: T.Buffer((576, 144), "float32"), b2: T.Buffer((576,), "float32"), T_excite: T.Buffer((1, 576, 7, 7), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_squeeze = T.sblock_alloc_buffer((1, 576))
        T_fc1 = T.sblock_alloc_buffer((1, 144))
        T_fc2 = T.sblock_alloc_buffer((1, 576))
        for ax0_fused_0 in T.thread_binding(3, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_squeeze_init"):
                    v0 = T.axis.spatial(576, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 576)
                    T.reads()
                    T.writes(T_squeeze[0, v0])
                    T_squeeze[0, v0] = T.float32(0.0)
                for ax1, ax2 in T.grid(7, 7):
                    with T.sblock("T_squeeze_update"):
                        v0 = T.axis.spatial(576, ax0_fused_0 * 256 + ax0_fused_1)
                        v1, v2 = T.axis.remap("RR", [ax1, ax2])
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 576)
                        T.reads(T_squeeze[0, v0], X[0, v0, v1, v2])
                        T.writes(T_squeeze[0, v0])
                        T_squeeze[0, v0] = T_squeeze[0, v0] + X[0, v0, v1, v2]
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_fc1_init"):
                    v0 = T.axis.spatial(144, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 144)
                    T.reads()
                    T.writes(T_fc1[0, v0])
                    T_fc1[0, v0] = T.float32(0.0)
                for ax1 in range(576):
                    with T.sblock("T_fc1_update"):
                        v0 = T.axis.spatial(144, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(576, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 144)
                        T.reads(T_fc1[0, v0], T_squeeze[0, v1], W1[v0, v1])
                        T.writes(T_fc1[0, v0])
                        T_fc1[0, v0] = T_fc1[0, v0] + T_squeeze[0, v1] * T.float32(0.020408163265306121) * W1[v0, v1]
        for ax0_fused_0 in T.thread_binding(3, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_fc2_init"):
                    v0 = T.axis.spatial(576, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 576)
                    T.reads()
                    T.writes(T_fc2[0, v0])
                    T_fc2[0, v0] = T.float32(0.0)
                for ax1 in range(144):
                    with T.sblock("T_fc2_update"):
                        v0 = T.axis.spatial(576, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(144, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 576)
                        T.reads(T_fc2[0, v0], T_fc1[0, v1], b1[v1], W2[v0, v1])
                        T.writes(T_fc2[0, v0])
                        T_fc2[0, v0] = T_fc2[0, v0] + T.max(T_fc1[0, v1] + b1[v1], T.float32(0.0)) * W2[v0, v1]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(111, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_excite"):
                    v0 = T.axis.spatial(576, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 49)
                    v1 = T.axis.spatial(7, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 49 // 7)
                    v2 = T.axis.spatial(7, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 7)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 28224)
                    T.reads(X[0, v0, v1, v2], T_fc2[0, v0], b2[v0])
                    T.writes(T_excite[0, v0, v1, v2])
                    T_excite[0, v0, v1, v2] = X[0, v0, v1, v2] / (T.float32(1.0) + T.exp((T_fc2[0, v0] + b2[v0]) * T.float32(-1.0)))
