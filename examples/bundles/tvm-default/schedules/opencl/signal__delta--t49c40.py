# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((49, 40), "float32"), T_delta: T.Buffer((49, 40), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(8, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_delta"):
                    v0 = T.axis.spatial(49, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 40)
                    v1 = T.axis.spatial(40, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 40)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 1960)
                    T.reads(X[T.min(T.max(v0 - 2, 0), 48):T.min(T.max(v0 - 2, 0), 48) + (T.min(v0 + 2, 48) + 1 - T.max(v0 - 2, 0)), v1])
                    T.writes(T_delta[v0, v1])
                    T_delta[v0, v1] = (X[T.min(T.max(v0 + 1, 0), 48), v1] - X[T.min(T.max(v0 - 1, 0), 48), v1] + T.float32(2.0) * (X[T.min(T.max(v0 + 2, 0), 48), v1] - X[T.min(T.max(v0 - 2, 0), 48), v1])) * T.float32(0.10000000000000001)
