# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 64, 1000), "float32"), Wf: T.Buffer((64, 64, 3), "float32"), Wg: T.Buffer((64, 64, 3), "float32"), Wr: T.Buffer((64, 64, 1), "float32"), T_residual: T.Buffer((1, 64, 1000), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        conv1d_ncw = T.sblock_alloc_buffer((1, 64, 1000))
        conv1d_ncw_1 = T.sblock_alloc_buffer((1, 64, 1000))
        conv1d_ncw_2 = T.sblock_alloc_buffer((1, 64, 1000))
        for ax0_ax1_fused_0 in T.thread_binding(250, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv1d_ncw_init"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1000)
                    v1 = T.axis.spatial(1000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1000)
                    T.reads()
                    T.writes(conv1d_ncw[0, v0, v1])
                    conv1d_ncw[0, v0, v1] = T.float32(0.0)
                for ax2, ax3 in T.grid(64, 3):
                    with T.sblock("conv1d_ncw_update"):
                        v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1000)
                        v1 = T.axis.spatial(1000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1000)
                        v2, v3 = T.axis.remap("RR", [ax2, ax3])
                        T.reads(conv1d_ncw[0, v0, v1], X[0, v2, v3 * 2 + v1 - 4], Wf[v0, v2, v3])
                        T.writes(conv1d_ncw[0, v0, v1])
                        conv1d_ncw[0, v0, v1] = conv1d_ncw[0, v0, v1] + T.if_then_else(4 <= v3 * 2 + v1 and v3 * 2 + v1 < 1004, X[0, v2, v3 * 2 + v1 - 4], T.float32(0.0)) * Wf[v0, v2, v3]
        for ax0_ax1_fused_0 in T.thread_binding(250, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv1d_ncw_1_init"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1000)
                    v1 = T.axis.spatial(1000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1000)
                    T.reads()
                    T.writes(conv1d_ncw_1[0, v0, v1])
                    conv1d_ncw_1[0, v0, v1] = T.float32(0.0)
                for ax2, ax3 in T.grid(64, 3):
                    with T.sblock("conv1d_ncw_1_update"):
                        v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1000)
                        v1 = T.axis.spatial(1000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1000)
                        v2, v3 = T.axis.remap("RR", [ax2, ax3])
                        T.reads(conv1d_ncw_1[0, v0, v1], X[0, v2, v3 * 2 + v1 - 4], Wg[v0, v2, v3])
                        T.writes(conv1d_ncw_1[0, v0, v1])
                        conv1d_ncw_1[0, v0, v1] = conv1d_ncw_1[0, v0, v1] + T.if_then_else(4 <= v3 * 2 + v1 and v3 * 2 + v1 < 1004, X[0, v2, v3 * 2 + v1 - 4], T.float32(0.0)) * Wg[v0, v2, v3]
        for ax0_ax1_fused_0 in T.thread_binding(250, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv1d_ncw_2_init"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1000)
                    v1 = T.axis.spatial(1000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1000)
                    T.reads()
                    T.writes(conv1d_ncw_2[0, v0, v1])
                    conv1d_ncw_2[0, v0, v1] = T.float32(0.0)
                for ax2 in range(64):
                    with T.sblock("conv1d_ncw_2_update"):
                        v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1000)
                        v1 = T.axis.spatial(1000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1000)
                        v2 = T.axis.reduce(64, ax2)
                        T.reads(conv1d_ncw_2[0, v0, v1], conv1d_ncw[0, v2, v1], conv1d_ncw_1[0, v2, v1], Wr[v0, v2, 0])
                        T.writes(conv1d_ncw_2[0, v0, v1])
                        conv1d_ncw_2[0, v0, v1] = conv1d_ncw_2[0, v0, v1] + T.tanh(conv1d_ncw[0, v2, v1]) / (T.float32(1.0) + T.exp(conv1d_ncw_1[0, v2, v1] * T.float32(-1.0))) * Wr[v0, v2, 0]
        for ax0_ax1_fused_0 in T.thread_binding(250, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_residual"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1000)
                    v1 = T.axis.spatial(1000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1000)
                    T.reads(conv1d_ncw_2[0, v0, v1], X[0, v0, v1])
                    T.writes(T_residual[0, v0, v1])
                    T_residual[0, v0, v1] = conv1d_ncw_2[0, v0, v1] + X[0, v0, v1]
