# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((64, 4096), "float32"), X_red: T.Buffer((64,), "int32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        X_red_temp_v0_shared = T.sblock_alloc_buffer((64,), "int32", scope="shared")
        X_red_temp_v1_shared = T.sblock_alloc_buffer((64,), scope="shared")
        for ax0_fused in T.thread_binding(64, thread="blockIdx.x"):
            for ax0 in range(1):
                for ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_fused_0 in T.serial(16, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("X_red_temp"):
                            v0 = T.axis.spatial(64, ax0_fused + ax0)
                            v1 = T.axis.reduce(4096, ax1_fused_0 * 256 + ax1_fused_1)
                            T.reads(X[v0, v1])
                            T.writes(X_red_temp_v0_shared[v0], X_red_temp_v1_shared[v0])
                            with T.init():
                                X_red_temp_v0_shared[v0] = -1
                                X_red_temp_v1_shared[v0] = T.float32(-340282346638528859811704183484516925440.0)
                            v_X_red_temp_v0: T.let[T.int32] = T.Select(X_red_temp_v1_shared[v0] > X[v0, v1] or X_red_temp_v1_shared[v0] == X[v0, v1] and X_red_temp_v0_shared[v0] < v1, X_red_temp_v0_shared[v0], v1)
                            v_X_red_temp_v1: T.let[T.float32] = T.Select(X_red_temp_v1_shared[v0] > X[v0, v1], X_red_temp_v1_shared[v0], X[v0, v1])
                            X_red_temp_v0_shared[v0] = v_X_red_temp_v0
                            X_red_temp_v1_shared[v0] = v_X_red_temp_v1
            for ax1_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                for ax1_0 in T.serial(T.int64(1), annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                    with T.sblock("X_red"):
                        v0 = T.axis.spatial(64, ax0_fused)
                        v1 = T.axis.spatial(T.int64(1), ax1_0 * T.int64(256) + ax1_1)
                        T.where(ax1_0 * T.int64(256) + ax1_1 < T.int64(1))
                        T.reads(X_red_temp_v0_shared[v0])
                        T.writes(X_red[v0])
                        X_red[v0] = X_red_temp_v0_shared[v0]
