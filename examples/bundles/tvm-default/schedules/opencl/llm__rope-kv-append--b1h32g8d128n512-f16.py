# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(q: T.Buffer((1, 32, 128), "float16"), k: T.Buffer((1, 8, 128), "float16"), v: T.Buffer((1, 8, 128), "float16"), k_cache: T.Buffer((1, 512, 8, 128), "float16"), v_cache: T.Buffer((1, 512, 8, 128), "float16"), pos: T.Buffer((1,), "int32"), T_q_rope: T.Buffer((1, 32, 128), "float16"), T_k_cache: T.Buffer((1, 512, 8, 128), "float16"), T_v_cache: T.Buffer((1, 512, 8, 128), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_q_rope"):
                    v0 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 128)
                    v1 = T.axis.spatial(128, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 128)
                    T.reads(q[0, v0, v1 // 2 * 2:v1 // 2 * 2 + 2], pos[0])
                    T.writes(T_q_rope[0, v0, v1])
                    T_q_rope[0, v0, v1] = T.Cast("float16", T.if_then_else(v1 % 2 == 0, T.Cast("float32", q[0, v0, v1 // 2 * 2]) * T.cos(T.Cast("float32", pos[0]) * T.pow(T.float32(10000.0), T.float32(-2.0) * T.Cast("float32", v1 // 2) / T.float32(128.0))) - T.Cast("float32", q[0, v0, v1 // 2 * 2 + 1]) * T.sin(T.Cast("float32", pos[0]) * T.pow(T.float32(10000.0), T.float32(-2.0) * T.Cast("float32", v1 // 2) / T.float32(128.0))), T.Cast("float32", q[0, v0, v1 // 2 * 2 + 1]) * T.cos(T.Cast("float32", pos[0]) * T.pow(T.float32(10000.0), T.float32(-2.0) * T.Cast("float32", v1 // 2) / T.float32(128.0))) + T.Cast("float32", q[0, v0, v1 // 2 * 2]) * T.sin(T.Cast("float32", pos[0]) * T.pow(T.float32(10000.0), T.float32(-2.0) * T.Cast("float32", v1 // 2) / T.float32(128.0)))))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(2048, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_k_cache"):
                    v0 = T.axis.spatial(512, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 1024)
                    v1 = T.axis.spatial(8, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 1024 // 128)
                    v2 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 128)
                    T.reads(pos[0], k[0, v1, v2 // 2 * 2:v2 // 2 * 2 + 2], k_cache[0, v0, v1, v2])
                    T.writes(T_k_cache[0, v0, v1, v2])
                    T_k_cache[0, v0, v1, v2] = T.if_then_else(v0 == pos[0], T.Cast("float16", T.if_then_else(v2 % 2 == 0, T.Cast("float32", k[0, v1, v2 // 2 * 2]) * T.cos(T.Cast("float32", pos[0]) * T.pow(T.float32(10000.0), T.float32(-2.0) * T.Cast("float32", v2 // 2) / T.float32(128.0))) - T.Cast("float32", k[0, v1, v2 // 2 * 2 + 1]) * T.sin(T.Cast("float32", pos[0]) * T.pow(T.float32(10000.0), T.float32(-2.0) * T.Cast("float32", v2 // 2) / T.float32(128.0))), T.Cast("float32", k[0, v1, v2 // 2 * 2 + 1]) * T.cos(T.Cast("float32", pos[0]) * T.pow(T.float32(10000.0), T.float32(-2.0) * T.Cast("float32", v2 // 2) / T.float32(128.0))) + T.Cast("float32", k[0, v1, v2 // 2 * 2]) * T.sin(T.Cast("float32", pos[0]) * T.pow(T.float32(10000.0), T.float32(-2.0) * T.Cast("float32", v2 // 2) / T.float32(128.0))))), k_cache[0, v0, v1, v2])
        for ax0_ax1_ax2_fused_0 in T.thread_binding(2048, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_v_cache"):
                    v0 = T.axis.spatial(512, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 1024)
                    v1 = T.axis.spatial(8, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 1024 // 128)
                    v2 = T.axis.spatial(128, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 128)
                    T.reads(pos[0], v[0, v1, v2], v_cache[0, v0, v1, v2])
                    T.writes(T_v_cache[0, v0, v1, v2])
                    T_v_cache[0, v0, v1, v2] = T.if_then_else(v0 == pos[0], v[0, v1, v2], v_cache[0, v0, v1, v2])
