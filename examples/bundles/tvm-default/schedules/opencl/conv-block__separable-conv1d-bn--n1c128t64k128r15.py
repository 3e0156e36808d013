# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 128, 64), "float32"), Wd: T.Buffer((128, 1, 15), "float32"), Wp: T.Buffer((128, 128, 1), "float32"), bn_gamma: T.Buffer((128,), "float32"), bn_beta: T.Buffer((128,), "float32"), bn_mean: T.Buffer((128,), "float32"), bn_var: T.Buffer((128,), "float32"), T_bn_relu: T.Buffer((1, 128, 64), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        group_conv1d_ncw_shared = T.sblock_alloc_buffer((1, 128, 64), scope="shared")
        conv1d_ncw_shared = T.sblock_alloc_buffer((1, 128, 64), scope="shared")
        for ax0_ax1_fused in T.thread_binding(8192, thread="blockIdx.x"):
            for ax0, ax1 in T.grid(128, 1):
                for ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax2_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("group_conv1d_ncw"):
                            v0 = T.axis.spatial(128, ax0)
                            v1 = T.axis.spatial(64, ax0_ax1_fused % 64 + ax1)
                            v2 = T.axis.reduce(15, ax2_fused_0 * 256 + ax2_fused_1)
                            T.where(ax2_fused_0 * 256 + ax2_fused_1 < 15)
                            T.reads(X[0, v0, v1 + v2 - 7], Wd[v0, 0, v2])
                            T.writes(group_conv1d_ncw_shared[0, v0, v1])
                            with T.init():
                                group_conv1d_ncw_shared[0, v0, v1] = T.float32(0.0)
                            group_conv1d_ncw_shared[0, v0, v1] = group_conv1d_ncw_shared[0, v0, v1] + T.if_then_else(7 <= v1 + v2 and v1 + v2 < 71, X[0, v0, v1 + v2 - 7], T.float32(0.0)) * Wd[v0, 0, v2]
            for ax0, ax1 in T.grid(1, 1):
                for ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax2_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("conv1d_ncw"):
                            v0 = T.axis.spatial(128, ax0_ax1_fused // 64 + ax0)
                            v1 = T.axis.spatial(64, ax0_ax1_fused % 64 + ax1)
                            v2 = T.axis.reduce(128, ax2_fused_0 * 256 + ax2_fused_1)
                            T.where(ax2_fused_0 * 256 + ax2_fused_1 < 128)
                            T.reads(group_conv1d_ncw_shared[0, v2, v1], Wp[v0, v2, 0])
                            T.writes(conv1d_ncw_shared[0, v0, v1])
                            with T.init():
                                conv1d_ncw_shared[0, v0, v1] = T.float32(0.0)
                            conv1d_ncw_shared[0, v0, v1] = conv1d_ncw_shared[0, v0, v1] + group_conv1d_ncw_shared[0, v2, v1] * Wp[v0, v2, 0]
            for ax2_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                for ax2_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_bn_relu"):
                        v0 = T.axis.spatial(128, ax0_ax1_fused // 64)
                        v1 = T.axis.spatial(64, ax0_ax1_fused % 64)
                        v2 = T.axis.spatial(T.int64(1), ax2_0 * T.int64(256) + ax2_1)
                        T.where(ax2_0 * T.int64(256) + ax2_1 < T.int64(1))
                        T.reads(conv1d_ncw_shared[0, v0, v1], bn_mean[v0], bn_var[v0], bn_gamma[v0], bn_beta[v0])
                        T.writes(T_bn_relu[0, v0, v1])
                        T_bn_relu[0, v0, v1] = T.max((conv1d_ncw_shared[0, v0, v1] - bn_mean[v0]) * T.rsqrt(bn_var[v0] + T.float32(0.001)) * bn_gamma[v0] + bn_beta[v0], T.float32(0.0))
