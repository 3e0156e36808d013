# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X1: T.Buffer((32, 256), "float32"), W: T.Buffer((256, 128), "float32"), X2: T.Buffer((32, 128), "float32"), T_bilinear: T.Buffer((32,), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_xw = T.sblock_alloc_buffer((32, 128))
        for ax0_ax1_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_xw_init"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                    v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                    T.reads()
                    T.writes(T_xw[v0, v1])
                    T_xw[v0, v1] = T.float32(0.0)
                for ax2 in range(256):
                    with T.sblock("T_xw_update"):
                        v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                        v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                        v2 = T.axis.reduce(256, ax2)
                        T.reads(T_xw[v0, v1], X1[v0, v2], W[v2, v1])
                        T.writes(T_xw[v0, v1])
                        T_xw[v0, v1] = T_xw[v0, v1] + X1[v0, v2] * W[v2, v1]
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_bilinear_init"):
                    v0 = T.axis.spatial(32, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 32)
                    T.reads()
                    T.writes(T_bilinear[v0])
                    T_bilinear[v0] = T.float32(0.0)
                for ax1 in range(128):
                    with T.sblock("T_bilinear_update"):
                        v0 = T.axis.spatial(32, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(128, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 32)
                        T.reads(T_bilinear[v0], T_xw[v0, v1], X2[v0, v1])
                        T.writes(T_bilinear[v0])
                        T_bilinear[v0] = T_bilinear[v0] + T_xw[v0, v1] * X2[v0, v1]
