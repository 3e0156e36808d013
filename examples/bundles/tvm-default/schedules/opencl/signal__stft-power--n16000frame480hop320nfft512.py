# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((16000,), "float32"), T_power: T.Buffer((49, 257), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_re_shared = T.sblock_alloc_buffer((49, 257), scope="shared")
        T_im_shared = T.sblock_alloc_buffer((49, 257), scope="shared")
        for ax0_ax1_fused in T.thread_binding(12593, thread="blockIdx.x"):
            for ax0, ax1 in T.grid(1, 1):
                for ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax2_fused_0 in T.serial(2, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_im"):
                            v0 = T.axis.spatial(49, ax0_ax1_fused // 257 + ax0)
                            v1 = T.axis.spatial(257, ax0_ax1_fused % 257 + ax1)
                            v2 = T.axis.reduce(512, ax2_fused_0 * 256 + ax2_fused_1)
                            T.reads(x[v0 * 320 + v2])
                            T.writes(T_im_shared[v0, v1])
                            with T.init():
                                T_im_shared[v0, v1] = T.float32(0.0)
                            T_im_shared[v0, v1] = T_im_shared[v0, v1] + T.if_then_else(v2 < 480, x[v0 * 320 + v2] * (T.float32(0.5) - T.float32(0.5) * T.cos(T.float32(0.013089969389957471) * T.Cast("float32", v2))), T.float32(0.0)) * T.float32(-1.0) * T.sin(T.float32(0.012271846303085129) * T.Cast("float32", v2 * v1 % 512))
            for ax0, ax1 in T.grid(1, 1):
                for ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax2_fused_0 in T.serial(2, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_re"):
                            v0 = T.axis.spatial(49, ax0_ax1_fused // 257 + ax0)
                            v1 = T.axis.spatial(257, ax0_ax1_fused % 257 + ax1)
                            v2 = T.axis.reduce(512, ax2_fused_0 * 256 + ax2_fused_1)
                            T.reads(x[v0 * 320 + v2])
                            T.writes(T_re_shared[v0, v1])
                            with T.init():
                                T_re_shared[v0, v1] = T.float32(0.0)
                            T_re_shared[v0, v1] = T_re_shared[v0, v1] + T.if_then_else(v2 < 480, x[v0 * 320 + v2] * (T.float32(0.5) - T.float32(0.5) * T.cos(T.float32(0.013089969389957471) * T.Cast("float32", v2))), T.float32(0.0)) * T.cos(T.float32(0.012271846303085129) * T.Cast("float32", v2 * v1 % 512))
            for ax2_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                for ax2_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_power"):
                        v0 = T.axis.spatial(49, ax0_ax1_fused // 257)
                        v1 = T.axis.spatial(257, ax0_ax1_fused % 257)
                        v2 = T.axis.spatial(T.int64(1), ax2_0 * T.int64(256) + ax2_1)
                        T.where(ax2_0 * T.int64(256) + ax2_1 < T.int64(1))
                        T.reads(T_re_shared[v0, v1], T_im_shared[v0, v1])
                        T.writes(T_power[v0, v1])
                        T_power[v0, v1] = T_re_shared[v0, v1] * T_re_shared[v0, v1] + T_im_shared[v0, v1] * T_im_shared[v0, v1]
