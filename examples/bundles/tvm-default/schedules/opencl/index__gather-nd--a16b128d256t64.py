# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((16, 128, 256), "float32"), idx: T.Buffer((2, 64), "int32"), T_gather_nd: T.Buffer((64, 256), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(64, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_gather_nd"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 256)
                    v1 = T.axis.spatial(256, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 256)
                    T.reads(X[idx[0, v0], idx[1, v0], v1], idx[0:2, v0])
                    T.writes(T_gather_nd[v0, v1])
                    T_gather_nd[v0, v1] = X[idx[0, v0], idx[1, v0], v1]
