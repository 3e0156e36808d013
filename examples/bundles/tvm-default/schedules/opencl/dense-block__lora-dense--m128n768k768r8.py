# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((128, 768), "float32"), W: T.Buffer((768, 768), "float32"), A: T.Buffer((8, 768), "float32"), B: T.Buffer((768, 8), "float32"), T_lora: T.Buffer((128, 768), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_matmul_shared = T.sblock_alloc_buffer((128, 768), scope="shared")
        T_lora_a_shared = T.sblock_alloc_buffer((128, 8), scope="shared")
        T_lora_b_shared = T.sblock_alloc_buffer((128, 768), scope="shared")
        for ax0_ax1_fused in T.thread_binding(98304, thread="blockIdx.x"):
            for ax0, ax1 in T.grid(1, 8):
                for ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax2_fused_0 in T.serial(3, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_lora_a"):
                            v0 = T.axis.spatial(128, ax0_ax1_fused // 768 + ax0)
                            v1 = T.axis.spatial(8, ax1)
                            v2 = T.axis.reduce(768, ax2_fused_0 * 256 + ax2_fused_1)
                            T.reads(X[v0, v2], A[v1, v2])
                            T.writes(T_lora_a_shared[v0, v1])
                            with T.init():
                                T_lora_a_shared[v0, v1] = T.float32(0.0)
                            T_lora_a_shared[v0, v1] = T_lora_a_shared[v0, v1] + X[v0, v2] * A[v1, v2]
            for ax0, ax1 in T.grid(1, 1):
                for ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax2_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_lora_b"):
                            v0 = T.axis.spatial(128, ax0_ax1_fused // 768 + ax0)
                            v1 = T.axis.spatial(768, ax0_ax1_fused % 768 + ax1)
                            v2 = T.axis.reduce(8, ax2_fused_0 * 256 + ax2_fused_1)
                            T.where(ax2_fused_0 * 256 + ax2_fused_1 < 8)
                            T.reads(T_lora_a_shared[v0, v2], B[v1, v2])
                            T.writes(T_lora_b_shared[v0, v1])
                            with T.init():
                                T_lora_b_shared[v0, v1] = T.float32(0.0)
                            T_lora_b_shared[v0, v1] = T_lora_b_shared[v0, v1] + T_lora_a_shared[v0, v2] * B[v1, v2]
            for ax0, ax1 in T.grid(1, 1):
                for ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax2_fused_0 in T.serial(3, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_matmul"):
                            v0 = T.axis.spatial(128, ax0_ax1_fused // 768 + ax0)
                            v1 = T.axis.spatial(768, ax0_ax1_fused % 768 + ax1)
                            v2 = T.axis.reduce(768, ax2_fused_0 * 256 + ax2_fused_1)
                            T.reads(X[v0, v2], W[v1, v2])
                            T.writes(T_matmul_shared[v0, v1])
                            with T.init():
                                T_matmul_shared[v0, v1] = T.float32(0.0)
                            T_matmul_shared[v0, v1] = T_matmul_shared[v0, v1] + X[v0, v2] * W[v1, v2]
            for ax2_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                for ax2_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_lora"):
                        v0 = T.axis.spatial(128, ax0_ax1_fused // 768)
                        v1 = T.axis.spatial(768, ax0_ax1_fused % 768)
                        v2 = T.axis.spatial(T.int64(1), ax2_0 * T.int64(256) + ax2_1)
                        T.where(ax2_0 * T.int64(256) + ax2_1 < T.int64(1))
                        T.reads(T_matmul_shared[v0, v1], T_lora_b_shared[v0, v1])
                        T.writes(T_lora[v0, v1])
                        T_lora[v0, v1] = T_matmul_shared[v0, v1] + T.float32(2.0) * T_lora_b_shared[v0, v1]
