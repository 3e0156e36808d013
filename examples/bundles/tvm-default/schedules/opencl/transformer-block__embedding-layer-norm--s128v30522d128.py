# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(ids: T.Buffer((128,), "int32"), word: T.Buffer((30522, 128), "float32"), pos: T.Buffer((128, 128), "float32"), gamma: T.Buffer((128,), "float32"), beta: T.Buffer((128,), "float32"), T_layer_norm: T.Buffer((128, 128), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_embed_sum_shared = T.sblock_alloc_buffer((128,), scope="shared")
        T_embed_var_sum_shared = T.sblock_alloc_buffer((128,), scope="shared")
        for ax0_fused in T.thread_binding(128, thread="blockIdx.x"):
            for ax0 in range(1):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_embed_sum"):
                            v0 = T.axis.spatial(128, ax0_fused + ax0)
                            v1 = T.axis.reduce(128, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 128)
                            T.reads(word[ids[v0], v1], ids[v0], pos[v0, v1])
                            T.writes(T_embed_sum_shared[v0])
                            with T.init():
                                T_embed_sum_shared[v0] = T.float32(0.0)
                            T_embed_sum_shared[v0] = T_embed_sum_shared[v0] + (word[ids[v0], v1] + pos[v0, v1])
            for ax0 in range(1):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_embed_var_sum"):
                            v0 = T.axis.spatial(128, ax0_fused + ax0)
                            v1 = T.axis.reduce(128, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 128)
                            T.reads(ids[v0], word[ids[v0], v1], pos[v0, v1], T_embed_sum_shared[v0])
                            T.writes(T_embed_var_sum_shared[v0])
                            with T.init():
                                T_embed_var_sum_shared[v0] = T.float32(0.0)
                            T_embed_var_sum_shared[v0] = T_embed_var_sum_shared[v0] + (word[ids[v0], v1] + pos[v0, v1] - T_embed_sum_shared[v0] / T.float32(128.0)) * (word[ids[v0], v1] + pos[v0, v1] - T_embed_sum_shared[v0] / T.float32(128.0))
            for ax1_1 in T.thread_binding(256, thread="threadIdx.x"):
                for ax1_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_layer_norm"):
                        v0 = T.axis.spatial(128, ax0_fused)
                        v1 = T.axis.spatial(128, ax1_0 * 256 + ax1_1)
                        T.where(ax1_0 * 256 + ax1_1 < 128)
                        T.reads(ids[v0], word[ids[v0], v1], pos[v0, v1], T_embed_sum_shared[v0], T_embed_var_sum_shared[v0], gamma[v1], beta[v1])
                        T.writes(T_layer_norm[v0, v1])
                        T_layer_norm[v0, v1] = (word[ids[v0], v1] + pos[v0, v1] - T_embed_sum_shared[v0] / T.float32(128.0)) * T.rsqrt(T_embed_var_sum_shared[v0] / T.float32(128.0) + T.float32(1.0000000000000001e-05)) * gamma[v1] + beta[v1]
