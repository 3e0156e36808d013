# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((64, 640), "float32"), mu: T.Buffer((640,), "float32"), P: T.Buffer((640, 640), "float32"), T_mahalanobis: T.Buffer((64,), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_whiten = T.sblock_alloc_buffer((64, 640))
        for ax0_ax1_fused_0 in T.thread_binding(160, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_whiten_init"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 640)
                    v1 = T.axis.spatial(640, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 640)
                    T.reads()
                    T.writes(T_whiten[v0, v1])
                    T_whiten[v0, v1] = T.float32(0.0)
                for ax2 in range(640):
                    with T.sblock("T_whiten_update"):
                        v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 640)
                        v1 = T.axis.spatial(640, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 640)
                        v2 = T.axis.reduce(640, ax2)
                        T.reads(T_whiten[v0, v1], X[v0, v2], mu[v2], P[v2, v1])
                        T.writes(T_whiten[v0, v1])
                        T_whiten[v0, v1] = T_whiten[v0, v1] + (X[v0, v2] - mu[v2]) * P[v2, v1]
        for ax0_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_mahalanobis_init"):
                    v0 = T.axis.spatial(64, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 64)
                    T.reads()
                    T.writes(T_mahalanobis[v0])
                    T_mahalanobis[v0] = T.float32(0.0)
                for ax1 in range(640):
                    with T.sblock("T_mahalanobis_update"):
                        v0 = T.axis.spatial(64, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(640, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 64)
                        T.reads(T_mahalanobis[v0], T_whiten[v0, v1], X[v0, v1], mu[v1])
                        T.writes(T_mahalanobis[v0])
                        T_mahalanobis[v0] = T_mahalanobis[v0] + T_whiten[v0, v1] * (X[v0, v1] - mu[v1])
