# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((32, 512), "float32"), T_overlap_add: T.Buffer((4480,), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        T_overlap_add_rf_local = T.sblock_alloc_buffer((16, 4480), scope="local")
        for ax0_fused_0 in T.thread_binding(280, thread="blockIdx.x"):
            for ax0_fused_1 in T.thread_binding(16, thread="threadIdx.x"):
                for ax1_fused_1 in T.thread_binding(16, thread="threadIdx.y"):
                    with T.sblock("T_overlap_add_rf_init"):
                        vax1_fused_1 = T.axis.spatial(16, ax1_fused_1)
                        v0 = T.axis.spatial(4480, ax0_fused_0 * 16 + ax0_fused_1)
                        T.reads()
                        T.writes(T_overlap_add_rf_local[vax1_fused_1, v0])
                        T_overlap_add_rf_local[vax1_fused_1, v0] = T.float32(0.0)
                    for ax1_fused_0, u in T.grid(2, 1):
                        with T.sblock("T_overlap_add_rf_update"):
                            vax1_fused_1 = T.axis.spatial(16, ax1_fused_1)
                            v0 = T.axis.spatial(4480, ax0_fused_0 * 16 + ax0_fused_1)
                            vax1_fused_0 = T.axis.reduce(2, ax1_fused_0)
                            T.reads(T_overlap_add_rf_local[vax1_fused_1, v0], X[vax1_fused_0 * 16 + vax1_fused_1, v0 - (vax1_fused_0 * 16 + vax1_fused_1) * 128])
                            T.writes(T_overlap_add_rf_local[vax1_fused_1, v0])
                            T_overlap_add_rf_local[vax1_fused_1, v0] = T_overlap_add_rf_local[vax1_fused_1, v0] + T.if_then_else(0 <= v0 - (vax1_fused_0 * 16 + vax1_fused_1) * 128 and v0 - (vax1_fused_0 * 16 + vax1_fused_1) * 128 < 512, X[vax1_fused_0 * 16 + vax1_fused_1, v0 - (vax1_fused_0 * 16 + vax1_fused_1) * 128], T.float32(0.0))
            for ax1_fused in T.thread_binding(16, thread="threadIdx.x"):
                for ax0 in T.thread_binding(16, thread="threadIdx.y"):
                    with T.sblock("T_overlap_add"):
                        vax1_fused_1 = T.axis.reduce(16, ax0)
                        v0 = T.axis.spatial(4480, ax0_fused_0 * 16 + ax1_fused)
                        T.reads(T_overlap_add_rf_local[vax1_fused_1, v0])
                        T.writes(T_overlap_add[v0])
                        with T.init():
                            T_overlap_add[v0] = T.float32(0.0)
                        T_overlap_add[v0] = T_overlap_add[v0] + T_overlap_add_rf_local[vax1_fused_1, v0]
