# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 128, 256), "float32"), W: T.Buffer((128, 32, 5), "float32"), group_conv1d_ncw: T.Buffer((1, 128, 256), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(128, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("group_conv1d_ncw_init"):
                    v0 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 256)
                    v1 = T.axis.spatial(256, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 256)
                    T.reads()
                    T.writes(group_conv1d_ncw[0, v0, v1])
                    group_conv1d_ncw[0, v0, v1] = T.float32(0.0)
                for ax2, ax3 in T.grid(32, 5):
                    with T.sblock("group_conv1d_ncw_update"):
                        v0 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 256)
                        v1 = T.axis.spatial(256, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 256)
                        v2, v3 = T.axis.remap("RR", [ax2, ax3])
                        T.reads(group_conv1d_ncw[0, v0, v1], X[0, v0 // 32 * 32 + v2, v1 + v3 - 2], W[v0, v2, v3])
                        T.writes(group_conv1d_ncw[0, v0, v1])
                        group_conv1d_ncw[0, v0, v1] = group_conv1d_ncw[0, v0, v1] + T.if_then_else(2 <= v1 + v3 and v1 + v3 < 258, X[0, v0 // 32 * 32 + v2, v1 + v3 - 2], T.float32(0.0)) * W[v0, v2, v3]
