# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((256, 128), "float32"), Y: T.Buffer((256, 128), "float32"), T_cosine: T.Buffer((256,), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_dot_shared = T.sblock_alloc_buffer((256,), scope="shared")
        T_norm_x_sq_shared = T.sblock_alloc_buffer((256,), scope="shared")
        T_norm_y_sq_shared = T.sblock_alloc_buffer((256,), scope="shared")
        for ax0_fused in T.thread_binding(256, thread="blockIdx.x"):
            for ax0 in range(1):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_norm_y_sq"):
                            v0 = T.axis.spatial(256, ax0_fused + ax0)
                            v1 = T.axis.reduce(128, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 128)
                            T.reads(Y[v0, v1])
                            T.writes(T_norm_y_sq_shared[v0])
                            with T.init():
                                T_norm_y_sq_shared[v0] = T.float32(0.0)
                            T_norm_y_sq_shared[v0] = T_norm_y_sq_shared[v0] + Y[v0, v1] * Y[v0, v1]
            for ax0 in range(1):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_norm_x_sq"):
                            v0 = T.axis.spatial(256, ax0_fused + ax0)
                            v1 = T.axis.reduce(128, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 128)
                            T.reads(X[v0, v1])
                            T.writes(T_norm_x_sq_shared[v0])
                            with T.init():
                                T_norm_x_sq_shared[v0] = T.float32(0.0)
                            T_norm_x_sq_shared[v0] = T_norm_x_sq_shared[v0] + X[v0, v1] * X[v0, v1]
            for ax0 in range(1):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_dot"):
                            v0 = T.axis.spatial(256, ax0_fused + ax0)
                            v1 = T.axis.reduce(128, ax1_fused_0 * 256 + ax1_fused_1)
                            T.where(ax1_fused_0 * 256 + ax1_fused_1 < 128)
                            T.reads(X[v0, v1], Y[v0, v1])
                            T.writes(T_dot_shared[v0])
                            with T.init():
                                T_dot_shared[v0] = T.float32(0.0)
                            T_dot_shared[v0] = T_dot_shared[v0] + X[v0, v1] * Y[v0, v1]
            for ax1_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                for ax1_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("T_cosine"):
                        v0 = T.axis.spatial(256, ax0_fused)
                        v1 = T.axis.spatial(T.int64(1), ax1_0 * T.int64(256) + ax1_1)
                        T.where(ax1_0 * T.int64(256) + ax1_1 < T.int64(1))
                        T.reads(T_dot_shared[v0], T_norm_x_sq_shared[v0], T_norm_y_sq_shared[v0])
                        T.writes(T_cosine[v0])
                        T_cosine[v0] = T_dot_shared[v0] / T.max(T.sqrt(T_norm_x_sq_shared[v0]) * T.sqrt(T_norm_y_sq_shared[v0]), T.float32(1e-08))
