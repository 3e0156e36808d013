# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((49, 640), "float32"), T_re: T.Buffer((49, 321), "float32"), T_im: T.Buffer((49, 321), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(62, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_re_init"):
                    v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 321)
                    v1 = T.axis.spatial(321, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 321)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 15729)
                    T.reads()
                    T.writes(T_re[v0, v1])
                    T_re[v0, v1] = T.float32(0.0)
                for ax2 in range(640):
                    with T.sblock("T_re_update"):
                        v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 321)
                        v1 = T.axis.spatial(321, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 321)
                        v2 = T.axis.reduce(640, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 15729)
                        T.reads(T_re[v0, v1], X[v0, v2])
                        T.writes(T_re[v0, v1])
                        T_re[v0, v1] = T_re[v0, v1] + X[v0, v2] * T.cos(T.float32(0.0098174770424681035) * T.Cast("float32", v2 * v1 % 640))
        for ax0_ax1_fused_0 in T.thread_binding(62, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_im_init"):
                    v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 321)
                    v1 = T.axis.spatial(321, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 321)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 15729)
                    T.reads()
                    T.writes(T_im[v0, v1])
                    T_im[v0, v1] = T.float32(0.0)
                for ax2 in range(640):
                    with T.sblock("T_im_update"):
                        v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 321)
                        v1 = T.axis.spatial(321, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 321)
                        v2 = T.axis.reduce(640, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 15729)
                        T.reads(T_im[v0, v1], X[v0, v2])
                        T.writes(T_im[v0, v1])
                        T_im[v0, v1] = T_im[v0, v1] + X[v0, v2] * T.float32(-1.0) * T.sin(T.float32(0.0098174770424681035) * T.Cast("float32", v2 * v1 % 640))
