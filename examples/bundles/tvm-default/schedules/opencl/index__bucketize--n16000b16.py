# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(x: T.Buffer((16000,), "float32"), boundaries: T.Buffer((16,), "float32"), T_bucketize: T.Buffer((16000,), "int32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0_fused_0 in T.thread_binding(63, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(256, thread="threadIdx.x"):
                with T.sblock("T_bucketize_init"):
                    v0 = T.axis.spatial(16000, ax0_fused_0 * 256 + ax0_fused_1)
                    T.where(ax0_fused_0 * 256 + ax0_fused_1 < 16000)
                    T.reads()
                    T.writes(T_bucketize[v0])
                    T_bucketize[v0] = 0
                for ax1 in range(16):
                    with T.sblock("T_bucketize_update"):
                        v0 = T.axis.spatial(16000, ax0_fused_0 * 256 + ax0_fused_1)
                        v1 = T.axis.reduce(16, ax1)
                        T.where(ax0_fused_0 * 256 + ax0_fused_1 < 16000)
                        T.reads(T_bucketize[v0], boundaries[v1], x[v0])
                        T.writes(T_bucketize[v0])
                        T_bucketize[v0] = T_bucketize[v0] + T.Cast("int32", boundaries[v1] <= x[v0])
