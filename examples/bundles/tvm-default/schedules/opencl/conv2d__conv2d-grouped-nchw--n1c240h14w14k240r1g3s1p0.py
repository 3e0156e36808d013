# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 240, 14, 14), "float32"), W: T.Buffer((240, 80, 1, 1), "float32"), group_conv2d_nchw: T.Buffer((1, 240, 14, 14), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        group_conv2d_nchw_rf_local = T.sblock_alloc_buffer((16, 1, 240, 14, 14), scope="local")
        for ax0_0_ax1_ax2_fused_0 in T.thread_binding(42, thread="blockIdx.x"):
            for ax0_0_ax1_ax2_fused_1 in T.thread_binding(14, thread="threadIdx.x"):
                for ax3_fused_1 in T.thread_binding(16, thread="threadIdx.y"):
                    for ax0_1_init in range(80):
                        with T.sblock("group_conv2d_nchw_rf_init"):
                            vax3_fused_1 = T.axis.spatial(16, ax3_fused_1)
                            v0 = T.axis.spatial(240, (ax0_0_ax1_ax2_fused_0 * 14 + ax0_0_ax1_ax2_fused_1) // 196 * 80 + ax0_1_init)
                            v1 = T.axis.spatial(14, (ax0_0_ax1_ax2_fused_0 * 14 + ax0_0_ax1_ax2_fused_1) % 196 // 14)
                            v2 = T.axis.spatial(14, (ax0_0_ax1_ax2_fused_0 * 14 + ax0_0_ax1_ax2_fused_1) % 14)
                            T.reads()
                            T.writes(group_conv2d_nchw_rf_local[vax3_fused_1, 0, v0, v1, v2])
                            group_conv2d_nchw_rf_local[vax3_fused_1, 0, v0, v1, v2] = T.float32(0.0)
                    for ax3_fused_0, ax0_1 in T.grid(5, 80):
                        with T.sblock("group_conv2d_nchw_rf_update"):
                            vax3_fused_1 = T.axis.spatial(16, ax3_fused_1)
                            v0 = T.axis.spatial(240, (ax0_0_ax1_ax2_fused_0 * 14 + ax0_0_ax1_ax2_fused_1) // 196 * 80 + ax0_1)
                            v1 = T.axis.spatial(14, (ax0_0_ax1_ax2_fused_0 * 14 + ax0_0_ax1_ax2_fused_1) % 196 // 14)
                            v2 = T.axis.spatial(14, (ax0_0_ax1_ax2_fused_0 * 14 + ax0_0_ax1_ax2_fused_1) % 14)
                            vax3_fused_0 = T.axis.reduce(5, ax3_fused_0)
                            T.reads(group_conv2d_nchw_rf_local[vax3_fused_1, 0, v0, v1, v2], X[0, v0 // 80 * 80 + (vax3_fused_0 * 16 + vax3_fused_1), v1, v2], W[v0, vax3_fused_0 * 16 + vax3_fused_1, 0, 0])
                            T.writes(group_conv2d_nchw_rf_local[vax3_fused_1, 0, v0, v1, v2])
                            group_conv2d_nchw_rf_local[vax3_fused_1, 0, v0, v1, v2] = group_conv2d_nchw_rf_local[vax3_fused_1, 0, v0, v1, v2] + X[0, v0 // 80 * 80 + (vax3_fused_0 * 16 + vax3_fused_1), v1, v2] * W[v0, vax3_fused_0 * 16 + vax3_fused_1, 0, 0]
            for ax1_0_ax2_ax3_fused in T.thread_binding(14, thread="threadIdx.x"):
                for ax1_1 in range(80):
                    for ax0 in T.thread_binding(16, thread="threadIdx.y"):
                        with T.sblock("group_conv2d_nchw"):
                            vax3_fused_1 = T.axis.reduce(16, ax0)
                            v0 = T.axis.spatial(240, ax0_0_ax1_ax2_fused_0 // 14 * 80 + ax1_1)
                            v1 = T.axis.spatial(14, ax0_0_ax1_ax2_fused_0 % 14)
                            v2 = T.axis.spatial(14, ax1_0_ax2_ax3_fused)
                            T.reads(group_conv2d_nchw_rf_local[vax3_fused_1, 0, v0, v1, v2])
                            T.writes(group_conv2d_nchw[0, v0, v1, v2])
                            with T.init():
                                group_conv2d_nchw[0, v0, v1, v2] = T.float32(0.0)
                            group_conv2d_nchw[0, v0, v1, v2] = group_conv2d_nchw[0, v0, v1, v2] + group_conv2d_nchw_rf_local[vax3_fused_1, 0, v0, v1, v2]
