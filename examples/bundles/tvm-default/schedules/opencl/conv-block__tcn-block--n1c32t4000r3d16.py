# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 32, 4000), "float32"), W1: T.Buffer((32, 32, 3), "float32"), b1: T.Buffer((32,), "float32"), W2: T.Buffer((32, 32, 3), "float32"), b2: T.Buffer((32,), "float32"), T_residual_relu: T.Buffer((1, 32, 4000), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        conv1d_ncw = T.sblock_alloc_buffer((1, 32, 4000))
        conv1d_ncw_1 = T.sblock_alloc_buffer((1, 32, 4000))
        for ax0_ax1_fused_0 in T.thread_binding(500, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv1d_ncw_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 4000)
                    v1 = T.axis.spatial(4000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 4000)
                    T.reads()
                    T.writes(conv1d_ncw[0, v0, v1])
                    conv1d_ncw[0, v0, v1] = T.float32(0.0)
                for ax2, ax3 in T.grid(32, 3):
                    with T.sblock("conv1d_ncw_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 4000)
                        v1 = T.axis.spatial(4000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 4000)
                        v2, v3 = T.axis.remap("RR", [ax2, ax3])
                        T.reads(conv1d_ncw[0, v0, v1], X[0, v2, v3 * 16 + v1 - 32], W1[v0, v2, v3])
                        T.writes(conv1d_ncw[0, v0, v1])
                        conv1d_ncw[0, v0, v1] = conv1d_ncw[0, v0, v1] + T.if_then_else(32 <= v3 * 16 + v1 and v3 * 16 + v1 < 4032, X[0, v2, v3 * 16 + v1 - 32], T.float32(0.0)) * W1[v0, v2, v3]
        for ax0_ax1_fused_0 in T.thread_binding(500, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv1d_ncw_1_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 4000)
                    v1 = T.axis.spatial(4000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 4000)
                    T.reads()
                    T.writes(conv1d_ncw_1[0, v0, v1])
                    conv1d_ncw_1[0, v0, v1] = T.float32(0.0)
                for ax2, ax3 in T.grid(32, 3):
                    with T.sblock("conv1d_ncw_1_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 4000)
                        v1 = T.axis.spatial(4000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 4000)
                        v2, v3 = T.axis.remap("RR", [ax2, ax3])
                        T.reads(conv1d_ncw_1[0, v0, v1], conv1d_ncw[0, v2, v3 * 16 + v1 - 32], b1[v2], W2[v0, v2, v3])
                        T.writes(conv1d_ncw_1[0, v0, v1])
                        conv1d_ncw_1[0, v0, v1] = conv1d_ncw_1[0, v0, v1] + T.if_then_else(32 <= v3 * 16 + v1 and v3 * 16 + v1 < 4032, T.max(conv1d_ncw[0, v2, v3 * 16 + v1 - 32] + b1[v2], T.float32(0.0)), T.float32(0.0)) * W2[v0, v2, v3]
        for ax0_ax1_fused_0 in T.thread_binding(500, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_residual_relu"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 4000)
                    v1 = T.axis.spatial(4000, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 4000)
                    T.reads(conv1d_ncw_1[0, v0, v1], b2[v0], X[0, v0, v1])
                    T.writes(T_residual_relu[0, v0, v1])
                    T_residual_relu[0, v0, v1] = T.max(T.max(conv1d_ncw_1[0, v0, v1] + b2[v0], T.float32(0.0)) + X[0, v0, v1], T.float32(0.0))
