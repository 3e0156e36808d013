# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 512), "float32"), W1: T.Buffer((1376, 512), "float32"), W3: T.Buffer((1376, 512), "float32"), W2: T.Buffer((512, 1376), "float32"), T_down: T.Buffer((1, 512), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_gate = T.sblock_alloc_buffer((1, 1376))
        T_up = T.sblock_alloc_buffer((1, 1376))
        for ax0_fused_0 in T.thread_binding(6, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_gate_init"):
                    v0 = T.axis.spatial(1376, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 1376)
                    T.reads()
                    T.writes(T_gate[0, v0])
                    T_gate[0, v0] = T.float32(0.0)
                for ax1 in range(512):
                    with T.sblock("T_gate_update"):
                        v0 = T.axis.spatial(1376, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(512, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 1376)
                        T.reads(T_gate[0, v0], X[0, v1], W1[v0, v1])
                        T.writes(T_gate[0, v0])
                        T_gate[0, v0] = T_gate[0, v0] + X[0, v1] * W1[v0, v1]
        for ax0_fused_0 in T.thread_binding(6, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_up_init"):
                    v0 = T.axis.spatial(1376, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 1376)
                    T.reads()
                    T.writes(T_up[0, v0])
                    T_up[0, v0] = T.float32(0.0)
                for ax1 in range(512):
                    with T.sblock("T_up_update"):
                        v0 = T.axis.spatial(1376, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(512, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 1376)
                        T.reads(T_up[0, v0], X[0, v1], W3[v0, v1])
                        T.writes(T_up[0, v0])
                        T_up[0, v0] = T_up[0, v0] + X[0, v1] * W3[v0, v1]
        for ax0_fused_0 in T.thread_binding(2, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_down_init"):
                    v0 = T.axis.spatial(512, ax0_fused_0 * 256 + ax0_fused_1)
                    T.reads()
                    T.writes(T_down[0, v0])
                    T_down[0, v0] = T.float32(0.0)
                for ax1 in range(1376):
                    with T.sblock("T_down_update"):
                        v0 = T.axis.spatial(512, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(1376, ax1)
                        T.reads(T_down[0, v0], T_gate[0, v1], T_up[0, v1], W2[v0, v1])
                        T.writes(T_down[0, v0])
                        T_down[0, v0] = T_down[0, v0] + T_gate[0, v1] * (T.float32(1.0) / (T.float32(1.0) + T.exp(T_gate[0, v1] * T.float32(-1.0)))) * T_up[0, v1] * W2[v0, v1]
