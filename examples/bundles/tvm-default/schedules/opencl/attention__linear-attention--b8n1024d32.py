# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(Q: T.Buffer((8, 1024, 32), "float32"), K: T.Buffer((8, 1024, 32), "float32"), V: T.Buffer((8, 1024, 32), "float32"), T_linear_attention: T.Buffer((8, 1024, 32), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_kv = T.sblock_alloc_buffer((8, 32, 32))
        T_num = T.sblock_alloc_buffer((8, 1024, 32))
        T_ksum = T.sblock_alloc_buffer((8, 32))
        T_den = T.sblock_alloc_buffer((8, 1024))
        for ax0_ax1_ax2_fused_0 in T.thread_binding(32, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_kv_init"):
                    v0 = T.axis.spatial(8, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 1024)
                    v1 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 1024 // 32)
                    v2 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32)
                    T.reads()
                    T.writes(T_kv[v0, v1, v2])
                    T_kv[v0, v1, v2] = T.float32(0.0)
                for ax3 in range(1024):
                    with T.sblock("T_kv_update"):
                        v0 = T.axis.spatial(8, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 1024)
                        v1 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 1024 // 32)
                        v2 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32)
                        v3 = T.axis.reduce(1024, ax3)
                        T.reads(T_kv[v0, v1, v2], K[v0, v3, v1], V[v0, v3, v2])
                        T.writes(T_kv[v0, v1, v2])
                        T_kv[v0, v1, v2] = T_kv[v0, v1, v2] + T.if_then_else(T.float32(0.0) < K[v0, v3, v1], K[v0, v3, v1] + T.float32(1.0), T.exp(K[v0, v3, v1])) * V[v0, v3, v2]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(1024, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_num_init"):
                    v0 = T.axis.spatial(8, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 32768)
                    v1 = T.axis.spatial(1024, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32768 // 32)
                    v2 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32)
                    T.reads()
                    T.writes(T_num[v0, v1, v2])
                    T_num[v0, v1, v2] = T.float32(0.0)
                for ax3 in range(32):
                    with T.sblock("T_num_update"):
                        v0 = T.axis.spatial(8, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 32768)
                        v1 = T.axis.spatial(1024, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32768 // 32)
                        v2 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32)
                        v3 = T.axis.reduce(32, ax3)
                        T.reads(T_num[v0, v1, v2], Q[v0, v1, v3], T_kv[v0, v3, v2])
                        T.writes(T_num[v0, v1, v2])
                        T_num[v0, v1, v2] = T_num[v0, v1, v2] + T.if_then_else(T.float32(0.0) < Q[v0, v1, v3], Q[v0, v1, v3] + T.float32(1.0), T.exp(Q[v0, v1, v3])) * T_kv[v0, v3, v2]
        for ax0_ax1_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_ksum_init"):
                    v0 = T.axis.spatial(8, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 32)
                    v1 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 32)
                    T.reads()
                    T.writes(T_ksum[v0, v1])
                    T_ksum[v0, v1] = T.float32(0.0)
                for ax2 in range(1024):
                    with T.sblock("T_ksum_update"):
                        v0 = T.axis.spatial(8, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 32)
                        v1 = T.axis.spatial(32, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 32)
                        v2 = T.axis.reduce(1024, ax2)
                        T.reads(T_ksum[v0, v1], K[v0, v2, v1])
                        T.writes(T_ksum[v0, v1])
                        T_ksum[v0, v1] = T_ksum[v0, v1] + T.if_then_else(T.float32(0.0) < K[v0, v2, v1], K[v0, v2, v1] + T.float32(1.0), T.exp(K[v0, v2, v1]))
        for ax0_ax1_fused_0 in T.thread_binding(32, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_den_init"):
                    v0 = T.axis.spatial(8, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1024)
                    v1 = T.axis.spatial(1024, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1024)
                    T.reads()
                    T.writes(T_den[v0, v1])
                    T_den[v0, v1] = T.float32(0.0)
                for ax2 in range(32):
                    with T.sblock("T_den_update"):
                        v0 = T.axis.spatial(8, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1024)
                        v1 = T.axis.spatial(1024, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1024)
                        v2 = T.axis.reduce(32, ax2)
                        T.reads(T_den[v0, v1], Q[v0, v1, v2], T_ksum[v0, v2])
                        T.writes(T_den[v0, v1])
                        T_den[v0, v1] = T_den[v0, v1] + T.if_then_else(T.float32(0.0) < Q[v0, v1, v2], Q[v0, v1, v2] + T.float32(1.0), T.exp(Q[v0, v1, v2])) * T_ksum[v0, v2]
        for ax0_ax1_ax2_fused_0 in T.thread_binding(1024, thread="blockIdx.x"):
            for ax0_ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_linear_attention"):
                    v0 = T.axis.spatial(8, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) // 32768)
                    v1 = T.axis.spatial(1024, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32768 // 32)
                    v2 = T.axis.spatial(32, (ax0_ax1_ax2_fused_0 * 256 + ax0_ax1_ax2_fused_1) % 32)
                    T.reads(T_num[v0, v1, v2], T_den[v0, v1])
                    T.writes(T_linear_attention[v0, v1, v2])
                    T_linear_attention[v0, v1, v2] = T_num[v0, v1, v2] / T_den[v0, v1]
