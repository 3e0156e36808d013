# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 64, 32, 32), "float32"), gamma: T.Buffer((64,), "float32"), beta: T.Buffer((64,), "float32"), T_reshape: T.Buffer((1, 64, 32, 32), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        X_red_temp_v0_shared = T.sblock_alloc_buffer((1, 8), scope="shared")
        X_red_temp_v1_shared = T.sblock_alloc_buffer((1, 8), scope="shared")
        for ax0_fused in T.thread_binding(T.int64(1), thread="blockIdx.x"):
            for ax0 in range(8):
                for ax1_ax2_ax3_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax1_ax2_ax3_fused_0 in T.serial(32, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("X_red_temp"):
                            v0 = T.axis.spatial(8, ax0)
                            v1 = T.axis.reduce(8, (ax1_ax2_ax3_fused_0 * 256 + ax1_ax2_ax3_fused_1) // 1024)
                            v2 = T.axis.reduce(32, (ax1_ax2_ax3_fused_0 * 256 + ax1_ax2_ax3_fused_1) % 1024 // 32)
                            v3 = T.axis.reduce(32, (ax1_ax2_ax3_fused_0 * 256 + ax1_ax2_ax3_fused_1) % 32)
                            T.reads(X[0, v0 * 8 + v1, v2, v3])
                            T.writes(X_red_temp_v0_shared[0, v0], X_red_temp_v1_shared[0, v0])
                            with T.init():
                                X_red_temp_v0_shared[0, v0] = T.float32(0.0)
                                X_red_temp_v1_shared[0, v0] = T.float32(0.0)
                            v_X_red_temp_v0: T.let[T.float32] = X_red_temp_v0_shared[0, v0] + X[0, v0 * 8 + v1, v2, v3]
                            v_X_red_temp_v1: T.let[T.float32] = X_red_temp_v1_shared[0, v0] + X[0, v0 * 8 + v1, v2, v3] * X[0, v0 * 8 + v1, v2, v3]
                            X_red_temp_v0_shared[0, v0] = v_X_red_temp_v0
                            X_red_temp_v1_shared[0, v0] = v_X_red_temp_v1
            for ax1, ax2 in T.grid(64, 32):
                for ax3_1 in T.thread_binding(256, thread="threadIdx.x"):
                    for ax3_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        with T.sblock("T_reshape_3"):
                            v0 = T.axis.spatial(T.int64(1), T.int64(0))
                            v1, v2 = T.axis.remap("SS", [ax1, ax2])
                            v3 = T.axis.spatial(32, ax3_0 * 256 + ax3_1)
                            T.where(ax3_0 * 256 + ax3_1 < 32)
                            T.reads(X[0, v1, v2, v3], X_red_temp_v0_shared[0, v1 // 8], X_red_temp_v1_shared[0, v1 // 8], gamma[v1], beta[v1])
                            T.writes(T_reshape[0, v1, v2, v3])
                            T_reshape[0, v1, v2, v3] = (X[0, v1, v2, v3] - X_red_temp_v0_shared[0, v1 // 8] / T.float32(8192.0)) * T.rsqrt(X_red_temp_v1_shared[0, v1 // 8] / T.float32(8192.0) - X_red_temp_v0_shared[0, v1 // 8] / T.float32(8192.0) * (X_red_temp_v0_shared[0, v1 // 8] / T.float32(8192.0)) + T.float32(1.0000000000000001e-05)) * gamma[v1] + beta[v1]
