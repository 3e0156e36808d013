# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 16, 98), "float32"), Wd: T.Buffer((24, 16, 1), "float32"), bnd_gamma: T.Buffer((24,), "float32"), bnd_beta: T.Buffer((24,), "float32"), bnd_mean: T.Buffer((24,), "float32"), bnd_var: T.Buffer((24,), "float32"), W0: T.Buffer((24, 16, 9), "float32"), bn0_gamma: T.Buffer((24,), "float32"), bn0_beta: T.Buffer((24,), "float32"), bn0_mean: T.Buffer((24,), "float32"), bn0_var: T.Buffer((24,), "float32"), W1: T.Buffer((24, 24, 9), "float32"), bn1_gamma: T.Buffer((24,), "float32"), bn1_beta: T.Buffer((24,), "float32"), bn1_mean: T.Buffer((24,), "float32"), bn1_var: T.Buffer((24,), "float32"), T_add_relu: T.Buffer((1, 24, 49), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        conv1d_ncw = T.sblock_alloc_buffer((1, 24, 49))
        conv1d_ncw_1 = T.sblock_alloc_buffer((1, 24, 49))
        conv1d_ncw_2 = T.sblock_alloc_buffer((1, 24, 49))
        for ax0_ax1_fused_0 in T.thread_binding(5, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv1d_ncw_init"):
                    v0 = T.axis.spatial(24, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 49)
                    v1 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 49)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 1176)
                    T.reads()
                    T.writes(conv1d_ncw[0, v0, v1])
                    conv1d_ncw[0, v0, v1] = T.float32(0.0)
                for ax2, ax3 in T.grid(16, 9):
                    with T.sblock("conv1d_ncw_update"):
                        v0 = T.axis.spatial(24, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 49)
                        v1 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 49)
                        v2, v3 = T.axis.remap("RR", [ax2, ax3])
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 1176)
                        T.reads(conv1d_ncw[0, v0, v1], X[0, v2, v1 * 2 + v3 - 3], W0[v0, v2, v3])
                        T.writes(conv1d_ncw[0, v0, v1])
                        conv1d_ncw[0, v0, v1] = conv1d_ncw[0, v0, v1] + T.if_then_else(3 <= v1 * 2 + v3 and v1 * 2 + v3 < 101, X[0, v2, v1 * 2 + v3 - 3], T.float32(0.0)) * W0[v0, v2, v3]
        for ax0_ax1_fused_0 in T.thread_binding(5, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv1d_ncw_1_init"):
                    v0 = T.axis.spatial(24, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 49)
                    v1 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 49)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 1176)
                    T.reads()
                    T.writes(conv1d_ncw_1[0, v0, v1])
                    conv1d_ncw_1[0, v0, v1] = T.float32(0.0)
                for ax2, ax3 in T.grid(24, 9):
                    with T.sblock("conv1d_ncw_1_update"):
                        v0 = T.axis.spatial(24, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 49)
                        v1 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 49)
                        v2, v3 = T.axis.remap("RR", [ax2, ax3])
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 1176)
                        T.reads(conv1d_ncw_1[0, v0, v1], conv1d_ncw[0, v2, v1 + v3 - 4], bn0_mean[v2], bn0_var[v2], bn0_gamma[v2], bn0_beta[v2], W1[v0, v2, v3])
                        T.writes(conv1d_ncw_1[0, v0, v1])
                        conv1d_ncw_1[0, v0, v1] = conv1d_ncw_1[0, v0, v1] + T.if_then_else(4 <= v1 + v3 and v1 + v3 < 53, T.max((conv1d_ncw[0, v2, v1 + v3 - 4] - bn0_mean[v2]) * T.rsqrt(bn0_var[v2] + T.float32(0.001)) * bn0_gamma[v2] + bn0_beta[v2], T.float32(0.0)), T.float32(0.0)) * W1[v0, v2, v3]
        for ax0_ax1_fused_0 in T.thread_binding(5, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("conv1d_ncw_2_init"):
                    v0 = T.axis.spatial(24, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 49)
                    v1 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 49)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 1176)
                    T.reads()
                    T.writes(conv1d_ncw_2[0, v0, v1])
                    conv1d_ncw_2[0, v0, v1] = T.float32(0.0)
                for ax2 in range(16):
                    with T.sblock("conv1d_ncw_2_update"):
                        v0 = T.axis.spatial(24, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 49)
                        v1 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 49)
                        v2 = T.axis.reduce(16, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 1176)
                        T.reads(conv1d_ncw_2[0, v0, v1], X[0, v2, v1 * 2], Wd[v0, v2, 0])
                        T.writes(conv1d_ncw_2[0, v0, v1])
                        conv1d_ncw_2[0, v0, v1] = conv1d_ncw_2[0, v0, v1] + X[0, v2, v1 * 2] * Wd[v0, v2, 0]
        for ax0_ax1_fused_0 in T.thread_binding(5, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_add_relu"):
                    v0 = T.axis.spatial(24, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 49)
                    v1 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 49)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 1176)
                    T.reads(conv1d_ncw_1[0, v0, v1], bn1_mean[v0], bn1_var[v0], bn1_gamma[v0], bn1_beta[v0], conv1d_ncw_2[0, v0, v1], bnd_mean[v0], bnd_var[v0], bnd_gamma[v0], bnd_beta[v0])
                    T.writes(T_add_relu[0, v0, v1])
                    T_add_relu[0, v0, v1] = T.max((conv1d_ncw_1[0, v0, v1] - bn1_mean[v0]) * T.rsqrt(bn1_var[v0] + T.float32(0.001)) * bn1_gamma[v0] + bn1_beta[v0] + T.max((conv1d_ncw_2[0, v0, v1] - bnd_mean[v0]) * T.rsqrt(bnd_var[v0] + T.float32(0.001)) * bnd_gamma[v0] + bnd_beta[v0], T.float32(0.0)), T.float32(0.0))
