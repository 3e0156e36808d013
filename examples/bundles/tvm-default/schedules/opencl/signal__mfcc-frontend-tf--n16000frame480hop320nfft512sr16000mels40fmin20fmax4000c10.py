# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((16000,), "float32"), T_mfcc: T.Buffer((49, 10), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_re = T.sblock_alloc_buffer((49, 257))
        T_im = T.sblock_alloc_buffer((49, 257))
        T_mel = T.sblock_alloc_buffer((49, 40))
        for ax0_ax1_fused_0 in T.thread_binding(50, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_re_init"):
                    v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 257)
                    v1 = T.axis.spatial(257, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 257)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 12593)
                    T.reads()
                    T.writes(T_re[v0, v1])
                    T_re[v0, v1] = T.float32(0.0)
                for ax2 in range(512):
                    with T.sblock("T_re_update"):
                        v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 257)
                        v1 = T.axis.spatial(257, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 257)
                        v2 = T.axis.reduce(512, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 12593)
                        T.reads(T_re[v0, v1], x[v0 * 320 + v2])
                        T.writes(T_re[v0, v1])
                        T_re[v0, v1] = T_re[v0, v1] + T.if_then_else(v2 < 480, x[v0 * 320 + v2] * (T.float32(0.5) - T.float32(0.5) * T.cos(T.float32(0.013089969389957471) * T.Cast("float32", v2))), T.float32(0.0)) * T.cos(T.float32(0.012271846303085129) * T.Cast("float32", v2 * v1 % 512))
        for ax0_ax1_fused_0 in T.thread_binding(50, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_im_init"):
                    v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 257)
                    v1 = T.axis.spatial(257, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 257)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 12593)
                    T.reads()
                    T.writes(T_im[v0, v1])
                    T_im[v0, v1] = T.float32(0.0)
                for ax2 in range(512):
                    with T.sblock("T_im_update"):
                        v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 257)
                        v1 = T.axis.spatial(257, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 257)
                        v2 = T.axis.reduce(512, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 12593)
                        T.reads(T_im[v0, v1], x[v0 * 320 + v2])
                        T.writes(T_im[v0, v1])
                        T_im[v0, v1] = T_im[v0, v1] + T.if_then_else(v2 < 480, x[v0 * 320 + v2] * (T.float32(0.5) - T.float32(0.5) * T.cos(T.float32(0.013089969389957471) * T.Cast("float32", v2))), T.float32(0.0)) * T.float32(-1.0) * T.sin(T.float32(0.012271846303085129) * T.Cast("float32", v2 * v1 % 512))
        for ax0_ax1_fused_0 in T.thread_binding(8, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_mel_init"):
                    v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 40)
                    v1 = T.axis.spatial(40, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 40)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 1960)
                    T.reads()
                    T.writes(T_mel[v0, v1])
                    T_mel[v0, v1] = T.float32(0.0)
                for ax2 in range(257):
                    with T.sblock("T_mel_update"):
                        v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 40)
                        v1 = T.axis.spatial(40, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 40)
                        v2 = T.axis.reduce(257, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 1960)
                        T.reads(T_mel[v0, v1], T_re[v0, v2], T_im[v0, v2])
                        T.writes(T_mel[v0, v1])
                        T_mel[v0, v1] = T_mel[v0, v1] + T.sqrt(T_re[v0, v2] * T_re[v0, v2] + T_im[v0, v2] * T_im[v0, v2]) * T.if_then_else(v2 == 0, T.float32(0.0), T.max(T.min((T.float32(1127.0) * T.log(T.float32(1.0) + T.Cast("float32", v2) * T.float32(0.044642857142857144)) - (T.float32(31.748578341466754) + T.Cast("float32", v1) * T.float32(51.568951970742226))) / T.float32(51.568951970742226), (T.float32(31.748578341466754) + T.Cast("float32", v1) * T.float32(51.568951970742226) + T.float32(103.13790394148445) - T.float32(1127.0) * T.log(T.float32(1.0) + T.Cast("float32", v2) * T.float32(0.044642857142857144))) / T.float32(51.568951970742226)), T.float32(0.0)))
        for ax0_ax1_fused_0 in T.thread_binding(2, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_mfcc_init"):
                    v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 10)
                    v1 = T.axis.spatial(10, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 10)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 490)
                    T.reads()
                    T.writes(T_mfcc[v0, v1])
                    T_mfcc[v0, v1] = T.float32(0.0)
                for ax2 in range(40):
                    with T.sblock("T_mfcc_update"):
                        v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 10)
                        v1 = T.axis.spatial(10, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 10)
                        v2 = T.axis.reduce(40, ax2)
                        T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 490)
                        T.reads(T_mfcc[v0, v1], T_mel[v0, v2])
                        T.writes(T_mfcc[v0, v1])
                        T_mfcc[v0, v1] = T_mfcc[v0, v1] + T.log(T_mel[v0, v2] + T.float32(9.9999999999999995e-07)) * (T.cos(T.float32(0.039269908169872414) * T.Cast("float32", v1 * (v2 * 2 + 1) % 160)) * T.if_then_else(v1 == 0, T.float32(0.22360679774997896), T.float32(0.22360679774997896)))
