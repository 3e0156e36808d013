# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((4096,), "float32"), boundaries: T.Buffer((64,), "float32"), T_bucketize: T.Buffer((4096,), "int32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_fused_0 in T.thread_binding(16, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_bucketize_init"):
                    v0 = T.axis.spatial(4096, ax0_fused_0 * 256 + ax0_fused_1)
                    T.reads()
                    T.writes(T_bucketize[v0])
                    T_bucketize[v0] = 0
                for ax1 in range(64):
                    with T.sblock("T_bucketize_update"):
                        v0 = T.axis.spatial(4096, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(64, ax1)
                        T.reads(T_bucketize[v0], boundaries[v1], x[v0])
                        T.writes(T_bucketize[v0])
                        T_bucketize[v0] = T_bucketize[v0] + T.Cast("int32", boundaries[v1] <= x[v0])
