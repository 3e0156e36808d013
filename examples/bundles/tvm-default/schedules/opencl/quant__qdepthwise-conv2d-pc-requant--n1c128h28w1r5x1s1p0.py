# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 128, 28, 1), "int8"), W: T.Buffer((128, 1, 5, 1), "int8"), bias: T.Buffer((128,), "int32"), mult: T.Buffer((128,), "int32"), shift: T.Buffer((128,), "int32"), T_requantize: T.Buffer((1, 128, 24, 1), "int8")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        DepthwiseConv2d_local = T.sblock_alloc_buffer((1, 128, 24, 1), "int32", scope="local")
        DepthwiseConv2d_rf_local = T.sblock_alloc_buffer((64, 1, 128, 24, 1), "int32", scope="local")
        DepthwiseConv2d_rf_local_1 = T.sblock_alloc_buffer((64, 1, 128, 24, 1), "int32", scope="local")
        W_local = T.sblock_alloc_buffer((128, 1, 5, 1), "int8", scope="local")
        for ax0_fused_ax1_fused_fused_0 in T.thread_binding(3072, thread="blockIdx.x"):
            for ax0_fused_ax1_fused_fused_1 in T.thread_binding(1, thread="threadIdx.y"):
                for ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 in T.thread_binding(64, thread="threadIdx.x"):
                    for ax0_fused_ax1_fused_fused_2_init in range(1):
                        for ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1_init in T.vectorized(1):
                            with T.sblock("DepthwiseConv2d_rf_init"):
                                vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused = T.axis.spatial(64, ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1_init)
                                v0 = T.axis.spatial(128, (ax0_fused_ax1_fused_fused_0 + ax0_fused_ax1_fused_fused_1 + ax0_fused_ax1_fused_fused_2_init) // 24)
                                v1 = T.axis.spatial(24, (ax0_fused_ax1_fused_fused_0 + ax0_fused_ax1_fused_fused_1 + ax0_fused_ax1_fused_fused_2_init) % 24)
                                T.reads()
                                T.writes(DepthwiseConv2d_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, 0, v0, v1, 0])
                                DepthwiseConv2d_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, 0, v0, v1, 0] = 0
                    for ax2_fused_u_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        for ax0, ax1, ax2_ax3_fused_0 in T.grid(1, 1, 1):
                            for ax2_ax3_fused_1 in T.vectorized(1):
                                with T.sblock("W_local"):
                                    v0 = T.axis.spatial(128, ax0_fused_ax1_fused_fused_0 // 24 + ax0)
                                    v1 = T.axis.spatial(1, ax1)
                                    v2 = T.axis.spatial(5, ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0)
                                    v3 = T.axis.spatial(1, 0)
                                    T.where(ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 < 5)
                                    T.reads(W[v0, v1, v2, v3])
                                    T.writes(W_local[v0, v1, v2, v3])
                                    W_local[v0, v1, v2, v3] = W[v0, v1, v2, v3]
                        for ax0_fused_ax1_fused_fused_2, ax2_fused_u_fused_2 in T.grid(1, 1):
                            for ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1 in T.vectorized(1):
                                with T.sblock("DepthwiseConv2d_rf_update"):
                                    vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused = T.axis.spatial(64, ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1)
                                    v0 = T.axis.spatial(128, (ax0_fused_ax1_fused_fused_0 + ax0_fused_ax1_fused_fused_1 + ax0_fused_ax1_fused_fused_2) // 24)
                                    v1 = T.axis.spatial(24, (ax0_fused_ax1_fused_fused_0 + ax0_fused_ax1_fused_fused_1 + ax0_fused_ax1_fused_fused_2) % 24)
                                    vax2_fused_u_fused_0, vax2_fused_u_fused_2 = T.axis.remap("RR", [ax2_fused_u_fused_0, ax2_fused_u_fused_2])
                                    T.where(T.Add(ax2_fused_u_fused_0 * 64 + (ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1) + ax2_fused_u_fused_2, 0) < 5)
                                    T.reads(DepthwiseConv2d_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, 0, v0, v1, 0], X[0, v0, v1 + (vax2_fused_u_fused_0 * 64 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused + vax2_fused_u_fused_2), 0], W_local[v0, 0, vax2_fused_u_fused_0 * 64 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused + vax2_fused_u_fused_2, 0])
                                    T.writes(DepthwiseConv2d_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, 0, v0, v1, 0])
                                    DepthwiseConv2d_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, 0, v0, v1, 0] = DepthwiseConv2d_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, 0, v0, v1, 0] + (T.Cast("int32", X[0, v0, v1 + (vax2_fused_u_fused_0 * 64 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused + vax2_fused_u_fused_2), 0]) + 100) * T.Cast("int32", W_local[v0, 0, vax2_fused_u_fused_0 * 64 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused + vax2_fused_u_fused_2, 0])
            for ax2_ax3_fused_0_ax2_ax3_fused_1_fused in T.thread_binding(1, thread="threadIdx.y"):
                for ax0 in T.thread_binding(64, thread="threadIdx.x"):
                    for ax2_ax3_fused_2_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        for ax2_ax3_fused_2_1 in T.vectorized(1):
                            with T.sblock("DepthwiseConv2d_rf_init"):
                                vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 = T.axis.spatial(64, ax0)
                                v0 = T.axis.spatial(128, ax0_fused_ax1_fused_fused_0 // 24)
                                v1 = T.axis.spatial(24, ax0_fused_ax1_fused_fused_0 % 24)
                                T.reads()
                                T.writes(DepthwiseConv2d_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, 0, v0, v1, 0])
                                DepthwiseConv2d_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, 0, v0, v1, 0] = 0
                            for ax1 in range(1):
                                with T.sblock("DepthwiseConv2d_rf_update"):
                                    vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1 = T.axis.remap("SR", [ax0, ax1])
                                    v0 = T.axis.spatial(128, ax0_fused_ax1_fused_fused_0 // 24)
                                    v1 = T.axis.spatial(24, ax0_fused_ax1_fused_fused_0 % 24)
                                    T.reads(DepthwiseConv2d_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, 0, v0, v1, 0], DepthwiseConv2d_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1, 0, v0, v1, 0])
                                    T.writes(DepthwiseConv2d_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, 0, v0, v1, 0])
                                    DepthwiseConv2d_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, 0, v0, v1, 0] = DepthwiseConv2d_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, 0, v0, v1, 0] + DepthwiseConv2d_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1, 0, v0, v1, 0]
            for ax1_ax2_fused_2 in range(1):
                for ax1_ax2_fused_0_ax1_ax2_fused_1_fused in T.thread_binding(1, thread="threadIdx.y"):
                    for ax0 in T.thread_binding(64, thread="threadIdx.x"):
                        with T.sblock("DepthwiseConv2d"):
                            vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 = T.axis.reduce(64, ax0)
                            v0 = T.axis.spatial(128, ax0_fused_ax1_fused_fused_0 // 24)
                            v1 = T.axis.spatial(24, ax0_fused_ax1_fused_fused_0 % 24)
                            T.reads(DepthwiseConv2d_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, 0, v0, v1, 0])
                            T.writes(DepthwiseConv2d_local[0, v0, v1, 0])
                            with T.init():
                                DepthwiseConv2d_local[0, v0, v1, 0] = 0
                            DepthwiseConv2d_local[0, v0, v1, 0] = DepthwiseConv2d_local[0, v0, v1, 0] + DepthwiseConv2d_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, 0, v0, v1, 0]
            for ax0_ax1_fused_0_ax0_ax1_fused_1_fused in T.thread_binding(1, thread="threadIdx.y"):
                for ax0_ax1_fused_2 in range(1):
                    with T.sblock("T_requantize"):
                        v0 = T.axis.spatial(128, ax0_fused_ax1_fused_fused_0 // 24)
                        v1 = T.axis.spatial(24, ax0_fused_ax1_fused_fused_0 % 24)
                        T.reads(DepthwiseConv2d_local[0, v0, v1, 0], bias[v0], mult[v0], shift[v0])
                        T.writes(T_requantize[0, v0, v1, 0])
                        T_requantize[0, v0, v1, 0] = T.Cast("int8", T.max(T.min(T.Cast("int32", (T.Cast("int64", DepthwiseConv2d_local[0, v0, v1, 0]) + T.Cast("int64", bias[v0])) * T.Cast("int64", mult[v0]) + (T.int64(1) << T.Cast("int64", shift[v0]) - T.int64(1)) >> T.Cast("int64", shift[v0])) + 5, 127), -128))
