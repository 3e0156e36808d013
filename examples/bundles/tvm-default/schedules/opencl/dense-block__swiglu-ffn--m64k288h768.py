# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((64, 288), "float32"), W1: T.Buffer((768, 288), "float32"), W3: T.Buffer((768, 288), "float32"), W2: T.Buffer((288, 768), "float32"), T_down: T.Buffer((64, 288), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_gate = T.sblock_alloc_buffer((64, 768))
        T_up = T.sblock_alloc_buffer((64, 768))
        for ax0_ax1_fused_0 in T.thread_binding(192, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_gate_init"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 768)
                    v1 = T.axis.spatial(768, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 768)
                    T.reads()
                    T.writes(T_gate[v0, v1])
                    T_gate[v0, v1] = T.float32(0.0)
                for ax2 in range(288):
                    with T.sblock("T_gate_update"):
                        v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 768)
                        v1 = T.axis.spatial(768, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 768)
                        v2 = T.axis.reduce(288, ax2)
                        T.reads(T_gate[v0, v1], X[v0, v2], W1[v1, v2])
                        T.writes(T_gate[v0, v1])
                        T_gate[v0, v1] = T_gate[v0, v1] + X[v0, v2] * W1[v1, v2]
        for ax0_ax1_fused_0 in T.thread_binding(192, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_up_init"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 768)
                    v1 = T.axis.spatial(768, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 768)
                    T.reads()
                    T.writes(T_up[v0, v1])
                    T_up[v0, v1] = T.float32(0.0)
                for ax2 in range(288):
                    with T.sblock("T_up_update"):
                        v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 768)
                        v1 = T.axis.spatial(768, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 768)
                        v2 = T.axis.reduce(288, ax2)
                        T.reads(T_up[v0, v1], X[v0, v2], W3[v1, v2])
                        T.writes(T_up[v0, v1])
                        T_up[v0, v1] = T_up[v0, v1] + X[v0, v2] * W3[v1, v2]
        for ax0_ax1_fused_0 in T.thread_binding(72, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_down_init"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 288)
                    v1 = T.axis.spatial(288, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 288)
                    T.reads()
                    T.writes(T_down[v0, v1])
                    T_down[v0, v1] = T.float32(0.0)
                for ax2 in range(768):
                    with T.sblock("T_down_update"):
                        v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 288)
                        v1 = T.axis.spatial(288, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 288)
                        v2 = T.axis.reduce(768, ax2)
                        T.reads(T_down[v0, v1], T_gate[v0, v2], T_up[v0, v2], W2[v1, v2])
                        T.writes(T_down[v0, v1])
                        T_down[v0, v1] = T_down[v0, v1] + T_gate[v0, v2] * (T.float32(1.0) / (T.float32(1.0) + T.exp(T_gate[v0, v2] * T.float32(-1.0)))) * T_up[v0, v2] * W2[v1, v2]
