# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 32, 28, 28), "float32"), We: T.Buffer((192, 32, 1, 1), "float32"), be: T.Buffer((192,), "float32"), Wd: T.Buffer((192, 1, 3, 3), "float32"), bd: T.Buffer((192,), "float32"), Wp: T.Buffer((32, 192, 1, 1), "float32"), bp: T.Buffer((32,), "float32"), T_project_residual: T.Buffer((1, 32, 28, 28), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        conv2d_nchw = T.sblock_alloc_buffer((1, 192, 28, 28))
        DepthwiseConv2d = T.sblock_alloc_buffer((1, 192, 28, 28))
        conv2d_nchw_1 = T.sblock_alloc_buffer((1, 32, 28, 28))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(588, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv2d_nchw_init"):
                    v0 = T.axis.spatial(192, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                    v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                    v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                    T.reads()
                    T.writes(conv2d_nchw[0, v0, v1, v2])
                    conv2d_nchw[0, v0, v1, v2] = T.float32(0.0)
                for ax3 in range(32):
                    with T.sblock("conv2d_nchw_update"):
                        v0 = T.axis.spatial(192, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                        v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                        v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                        v3 = T.axis.reduce(32, ax3)
                        T.reads(conv2d_nchw[0, v0, v1, v2], X[0, v3, v1, v2], We[v0, v3, 0, 0])
                        T.writes(conv2d_nchw[0, v0, v1, v2])
                        conv2d_nchw[0, v0, v1, v2] = conv2d_nchw[0, v0, v1, v2] + X[0, v3, v1, v2] * We[v0, v3, 0, 0]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(588, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("DepthwiseConv2d_init"):
                    v0 = T.axis.spatial(192, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                    v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                    v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                    T.reads()
                    T.writes(DepthwiseConv2d[0, v0, v1, v2])
                    DepthwiseConv2d[0, v0, v1, v2] = T.float32(0.0)
                for ax3, ax4 in T.grid(3, 3):
                    with T.sblock("DepthwiseConv2d_update"):
                        v0 = T.axis.spatial(192, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                        v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                        v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                        v3, v4 = T.axis.remap("RR", [ax3, ax4])
                        T.reads(DepthwiseConv2d[0, v0, v1, v2], conv2d_nchw[0, v0, v1 + v3 - 1, v2 + v4 - 1], be[v0], Wd[v0, 0, v3, v4])
                        T.writes(DepthwiseConv2d[0, v0, v1, v2])
                        DepthwiseConv2d[0, v0, v1, v2] = DepthwiseConv2d[0, v0, v1, v2] + T.if_then_else(1 <= v1 + v3 and v1 + v3 < 29 and 1 <= v2 + v4 and v2 + v4 < 29, T.min(T.max(conv2d_nchw[0, v0, v1 + v3 - 1, v2 + v4 - 1] + be[v0], T.float32(0.0)), T.float32(6.0)), T.float32(0.0)) * Wd[v0, 0, v3, v4]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(98, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv2d_nchw_1_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                    v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                    v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                    T.reads()
                    T.writes(conv2d_nchw_1[0, v0, v1, v2])
                    conv2d_nchw_1[0, v0, v1, v2] = T.float32(0.0)
                for ax3 in range(192):
                    with T.sblock("conv2d_nchw_1_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                        v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                        v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                        v3 = T.axis.reduce(192, ax3)
                        T.reads(conv2d_nchw_1[0, v0, v1, v2], DepthwiseConv2d[0, v3, v1, v2], bd[v3], Wp[v0, v3, 0, 0])
                        T.writes(conv2d_nchw_1[0, v0, v1, v2])
                        conv2d_nchw_1[0, v0, v1, v2] = conv2d_nchw_1[0, v0, v1, v2] + T.min(T.max(DepthwiseConv2d[0, v3, v1, v2] + bd[v3], T.float32(0.0)), T.float32(6.0)) * Wp[v0, v3, 0, 0]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(98, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_project_residual"):
                    v0 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 784)
                    v1 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 784 // 28)
                    v2 = T.axis.spatial(28, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 28)
                    T.reads(conv2d_nchw_1[0, v0, v1, v2], bp[v0], X[0, v0, v1, v2])
                    T.writes(T_project_residual[0, v0, v1, v2])
                    T_project_residual[0, v0, v1, v2] = conv2d_nchw_1[0, v0, v1, v2] + bp[v0] + X[0, v0, v1, v2]
