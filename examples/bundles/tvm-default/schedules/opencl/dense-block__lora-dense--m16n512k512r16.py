# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((16, 512), "float32"), W: T.Buffer((512, 512), "float32"), A: T.Buffer((16, 512), "float32"), B: T.Buffer((512, 16), "float32"), T_lora: T.Buffer((16, 512), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_matmul_shared = T.sblock_alloc_buffer((16, 512), scope="shared")
        T_lora_a_shared = T.sblock_alloc_buffer((16, 16), scope="shared")
        T_lora_b_shared = T.sblock_alloc_buffer((16, 512), scope="shared")
        for ax0_ax1_fused in T.thread_binding(8192, thread="blockIdx.x"):
            for ax0, ax1 in T.grid(1, 16):
                for ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax2_fused_0 in T.serial(2, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_lora_a"):
                            v0 = T.axis.spatial(16, ax0_ax1_fused // 512 + ax0)
                            v1 = T.axis.spatial(16, ax1)
                            v2 = T.axis.reduce(512, ax2_fused_0 * 256 + ax2_fused_1)
                            T.reads(X[v0, v2], A[v1, v2])
                            T.writes(T_lora_a_shared[v0, v1])
                            with T.init():
                                T_lora_a_shared[v0, v1] = T.float32(0.0)
                            T_lora_a_shared[v0, v1] = T_lora_a_shared[v0, v1] + X[v0, v2] * A[v1, v2]
            for ax0, ax1 in T.grid(1, 1):
                for ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax2_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_lora_b"):
                            v0 = T.axis.spatial(16, ax0_ax1_fused // 512 + ax0)
                            v1 = T.axis.spatial(512, ax0_ax1_fused % 512 + ax1)
                            v2 = T.axis.reduce(16, ax2_fused_0 * 256 + ax2_fused_1)
                            T.where(ax2_fused_0 * 256 + ax2_fused_1 < 16)
                            T.reads(T_lora_a_shared[v0, v2], B[v1, v2])
                            T.writes(T_lora_b_shared[v0, v1])
                            with T.init():
                                T_lora_b_shared[v0, v1] = T.float32(0.0)
                            T_lora_b_shared[v0, v1] = T_lora_b_shared[v0, v1] + T_lora_a_shared[v0, v2] * B[v1, v2]
            for ax0, ax1 in T.grid(1, 1):
                for ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax2_fused_0 in T.serial(2, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_matmul"):
                            v0 = T.axis.spatial(16, ax0_ax1_fused // 512 + ax0)
                            v1 = T.axis.spatial(512, ax0_ax1_fused % 512 + ax1)
                            v2 = T.axis.reduce(512, ax2_fused_0 * 256 + ax2_fused_1)
                            T.reads(X[v0, v2], W[v1, v2])
                            T.writes(T_matmul_shared[v0, v1])
                            with T.init():
                                T_matmul_shared[v0, v1] = T.float32(0.0)
                            T_matmul_shared[v0, v1] = T_matmul_shared[v0, v1] + X[v0, v2] * W[v1, v2]
            for ax2_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                for ax2_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_lora"):
                        v0 = T.axis.spatial(16, ax0_ax1_fused // 512)
                        v1 = T.axis.spatial(512, ax0_ax1_fused % 512)
                        v2 = T.axis.spatial(T.int64(1), ax2_0 * T.int64(256) + ax2_1)
                        T.where(ax2_0 * T.int64(256) + ax2_1 < T.int64(1))
                        T.reads(T_matmul_shared[v0, v1], T_lora_b_shared[v0, v1])
                        T.writes(T_lora[v0, v1])
                        T_lora[v0, v1] = T_matmul_shared[v0, v1] + T.float32(2.0) * T_lora_b_shared[v0, v1]
