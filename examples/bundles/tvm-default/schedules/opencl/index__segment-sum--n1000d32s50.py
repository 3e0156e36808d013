# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1000, 32), "float32", offset_factor=1), seg: T.Buffer((1000,), "int32"), out_buf: T.Buffer((50, 32), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for u_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for u_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("scatter_elements_generic"):
                    T.where(u_fused_0 * 256 + u_fused_1 < 1)
                    T.reads()
                    T.writes()
                    T.attr({"pragma_scope": "seq"})
                    for v in T.parallel(1600):
                        out_buf[v // 32, v % 32] = T.float32(0.0)
                    for v in T.parallel(32):
                        for v_1 in range(1000):
                            out_buf[(v // 32 * 1600 + v % 32 + (seg[(v // 32 * 32000 + v % 32 + v_1 * 32) // 32] + T.Cast("int32", seg[(v // 32 * 32000 + v % 32 + v_1 * 32) // 32] < 0) * 50) * 32) // 32, (v // 32 * 1600 + v % 32 + (seg[(v // 32 * 32000 + v % 32 + v_1 * 32) // 32] + T.Cast("int32", seg[(v // 32 * 32000 + v % 32 + v_1 * 32) // 32] < 0) * 50) * 32) % 32] = out_buf[(v // 32 * 1600 + v % 32 + (seg[(v // 32 * 32000 + v % 32 + v_1 * 32) // 32] + T.Cast("int32", seg[(v // 32 * 32000 + v % 32 + v_1 * 32) // 32] < 0) * 50) * 32) // 32, (v // 32 * 1600 + v % 32 + (seg[(v // 32 * 32000 + v % 32 + v_1 * 32) // 32] + T.Cast("int32", seg[(v // 32 * 32000 + v % 32 + v_1 * 32) // 32] < 0) * 50) * 32) % 32] + X[(v // 32 * 32000 + v % 32 + v_1 * 32) // 32, (v // 32 * 32000 + v % 32 + v_1 * 32) % 32]
