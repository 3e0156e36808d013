# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 32, 2000), "float32"), Wf: T.Buffer((32, 32, 2), "float32"), Wg: T.Buffer((32, 32, 2), "float32"), Wr: T.Buffer((32, 32, 1), "float32"), T_residual: T.Buffer((1, 32, 2000), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        conv1d_ncw = T.sblock_alloc_buffer((1, 32, 2000))
        conv1d_ncw_1 = T.sblock_alloc_buffer((1, 32, 2000))
        conv1d_ncw_2 = T.sblock_alloc_buffer((1, 32, 2000))
        for ax0_ax1_fused_0 in T.thread_binding(250, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv1d_ncw_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 2000)
                    v1 = T.axis.spatial(2000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 2000)
                    T.reads()
                    T.writes(conv1d_ncw[0, v0, v1])
                    conv1d_ncw[0, v0, v1] = T.float32(0.0)
                for ax2, ax3 in T.grid(32, 2):
                    with T.sblock("conv1d_ncw_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 2000)
                        v1 = T.axis.spatial(2000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 2000)
                        v2, v3 = T.axis.remap("RR", [ax2, ax3])
                        T.reads(conv1d_ncw[0, v0, v1], X[0, v2, v3 * 8 + v1 - 8], Wf[v0, v2, v3])
                        T.writes(conv1d_ncw[0, v0, v1])
                        conv1d_ncw[0, v0, v1] = conv1d_ncw[0, v0, v1] + T.if_then_else(8 <= v3 * 8 + v1 and v3 * 8 + v1 < 2008, X[0, v2, v3 * 8 + v1 - 8], T.float32(0.0)) * Wf[v0, v2, v3]
        for ax0_ax1_fused_0 in T.thread_binding(250, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv1d_ncw_1_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 2000)
                    v1 = T.axis.spatial(2000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 2000)
                    T.reads()
                    T.writes(conv1d_ncw_1[0, v0, v1])
                    conv1d_ncw_1[0, v0, v1] = T.float32(0.0)
                for ax2, ax3 in T.grid(32, 2):
                    with T.sblock("conv1d_ncw_1_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 2000)
                        v1 = T.axis.spatial(2000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 2000)
                        v2, v3 = T.axis.remap("RR", [ax2, ax3])
                        T.reads(conv1d_ncw_1[0, v0, v1], X[0, v2, v3 * 8 + v1 - 8], Wg[v0, v2, v3])
                        T.writes(conv1d_ncw_1[0, v0, v1])
                        conv1d_ncw_1[0, v0, v1] = conv1d_ncw_1[0, v0, v1] + T.if_then_else(8 <= v3 * 8 + v1 and v3 * 8 + v1 < 2008, X[0, v2, v3 * 8 + v1 - 8], T.float32(0.0)) * Wg[v0, v2, v3]
        for ax0_ax1_fused_0 in T.thread_binding(250, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv1d_ncw_2_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 2000)
                    v1 = T.axis.spatial(2000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 2000)
                    T.reads()
                    T.writes(conv1d_ncw_2[0, v0, v1])
                    conv1d_ncw_2[0, v0, v1] = T.float32(0.0)
                for ax2 in range(32):
                    with T.sblock("conv1d_ncw_2_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 2000)
                        v1 = T.axis.spatial(2000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 2000)
                        v2 = T.axis.reduce(32, ax2)
                        T.reads(conv1d_ncw_2[0, v0, v1], conv1d_ncw[0, v2, v1], conv1d_ncw_1[0, v2, v1], Wr[v0, v2, 0])
                        T.writes(conv1d_ncw_2[0, v0, v1])
                        conv1d_ncw_2[0, v0, v1] = conv1d_ncw_2[0, v0, v1] + T.tanh(conv1d_ncw[0, v2, v1]) / (T.float32(1.0) + T.exp(conv1d_ncw_1[0, v2, v1] * T.float32(-1.0))) * Wr[v0, v2, 0]
        for ax0_ax1_fused_0 in T.thread_binding(250, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_residual"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 2000)
                    v1 = T.axis.spatial(2000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 2000)
                    T.reads(conv1d_ncw_2[0, v0, v1], X[0, v0, v1])
                    T.writes(T_residual[0, v0, v1])
                    T_residual[0, v0, v1] = conv1d_ncw_2[0, v0, v1] + X[0, v0, v1]
