# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((300, 4), "float32"), B: T.Buffer((300, 4), "float32"), T_iou: T.Buffer((300, 300), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(352, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_iou"):
                    v0 = T.axis.spatial(300, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 300)
                    v1 = T.axis.spatial(300, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 300)
                    T.where(ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1 < 90000)
                    T.reads(A[v0, 0:4], B[v1, 0:4])
                    T.writes(T_iou[v0, v1])
                    T_iou[v0, v1] = T.max(T.min(A[v0, 0] + A[v0, 2], B[v1, 0] + B[v1, 2]) - T.max(A[v0, 0], B[v1, 0]), T.float32(0.0)) * T.max(T.min(A[v0, 1] + A[v0, 3], B[v1, 1] + B[v1, 3]) - T.max(A[v0, 1], B[v1, 1]), T.float32(0.0)) / (A[v0, 2] * A[v0, 3] + B[v1, 2] * B[v1, 3] - T.max(T.min(A[v0, 0] + A[v0, 2], B[v1, 0] + B[v1, 2]) - T.max(A[v0, 0], B[v1, 0]), T.float32(0.0)) * T.max(T.min(A[v0, 1] + A[v0, 3], B[v1, 1] + B[v1, 3]) - T.max(A[v0, 1], B[v1, 1]), T.float32(0.0)))
