# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(Q: T.Buffer((1, 4096), "int8"), table: T.Buffer((256,), "int8"), T_lut: T.Buffer((1, 4096), "int8")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_lut"):
                    v0 = T.axis.spatial(4096, ax0_fused_0 * 256 + ax0_fused_1)
                    T.reads(table[T.Cast("int32", Q[0, v0]) + 128], Q[0, v0])
                    T.writes(T_lut[0, v0])
                    T_lut[0, v0] = table[T.Cast("int32", Q[0, v0]) + 128]
