# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((64, 1024), "float32"), T_reverse_sequence: T.Buffer((64, 1024), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        out_buf = T.sblock_alloc_buffer((64, 1024))
        for u_fused_0 in T.thread_binding(1, thread="blockIdx.x"):
            for u_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("cumsum_generic"):
                    T.where(u_fused_0 * 256 + u_fused_1 < 1)
                    T.reads()
                    T.writes()
                    for v in T.parallel(64):
                        out_buf[v * 1024 // 1024, v * 1024 % 1024] = X[v * 1024 // 1024, v * 1024 % 1024 * -1 + 1023]
                        for v_1 in range(1023):
                            out_buf[(v * 1024 + (v_1 + 1)) // 1024, (v * 1024 + (v_1 + 1)) % 1024] = out_buf[(v * 1024 + (v_1 + 1 - 1)) // 1024, (v * 1024 + (v_1 + 1 - 1)) % 1024] + X[(v * 1024 + (v_1 + 1)) // 1024, (v * 1024 + (v_1 + 1)) % 1024 * -1 + 1023]
        for ax0_ax1_fused_0 in T.thread_binding(256, thread="blockIdx.x"):
            for ax0_ax1_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_reverse_sequence_1"):
                    v0 = T.axis.spatial(64, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) // 1024)
                    v1 = T.axis.spatial(1024, (ax0_ax1_fused_0 * 256 + ax0_ax1_fused_1) % 1024)
                    T.reads(out_buf[v0, v1 * -1 + 1023])
                    T.writes(T_reverse_sequence[v0, v1])
                    T_reverse_sequence[v0, v1] = out_buf[v0, v1 * -1 + 1023]
