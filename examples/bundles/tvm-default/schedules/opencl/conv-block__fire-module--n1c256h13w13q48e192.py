# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 256, 13, 13), "float32"), Ws: T.Buffer((48, 256, 1, 1), "float32"), bs: T.Buffer((48,), "float32"), We1: T.Buffer((192, 48, 1, 1), "float32"), be1: T.Buffer((192,), "float32"), We3: T.Buffer((192, 48, 3, 3), "float32"), be3: T.Buffer((192,), "float32"), T_concat: T.Buffer((1, 384, 13, 13), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        conv2d_nchw = T.sblock_alloc_buffer((1, 48, 13, 13))
        conv2d_nchw_1 = T.sblock_alloc_buffer((1, 192, 13, 13))
        conv2d_nchw_2 = T.sblock_alloc_buffer((1, 192, 13, 13))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(32, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv2d_nchw_init"):
                    v0 = T.axis.spatial(48, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 169)
                    v1 = T.axis.spatial(13, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 169 // 13)
                    v2 = T.axis.spatial(13, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 13)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 8112)
                    T.reads()
                    T.writes(conv2d_nchw[0, v0, v1, v2])
                    conv2d_nchw[0, v0, v1, v2] = T.float32(0.0)
                for ax3 in range(256):
                    with T.sblock("conv2d_nchw_update"):
                        v0 = T.axis.spatial(48, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 169)
                        v1 = T.axis.spatial(13, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 169 // 13)
                        v2 = T.axis.spatial(13, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 13)
                        v3 = T.axis.reduce(256, ax3)
                        T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 8112)
                        T.reads(conv2d_nchw[0, v0, v1, v2], X[0, v3, v1, v2], Ws[v0, v3, 0, 0])
                        T.writes(conv2d_nchw[0, v0, v1, v2])
                        conv2d_nchw[0, v0, v1, v2] = conv2d_nchw[0, v0, v1, v2] + X[0, v3, v1, v2] * Ws[v0, v3, 0, 0]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(127, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv2d_nchw_1_init"):
                    v0 = T.axis.spatial(192, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 169)
                    v1 = T.axis.spatial(13, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 169 // 13)
                    v2 = T.axis.spatial(13, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 13)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 32448)
                    T.reads()
                    T.writes(conv2d_nchw_1[0, v0, v1, v2])
                    conv2d_nchw_1[0, v0, v1, v2] = T.float32(0.0)
                for ax3, ax4, ax5 in T.grid(48, 3, 3):
                    with T.sblock("conv2d_nchw_1_update"):
                        v0 = T.axis.spatial(192, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 169)
                        v1 = T.axis.spatial(13, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 169 // 13)
                        v2 = T.axis.spatial(13, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 13)
                        v3, v4, v5 = T.axis.remap("RRR", [ax3, ax4, ax5])
                        T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 32448)
                        T.reads(conv2d_nchw_1[0, v0, v1, v2], conv2d_nchw[0, v3, v1 + v4 - 1, v2 + v5 - 1], bs[v3], We3[v0, v3, v4, v5])
                        T.writes(conv2d_nchw_1[0, v0, v1, v2])
                        conv2d_nchw_1[0, v0, v1, v2] = conv2d_nchw_1[0, v0, v1, v2] + T.if_then_else(1 <= v1 + v4 and v1 + v4 < 14 and 1 <= v2 + v5 and v2 + v5 < 14, T.max(conv2d_nchw[0, v3, v1 + v4 - 1, v2 + v5 - 1] + bs[v3], T.float32(0.0)), T.float32(0.0)) * We3[v0, v3, v4, v5]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(127, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv2d_nchw_2_init"):
                    v0 = T.axis.spatial(192, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 169)
                    v1 = T.axis.spatial(13, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 169 // 13)
                    v2 = T.axis.spatial(13, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 13)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 32448)
                    T.reads()
                    T.writes(conv2d_nchw_2[0, v0, v1, v2])
                    conv2d_nchw_2[0, v0, v1, v2] = T.float32(0.0)
                for ax3 in range(48):
                    with T.sblock("conv2d_nchw_2_update"):
                        v0 = T.axis.spatial(192, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 169)
                        v1 = T.axis.spatial(13, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 169 // 13)
                        v2 = T.axis.spatial(13, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 13)
                        v3 = T.axis.reduce(48, ax3)
                        T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 32448)
                        T.reads(conv2d_nchw_2[0, v0, v1, v2], conv2d_nchw[0, v3, v1, v2], bs[v3], We1[v0, v3, 0, 0])
                        T.writes(conv2d_nchw_2[0, v0, v1, v2])
                        conv2d_nchw_2[0, v0, v1, v2] = conv2d_nchw_2[0, v0, v1, v2] + T.max(conv2d_nchw[0, v3, v1, v2] + bs[v3], T.float32(0.0)) * We1[v0, v3, 0, 0]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(254, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_concat"):
                    v0 = T.axis.spatial(384, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 169)
                    v1 = T.axis.spatial(13, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 169 // 13)
                    v2 = T.axis.spatial(13, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 13)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 64896)
                    T.reads(conv2d_nchw_1[0, v0 - 192, v1, v2], be3[v0 - 192], conv2d_nchw_2[0, v0, v1, v2], be1[v0])
                    T.writes(T_concat[0, v0, v1, v2])
                    T_concat[0, v0, v1, v2] = T.if_then_else(192 <= v0, T.max(conv2d_nchw_1[0, v0 - 192, v1, v2] + be3[v0 - 192], T.float32(0.0)), T.max(conv2d_nchw_2[0, v0, v1, v2] + be1[v0], T.float32(0.0)))
