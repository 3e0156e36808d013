# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 32, 25, 5), "float32"), gamma: T.Buffer((32,), "float32"), beta: T.Buffer((32,), "float32"), T_instance_norm: T.Buffer((1, 32, 25, 5), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        X_red_temp_v0_shared = T.sblock_alloc_buffer((1, 32), scope="shared")
        X_red_temp_v1_shared = T.sblock_alloc_buffer((1, 32), scope="shared")
        for ax0_fused in T.thread_binding(32, thread="blockIdx.x"):
            for ax0 in range(1):
                for ax1_ax2_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_ax2_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("X_red_temp"):
                            v0 = T.axis.spatial(32, ax0_fused + ax0)
                            v1 = T.axis.reduce(25, (ax1_ax2_fused_0 * 256 + ax1_ax2_fused_1) // 5)
                            v2 = T.axis.reduce(5, (ax1_ax2_fused_0 * 256 + ax1_ax2_fused_1) % 5)
                            T.where(ax1_ax2_fused_0 * 256 + ax1_ax2_fused_1 < 125)
                            T.reads(X[0, v0, v1, v2])
                            T.writes(X_red_temp_v0_shared[0, v0], X_red_temp_v1_shared[0, v0])
                            with T.init():
                                X_red_temp_v0_shared[0, v0] = T.float32(0.0)
                                X_red_temp_v1_shared[0, v0] = T.float32(0.0)
                            v_X_red_temp_v0: T.let[T.float32] = X_red_temp_v0_shared[0, v0] + X[0, v0, v1, v2]
                            v_X_red_temp_v1: T.let[T.float32] = X_red_temp_v1_shared[0, v0] + X[0, v0, v1, v2] * X[0, v0, v1, v2]
                            X_red_temp_v0_shared[0, v0] = v_X_red_temp_v0
                            X_red_temp_v1_shared[0, v0] = v_X_red_temp_v1
            for ax1 in range(25):
                for ax2_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax2_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_instance_norm"):
                            v0, v1 = T.axis.remap("SS", [ax0_fused, ax1])
                            v2 = T.axis.spatial(5, ax2_0 * 256 + ax2_1)
                            T.where(ax2_0 * 256 + ax2_1 < 5)
                            T.reads(X[0, v0, v1, v2], X_red_temp_v0_shared[0, v0], X_red_temp_v1_shared[0, v0], gamma[v0], beta[v0])
                            T.writes(T_instance_norm[0, v0, v1, v2])
                            T_instance_norm[0, v0, v1, v2] = (X[0, v0, v1, v2] - X_red_temp_v0_shared[0, v0] / T.float32(125.0)) * T.rsqrt(X_red_temp_v1_shared[0, v0] / T.float32(125.0) - X_red_temp_v0_shared[0, v0] / T.float32(125.0) * (X_red_temp_v0_shared[0, v0] / T.float32(125.0)) + T.float32(1.0000000000000001e-05)) * gamma[v0] + beta[v0]
