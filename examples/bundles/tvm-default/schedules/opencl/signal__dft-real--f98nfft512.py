# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((98, 512), "float32"), T_re: T.Buffer((98, 257), "float32"), T_im: T.Buffer((98, 257), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(99, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_re_init"):
                    v0 = T.axis.spatial(98, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 257)
                    v1 = T.axis.spatial(257, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 257)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 25186)
                    T.reads()
                    T.writes(T_re[v0, v1])
                    T_re[v0, v1] = T.float32(0.0)
                for ax2 in range(512):
                    with T.sblock("T_re_update"):
                        v0 = T.axis.spatial(98, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 257)
                        v1 = T.axis.spatial(257, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 257)
                        v2 = T.axis.reduce(512, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 25186)
                        T.reads(T_re[v0, v1], X[v0, v2])
                        T.writes(T_re[v0, v1])
                        T_re[v0, v1] = T_re[v0, v1] + X[v0, v2] * T.cos(T.float32(0.012271846303085129) * T.Cast("float32", v2 * v1 % 512))
        for ax0_ax1_fused_0 in T.thread_binding(99, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_im_init"):
                    v0 = T.axis.spatial(98, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 257)
                    v1 = T.axis.spatial(257, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 257)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 25186)
                    T.reads()
                    T.writes(T_im[v0, v1])
                    T_im[v0, v1] = T.float32(0.0)
                for ax2 in range(512):
                    with T.sblock("T_im_update"):
                        v0 = T.axis.spatial(98, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 257)
                        v1 = T.axis.spatial(257, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 257)
                        v2 = T.axis.reduce(512, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 25186)
                        T.reads(T_im[v0, v1], X[v0, v2])
                        T.writes(T_im[v0, v1])
                        T_im[v0, v1] = T_im[v0, v1] + X[v0, v2] * T.float32(-1.0) * T.sin(T.float32(0.012271846303085129) * T.Cast("float32", v2 * v1 % 512))
