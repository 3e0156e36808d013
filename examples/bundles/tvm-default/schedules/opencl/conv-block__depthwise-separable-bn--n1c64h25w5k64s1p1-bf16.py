# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 64, 25, 5), "bfloat16"), Wd: T.Buffer((64, 1, 3, 3), "bfloat16"), dw_gamma: T.Buffer((64,), "bfloat16"), dw_beta: T.Buffer((64,), "bfloat16"), dw_mean: T.Buffer((64,), "bfloat16"), dw_var: T.Buffer((64,), "bfloat16"), Wp: T.Buffer((64, 64, 1, 1), "bfloat16"), pw_gamma: T.Buffer((64,), "bfloat16"), pw_beta: T.Buffer((64,), "bfloat16"), pw_mean: T.Buffer((64,), "bfloat16"), pw_var: T.Buffer((64,), "bfloat16"), T_pw_relu_bf16: T.Buffer((1, 64, 25, 5), "bfloat16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        DepthwiseConv2d = T.sblock_alloc_buffer((1, 64, 25, 5))
        conv2d_nchw = T.sblock_alloc_buffer((1, 64, 25, 5))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(32, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("DepthwiseConv2d_init"):
                    v0 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 125)
                    v1 = T.axis.spatial(25, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 125 // 5)
                    v2 = T.axis.spatial(5, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 5)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 8000)
                    T.reads()
                    T.writes(DepthwiseConv2d[0, v0, v1, v2])
                    DepthwiseConv2d[0, v0, v1, v2] = T.float32(0.0)
                for ax3, ax4 in T.grid(3, 3):
                    with T.sblock("DepthwiseConv2d_update"):
                        v0 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 125)
                        v1 = T.axis.spatial(25, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 125 // 5)
                        v2 = T.axis.spatial(5, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 5)
                        v3, v4 = T.axis.remap("RR", [ax3, ax4])
                        T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 8000)
                        T.reads(DepthwiseConv2d[0, v0, v1, v2], X[0, v0, v1 + v3 - 1, v2 + v4 - 1], Wd[v0, 0, v3, v4])
                        T.writes(DepthwiseConv2d[0, v0, v1, v2])
                        DepthwiseConv2d[0, v0, v1, v2] = DepthwiseConv2d[0, v0, v1, v2] + T.if_then_else(1 <= v1 + v3 and v1 + v3 < 26 and 1 <= v2 + v4 and v2 + v4 < 6, T.Cast("float32", X[0, v0, v1 + v3 - 1, v2 + v4 - 1]), T.float32(0.0)) * T.Cast("float32", Wd[v0, 0, v3, v4])
        for ax0_ax1_ax2_fused_0 in T.thread_binding(32, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv2d_nchw_init"):
                    v0 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 125)
                    v1 = T.axis.spatial(25, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 125 // 5)
                    v2 = T.axis.spatial(5, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 5)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 8000)
                    T.reads()
                    T.writes(conv2d_nchw[0, v0, v1, v2])
                    conv2d_nchw[0, v0, v1, v2] = T.float32(0.0)
                for ax3 in range(64):
                    with T.sblock("conv2d_nchw_update"):
                        v0 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 125)
                        v1 = T.axis.spatial(25, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 125 // 5)
                        v2 = T.axis.spatial(5, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 5)
                        v3 = T.axis.reduce(64, ax3)
                        T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 8000)
                        T.reads(conv2d_nchw[0, v0, v1, v2], DepthwiseConv2d[0, v3, v1, v2], dw_mean[v3], dw_var[v3], dw_gamma[v3], dw_beta[v3], Wp[v0, v3, 0, 0])
                        T.writes(conv2d_nchw[0, v0, v1, v2])
                        conv2d_nchw[0, v0, v1, v2] = conv2d_nchw[0, v0, v1, v2] + T.max((DepthwiseConv2d[0, v3, v1, v2] - T.Cast("float32", dw_mean[v3])) * T.rsqrt(T.Cast("float32", dw_var[v3]) + T.float32(0.001)) * T.Cast("float32", dw_gamma[v3]) + T.Cast("float32", dw_beta[v3]), T.float32(0.0)) * T.Cast("float32", Wp[v0, v3, 0, 0])
        for ax0_ax1_ax2_fused_0 in T.thread_binding(32, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_pw_relu_bf16"):
                    v0 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 125)
                    v1 = T.axis.spatial(25, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 125 // 5)
                    v2 = T.axis.spatial(5, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 5)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 8000)
                    T.reads(conv2d_nchw[0, v0, v1, v2], pw_mean[v0], pw_var[v0], pw_gamma[v0], pw_beta[v0])
                    T.writes(T_pw_relu_bf16[0, v0, v1, v2])
                    T_pw_relu_bf16[0, v0, v1, v2] = T.Cast("bfloat16", T.max((conv2d_nchw[0, v0, v1, v2] - T.Cast("float32", pw_mean[v0])) * T.rsqrt(T.Cast("float32", pw_var[v0]) + T.float32(0.001)) * T.Cast("float32", pw_gamma[v0]) + T.Cast("float32", pw_beta[v0]), T.float32(0.0)))
