# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(q: T.Buffer((2, 14, 64), "float16"), k: T.Buffer((2, 2, 64), "float16"), v: T.Buffer((2, 2, 64), "float16"), k_cache: T.Buffer((2, 1024, 2, 64), "float16"), v_cache: T.Buffer((2, 1024, 2, 64), "float16"), pos: T.Buffer((2,), "int32"), T_q_rope: T.Buffer((2, 14, 64), "float16"), T_k_cache: T.Buffer((2, 1024, 2, 64), "float16"), T_v_cache: T.Buffer((2, 1024, 2, 64), "float16")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_ax2_fused_0 in T.thread_binding(7, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_q_rope"):
                    v0 = T.axis.spatial(2, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 896)
                    v1 = T.axis.spatial(14, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 896 // 64)
                    v2 = T.axis.spatial(64, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 64)
                    T.reads(q[v0, v1, v2 % 32:v2 % 32 + 33], pos[v0])
                    T.writes(T_q_rope[v0, v1, v2])
                    T_q_rope[v0, v1, v2] = T.Cast("float16", T.if_then_else(v2 < 32, T.Cast("float32", q[v0, v1, v2]) * T.cos(T.Cast("float32", pos[v0]) * T.pow(T.float32(10000.0), T.float32(-2.0) * T.Cast("float32", v2 % 32) / T.float32(64.0))) - T.Cast("float32", q[v0, v1, v2 + 32]) * T.sin(T.Cast("float32", pos[v0]) * T.pow(T.float32(10000.0), T.float32(-2.0) * T.Cast("float32", v2 % 32) / T.float32(64.0))), T.Cast("float32", q[v0, v1, v2 % 32 + 32]) * T.cos(T.Cast("float32", pos[v0]) * T.pow(T.float32(10000.0), T.float32(-2.0) * T.Cast("float32", v2 % 32) / T.float32(64.0))) + T.Cast("float32", q[v0, v1, v2 % 32]) * T.sin(T.Cast("float32", pos[v0]) * T.pow(T.float32(10000.0), T.float32(-2.0) * T.Cast("float32", v2 % 32) / T.float32(64.0)))))
        for ax0_ax1_ax2_ax3_fused_0 in T.thread_binding(1024, thread="blockIdx.x"):
            for ax0_ax1_ax2_ax3_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_k_cache"):
                    v0 = T.axis.spatial(2, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) // 131072)
                    v1 = T.axis.spatial(1024, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 131072 // 128)
                    v2 = T.axis.spatial(2, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 128 // 64)
                    v3 = T.axis.spatial(64, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 64)
                    T.reads(pos[v0], k[v0, v2, v3 % 32:v3 % 32 + 33], k_cache[v0, v1, v2, v3])
                    T.writes(T_k_cache[v0, v1, v2, v3])
                    T_k_cache[v0, v1, v2, v3] = T.if_then_else(v1 == pos[v0], T.Cast("float16", T.if_then_else(v3 < 32, T.Cast("float32", k[v0, v2, v3 % 32]) * T.cos(T.Cast("float32", pos[v0]) * T.pow(T.float32(10000.0), T.float32(-2.0) * T.Cast("float32", v3 % 32) / T.float32(64.0))) - T.Cast("float32", k[v0, v2, v3 % 32 + 32]) * T.sin(T.Cast("float32", pos[v0]) * T.pow(T.float32(10000.0), T.float32(-2.0) * T.Cast("float32", v3 % 32) / T.float32(64.0))), T.Cast("float32", k[v0, v2, v3 % 32 + 32]) * T.cos(T.Cast("float32", pos[v0]) * T.pow(T.float32(10000.0), T.float32(-2.0) * T.Cast("float32", v3 % 32) / T.float32(64.0))) + T.Cast("float32", k[v0, v2, v3 % 32]) * T.sin(T.Cast("float32", pos[v0]) * T.pow(T.float32(10000.0), T.float32(-2.0) * T.Cast("float32", v3 % 32) / T.float32(64.0))))), k_cache[v0, v1, v2, v3])
        for ax0_ax1_ax2_ax3_fused_0 in T.thread_binding(1024, thread="blockIdx.x"):
            for ax0_ax1_ax2_ax3_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_v_cache"):
                    v0 = T.axis.spatial(2, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) // 131072)
                    v1 = T.axis.spatial(1024, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 131072 // 128)
                    v2 = T.axis.spatial(2, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 128 // 64)
                    v3 = T.axis.spatial(64, (ax0_ax1_ax2_ax3_fused_0 * 256 + ax0_ax1_ax2_ax3_fused_1) % 64)
                    T.reads(pos[v0], v[v0, v2, v3], v_cache[v0, v1, v2, v3])
                    T.writes(T_v_cache[v0, v1, v2, v3])
                    T_v_cache[v0, v1, v2, v3] = T.if_then_else(v1 == pos[v0], v[v0, v2, v3], v_cache[v0, v1, v2, v3])
