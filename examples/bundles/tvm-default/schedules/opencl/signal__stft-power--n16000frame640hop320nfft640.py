# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((16000,), "float32"), T_power: T.Buffer((49, 321), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_re_shared = T.sblock_alloc_buffer((49, 321), scope="shared")
        T_im_shared = T.sblock_alloc_buffer((49, 321), scope="shared")
        for ax0_ax1_fused in T.thread_binding(15729, thread="blockIdx.x"):
            for ax0, ax1 in T.grid(1, 1):
                for ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax2_fused_0 in T.serial(3, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_im"):
                            v0 = T.axis.spatial(49, ax0_ax1_fused // 321 + ax0)
                            v1 = T.axis.spatial(321, ax0_ax1_fused % 321 + ax1)
                            v2 = T.axis.reduce(640, ax2_fused_0 * 256 + ax2_fused_1)
                            T.where(ax2_fused_0 * 256 + ax2_fused_1 < 640)
                            T.reads(x[v0 * 320 + v2])
                            T.writes(T_im_shared[v0, v1])
                            with T.init():
                                T_im_shared[v0, v1] = T.float32(0.0)
                            T_im_shared[v0, v1] = T_im_shared[v0, v1] + x[v0 * 320 + v2] * (T.float32(0.5) - T.float32(0.5) * T.cos(T.float32(0.0098174770424681035) * T.Cast("float32", v2))) * T.float32(-1.0) * T.sin(T.float32(0.0098174770424681035) * T.Cast("float32", v2 * v1 % 640))
            for ax0, ax1 in T.grid(1, 1):
                for ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax2_fused_0 in T.serial(3, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_re"):
                            v0 = T.axis.spatial(49, ax0_ax1_fused // 321 + ax0)
                            v1 = T.axis.spatial(321, ax0_ax1_fused % 321 + ax1)
                            v2 = T.axis.reduce(640, ax2_fused_0 * 256 + ax2_fused_1)
                            T.where(ax2_fused_0 * 256 + ax2_fused_1 < 640)
                            T.reads(x[v0 * 320 + v2])
                            T.writes(T_re_shared[v0, v1])
                            with T.init():
                                T_re_shared[v0, v1] = T.float32(0.0)
                            T_re_shared[v0, v1] = T_re_shared[v0, v1] + x[v0 * 320 + v2] * (T.float32(0.5) - T.float32(0.5) * T.cos(T.float32(0.0098174770424681035) * T.Cast("float32", v2))) * T.cos(T.float32(0.0098174770424681035) * T.Cast("float32", v2 * v1 % 640))
            for ax2_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                for ax2_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_power"):
                        v0 = T.axis.spatial(49, ax0_ax1_fused // 321)
                        v1 = T.axis.spatial(321, ax0_ax1_fused % 321)
                        v2 = T.axis.spatial(T.int64(1), ax2_0 * T.int64(256) + ax2_1)
                        T.where(ax2_0 * T.int64(256) + ax2_1 < T.int64(1))
                        T.reads(T_re_shared[v0, v1], T_im_shared[v0, v1])
                        T.writes(T_power[v0, v1])
                        T_power[v0, v1] = T_re_shared[v0, v1] * T_re_shared[v0, v1] + T_im_shared[v0, v1] * T_im_shared[v0, v1]
