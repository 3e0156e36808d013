# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 24, 56, 56), "float32"), We: T.Buffer((144, 24, 1, 1), "float32"), be: T.Buffer((144,), "float32"), Wd: T.Buffer((144, 1, 3, 3), "float32"), bd: T.Buffer((144,), "float32"), Wp: T.Buffer((24, 144, 1, 1), "float32"), bp: T.Buffer((24,), "float32"), T_project_residual: T.Buffer((1, 24, 56, 56), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        conv2d_nchw = T.sblock_alloc_buffer((1, 144, 56, 56))
        DepthwiseConv2d = T.sblock_alloc_buffer((1, 144, 56, 56))
        conv2d_nchw_1 = T.sblock_alloc_buffer((1, 24, 56, 56))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(1764, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv2d_nchw_init"):
                    v0 = T.axis.spatial(144, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3136)
                    v1 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3136 // 56)
                    v2 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 56)
                    T.reads()
                    T.writes(conv2d_nchw[0, v0, v1, v2])
                    conv2d_nchw[0, v0, v1, v2] = T.float32(0.0)
                for ax3 in range(24):
                    with T.sblock("conv2d_nchw_update"):
                        v0 = T.axis.spatial(144, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3136)
                        v1 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3136 // 56)
                        v2 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 56)
                        v3 = T.axis.reduce(24, ax3)
                        T.reads(conv2d_nchw[0, v0, v1, v2], X[0, v3, v1, v2], We[v0, v3, 0, 0])
                        T.writes(conv2d_nchw[0, v0, v1, v2])
                        conv2d_nchw[0, v0, v1, v2] = conv2d_nchw[0, v0, v1, v2] + X[0, v3, v1, v2] * We[v0, v3, 0, 0]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(1764, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("DepthwiseConv2d_init"):
                    v0 = T.axis.spatial(144, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3136)
                    v1 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3136 // 56)
                    v2 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 56)
                    T.reads()
                    T.writes(DepthwiseConv2d[0, v0, v1, v2])
                    DepthwiseConv2d[0, v0, v1, v2] = T.float32(0.0)
                for ax3, ax4 in T.grid(3, 3):
                    with T.sblock("DepthwiseConv2d_update"):
                        v0 = T.axis.spatial(144, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3136)
                        v1 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3136 // 56)
                        v2 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 56)
                        v3, v4 = T.axis.remap("RR", [ax3, ax4])
                        T.reads(DepthwiseConv2d[0, v0, v1, v2], conv2d_nchw[0, v0, v1 + v3 - 1, v2 + v4 - 1], be[v0], Wd[v0, 0, v3, v4])
                        T.writes(DepthwiseConv2d[0, v0, v1, v2])
                        DepthwiseConv2d[0, v0, v1, v2] = DepthwiseConv2d[0, v0, v1, v2] + T.if_then_else(1 <= v1 + v3 and v1 + v3 < 57 and 1 <= v2 + v4 and v2 + v4 < 57, T.min(T.max(conv2d_nchw[0, v0, v1 + v3 - 1, v2 + v4 - 1] + be[v0], T.float32(0.0)), T.float32(6.0)), T.float32(0.0)) * Wd[v0, 0, v3, v4]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(294, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv2d_nchw_1_init"):
                    v0 = T.axis.spatial(24, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3136)
                    v1 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3136 // 56)
                    v2 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 56)
                    T.reads()
                    T.writes(conv2d_nchw_1[0, v0, v1, v2])
                    conv2d_nchw_1[0, v0, v1, v2] = T.float32(0.0)
                for ax3 in range(144):
                    with T.sblock("conv2d_nchw_1_update"):
                        v0 = T.axis.spatial(24, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3136)
                        v1 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3136 // 56)
                        v2 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 56)
                        v3 = T.axis.reduce(144, ax3)
                        T.reads(conv2d_nchw_1[0, v0, v1, v2], DepthwiseConv2d[0, v3, v1, v2], bd[v3], Wp[v0, v3, 0, 0])
                        T.writes(conv2d_nchw_1[0, v0, v1, v2])
                        conv2d_nchw_1[0, v0, v1, v2] = conv2d_nchw_1[0, v0, v1, v2] + T.min(T.max(DepthwiseConv2d[0, v3, v1, v2] + bd[v3], T.float32(0.0)), T.float32(6.0)) * Wp[v0, v3, 0, 0]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(294, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_project_residual"):
                    v0 = T.axis.spatial(24, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3136)
                    v1 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3136 // 56)
                    v2 = T.axis.spatial(56, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 56)
                    T.reads(conv2d_nchw_1[0, v0, v1, v2], bp[v0], X[0, v0, v1, v2])
                    T.writes(T_project_residual[0, v0, v1, v2])
                    T_project_residual[0, v0, v1, v2] = conv2d_nchw_1[0, v0, v1, v2] + bp[v0] + X[0, v0, v1, v2]
