# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((2048, 64), "float32", offset_factor=1), seg: T.Buffer((2048,), "int32"), out_buf: T.Buffer((128, 64), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for u_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for u_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("scatter_elements_generic"):
                    T.where(u_fused_0 * 256 + u_fused_1 < 1)
                    T.reads()
                    T.writes()
                    T.attr({"pragma_scope": "seq"})
                    for v in T.parallel(8192):
                        out_buf[v // 64, v % 64] = T.float32(0.0)
                    for v in T.parallel(64):
                        for v_1 in range(2048):
                            out_buf[(v // 64 * 8192 + v % 64 + (seg[(v // 64 * 131072 + v % 64 + v_1 * 64) // 64] + T.Cast("int32", seg[(v // 64 * 131072 + v % 64 + v_1 * 64) // 64] < 0) * 128) * 64) // 64, (v // 64 * 8192 + v % 64 + (seg[(v // 64 * 131072 + v % 64 + v_1 * 64) // 64] + T.Cast("int32", seg[(v // 64 * 131072 + v % 64 + v_1 * 64) // 64] < 0) * 128) * 64) % 64] = out_buf[(v // 64 * 8192 + v % 64 + (seg[(v // 64 * 131072 + v % 64 + v_1 * 64) // 64] + T.Cast("int32", seg[(v // 64 * 131072 + v % 64 + v_1 * 64) // 64] < 0) * 128) * 64) // 64, (v // 64 * 8192 + v % 64 + (seg[(v // 64 * 131072 + v % 64 + v_1 * 64) // 64] + T.Cast("int32", seg[(v // 64 * 131072 + v % 64 + v_1 * 64) // 64] < 0) * 128) * 64) % 64] + X[(v // 64 * 131072 + v % 64 + v_1 * 64) // 64, (v // 64 * 131072 + v % 64 + v_1 * 64) % 64]
