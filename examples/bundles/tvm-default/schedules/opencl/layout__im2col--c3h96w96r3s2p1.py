# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((3, 96, 96), "float32"), T_im2col: T.Buffer((27, 2304), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_ax1_fused_0 in T.thread_binding(243, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_im2col"):
                    v0 = T.axis.spatial(27, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 2304)
                    v1 = T.axis.spatial(2304, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 2304)
                    T.reads(X[v0 // 9, v1 // 48 * 2 + v0 % 9 // 3 - 1, v1 % 48 * 2 + v0 % 3 - 1])
                    T.writes(T_im2col[v0, v1])
                    T_im2col[v0, v1] = T.if_then_else(1 <= v1 // 48 * 2 + v0 % 9 // 3 and v1 // 48 * 2 + v0 % 9 // 3 < 97 and 1 <= v1 % 48 * 2 + v0 % 3 and v1 % 48 * 2 + v0 % 3 < 97, X[v0 // 9, v1 // 48 * 2 + v0 % 9 // 3 - 1, v1 % 48 * 2 + v0 % 3 - 1], T.float32(0.0))
