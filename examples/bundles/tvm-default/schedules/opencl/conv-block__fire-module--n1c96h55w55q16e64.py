# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 96, 55, 55), "float32"), Ws: T.Buffer((16, 96, 1, 1), "float32"), bs: T.Buffer((16,), "float32"), We1: T.Buffer((64, 16, 1, 1), "float32"), be1: T.Buffer((64,), "float32"), We3: T.Buffer((64, 16, 3, 3), "float32"), be3: T.Buffer((64,), "float32"), T_concat: T.Buffer((1, 128, 55, 55), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        conv2d_nchw = T.sblock_alloc_buffer((1, 16, 55, 55))
        conv2d_nchw_1 = T.sblock_alloc_buffer((1, 64, 55, 55))
        conv2d_nchw_2 = T.sblock_alloc_buffer((1, 64, 55, 55))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(190, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv2d_nchw_init"):
                    v0 = T.axis.spatial(16, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3025)
                    v1 = T.axis.spatial(55, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3025 // 55)
                    v2 = T.axis.spatial(55, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 55)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 48400)
                    T.reads()
                    T.writes(conv2d_nchw[0, v0, v1, v2])
                    conv2d_nchw[0, v0, v1, v2] = T.float32(0.0)
                for ax3 in range(96):
                    with T.sblock("conv2d_nchw_update"):
                        v0 = T.axis.spatial(16, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3025)
                        v1 = T.axis.spatial(55, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3025 // 55)
                        v2 = T.axis.spatial(55, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 55)
                        v3 = T.axis.reduce(96, ax3)
                        T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 48400)
                        T.reads(conv2d_nchw[0, v0, v1, v2], X[0, v3, v1, v2], Ws[v0, v3, 0, 0])
                        T.writes(conv2d_nchw[0, v0, v1, v2])
                        conv2d_nchw[0, v0, v1, v2] = conv2d_nchw[0, v0, v1, v2] + X[0, v3, v1, v2] * Ws[v0, v3, 0, 0]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(757, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv2d_nchw_1_init"):
                    v0 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3025)
                    v1 = T.axis.spatial(55, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3025 // 55)
                    v2 = T.axis.spatial(55, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 55)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 193600)
                    T.reads()
                    T.writes(conv2d_nchw_1[0, v0, v1, v2])
                    conv2d_nchw_1[0, v0, v1, v2] = T.float32(0.0)
                for ax3, ax4, ax5 in T.grid(16, 3, 3):
                    with T.sblock("conv2d_nchw_1_update"):
                        v0 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3025)
                        v1 = T.axis.spatial(55, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3025 // 55)
                        v2 = T.axis.spatial(55, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 55)
                        v3, v4, v5 = T.axis.remap("RRR", [ax3, ax4, ax5])
                        T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 193600)
                        T.reads(conv2d_nchw_1[0, v0, v1, v2], conv2d_nchw[0, v3, v1 + v4 - 1, v2 + v5 - 1], bs[v3], We3[v0, v3, v4, v5])
                        T.writes(conv2d_nchw_1[0, v0, v1, v2])
                        conv2d_nchw_1[0, v0, v1, v2] = conv2d_nchw_1[0, v0, v1, v2] + T.if_then_else(1 <= v1 + v4 and v1 + v4 < 56 and 1 <= v2 + v5 and v2 + v5 < 56, T.max(conv2d_nchw[0, v3, v1 + v4 - 1, v2 + v5 - 1] + bs[v3], T.float32(0.0)), T.float32(0.0)) * We3[v0, v3, v4, v5]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(757, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv2d_nchw_2_init"):
                    v0 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3025)
                    v1 = T.axis.spatial(55, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3025 // 55)
                    v2 = T.axis.spatial(55, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 55)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 193600)
                    T.reads()
                    T.writes(conv2d_nchw_2[0, v0, v1, v2])
                    conv2d_nchw_2[0, v0, v1, v2] = T.float32(0.0)
                for ax3 in range(16):
                    with T.sblock("conv2d_nchw_2_update"):
                        v0 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3025)
                        v1 = T.axis.spatial(55, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3025 // 55)
                        v2 = T.axis.spatial(55, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 55)
                        v3 = T.axis.reduce(16, ax3)
                        T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 193600)
                        T.reads(conv2d_nchw_2[0, v0, v1, v2], conv2d_nchw[0, v3, v1, v2], bs[v3], We1[v0, v3, 0, 0])
                        T.writes(conv2d_nchw_2[0, v0, v1, v2])
                        conv2d_nchw_2[0, v0, v1, v2] = conv2d_nchw_2[0, v0, v1, v2] + T.max(conv2d_nchw[0, v3, v1, v2] + bs[v3], T.float32(0.0)) * We1[v0, v3, 0, 0]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(1513, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_concat"):
                    v0 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 3025)
                    v1 = T.axis.spatial(55, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 3025 // 55)
                    v2 = T.axis.spatial(55, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 55)
                    T.where(ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1 < 387200)
                    T.reads(conv2d_nchw_1[0, v0 - 64, v1, v2], be3[v0 - 64], conv2d_nchw_2[0, v0, v1, v2], be1[v0])
                    T.writes(T_concat[0, v0, v1, v2])
                    T_concat[0, v0, v1, v2] = T.if_then_else(64 <= v0, T.max(conv2d_nchw_1[0, v0 - 64, v1, v2] + be3[v0 - 64], T.float32(0.0)), T.max(conv2d_nchw_2[0, v0, v1, v2] + be1[v0], T.float32(0.0)))
