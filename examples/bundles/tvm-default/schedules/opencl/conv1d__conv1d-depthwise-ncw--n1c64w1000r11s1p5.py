# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(X: T.Buffer((1, 64, 1000), "float32"), W: T.Buffer((64, 1, 11), "float32"), group_conv1d_ncw: T.Buffer((1, 64, 1000), "float32")):
        T.func_attr({"tirx.is_scheduled": True, "tirx.noalias": True})
        # with T.sblock("root"):
        group_conv1d_ncw_rf_local = T.sblock_alloc_buffer((64, 1, 64, 1000), scope="local")
        group_conv1d_ncw_rf_local_1 = T.sblock_alloc_buffer((64, 1, 64, 1000), scope="local")
        W_local = T.sblock_alloc_buffer((64, 1, 11), scope="local")
        for ax0_fused_ax1_fused_fused_0 in T.thread_binding(64000, thread="blockIdx.x"):
            for ax0_fused_ax1_fused_fused_1 in T.thread_binding(1, thread="threadIdx.y"):
                for ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 in T.thread_binding(64, thread="threadIdx.x"):
                    for ax0_fused_ax1_fused_fused_2_init in range(1):
                        for ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1_init in T.vectorized(1):
                            with T.sblock("group_conv1d_ncw_rf_init"):
                                vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused = T.axis.spatial(64, ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1_init)
                                v0 = T.axis.spatial(64, (ax0_fused_ax1_fused_fused_0 + ax0_fused_ax1_fused_fused_1 + ax0_fused_ax1_fused_fused_2_init) // 1000)
                                v1 = T.axis.spatial(1000, (ax0_fused_ax1_fused_fused_0 + ax0_fused_ax1_fused_fused_1 + ax0_fused_ax1_fused_fused_2_init) % 1000)
                                T.reads()
                                T.writes(group_conv1d_ncw_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, 0, v0, v1])
                                group_conv1d_ncw_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, 0, v0, v1] = T.float32(0.0)
                    for ax2_fused_u_fused_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        for ax0, ax1_ax2_fused_0 in T.grid(1, 1):
                            for ax1_ax2_fused_1 in T.vectorized(1):
                                with T.sblock("W_local"):
                                    v0 = T.axis.spatial(64, ax0_fused_ax1_fused_fused_0 // 1000 + ax0)
                                    v1 = T.axis.spatial(1, 0)
                                    v2 = T.axis.spatial(11, ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0)
                                    T.where(ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 < 11)
                                    T.reads(W[v0, v1, v2])
                                    T.writes(W_local[v0, v1, v2])
                                    W_local[v0, v1, v2] = W[v0, v1, v2]
                        for ax0_fused_ax1_fused_fused_2, ax2_fused_u_fused_2 in T.grid(1, 1):
                            for ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1 in T.vectorized(1):
                                with T.sblock("group_conv1d_ncw_rf_update"):
                                    vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused = T.axis.spatial(64, ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1)
                                    v0 = T.axis.spatial(64, (ax0_fused_ax1_fused_fused_0 + ax0_fused_ax1_fused_fused_1 + ax0_fused_ax1_fused_fused_2) // 1000)
                                    v1 = T.axis.spatial(1000, (ax0_fused_ax1_fused_fused_0 + ax0_fused_ax1_fused_fused_1 + ax0_fused_ax1_fused_fused_2) % 1000)
                                    vax2_fused_u_fused_0, vax2_fused_u_fused_2 = T.axis.remap("RR", [ax2_fused_u_fused_0, ax2_fused_u_fused_2])
                                    T.where(T.Add(ax2_fused_u_fused_0 * 64 + (ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + ax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1) + ax2_fused_u_fused_2, 0) < 11)
                                    T.reads(group_conv1d_ncw_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, 0, v0, v1], X[0, v0, v1 + (vax2_fused_u_fused_0 * 64 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused + vax2_fused_u_fused_2) - 5], W_local[v0, 0, vax2_fused_u_fused_0 * 64 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused + vax2_fused_u_fused_2])
                                    T.writes(group_conv1d_ncw_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, 0, v0, v1])
                                    group_conv1d_ncw_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, 0, v0, v1] = group_conv1d_ncw_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused, 0, v0, v1] + T.if_then_else(5 <= v1 + (vax2_fused_u_fused_0 * 64 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused + vax2_fused_u_fused_2) and v1 + (vax2_fused_u_fused_0 * 64 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused + vax2_fused_u_fused_2) < 1005, X[0, v0, v1 + (vax2_fused_u_fused_0 * 64 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused + vax2_fused_u_fused_2) - 5], T.float32(0.0)) * W_local[v0, 0, vax2_fused_u_fused_0 * 64 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused + vax2_fused_u_fused_2]
            for ax2_ax3_fused_0_ax2_ax3_fused_1_fused in T.thread_binding(1, thread="threadIdx.y"):
                for ax0 in T.thread_binding(64, thread="threadIdx.x"):
                    for ax2_ax3_fused_2_0 in T.serial(1, annotations={"pragma_auto_unroll_max_step": 64, "pragma_unroll_explicit": 1}):
                        for ax2_ax3_fused_2_1 in T.vectorized(1):
                            with T.sblock("group_conv1d_ncw_rf_init"):
                                vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 = T.axis.spatial(64, ax0)
                                v0 = T.axis.spatial(64, ax0_fused_ax1_fused_fused_0 // 1000)
                                v1 = T.axis.spatial(1000, ax0_fused_ax1_fused_fused_0 % 1000)
                                T.reads()
                                T.writes(group_conv1d_ncw_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, 0, v0, v1])
                                group_conv1d_ncw_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, 0, v0, v1] = T.float32(0.0)
                            for ax1 in range(1):
                                with T.sblock("group_conv1d_ncw_rf_update"):
                                    vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1 = T.axis.remap("SR", [ax0, ax1])
                                    v0 = T.axis.spatial(64, ax0_fused_ax1_fused_fused_0 // 1000)
                                    v1 = T.axis.spatial(1000, ax0_fused_ax1_fused_fused_0 % 1000)
                                    T.reads(group_conv1d_ncw_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, 0, v0, v1], group_conv1d_ncw_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1, 0, v0, v1])
                                    T.writes(group_conv1d_ncw_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, 0, v0, v1])
                                    group_conv1d_ncw_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, 0, v0, v1] = group_conv1d_ncw_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, 0, v0, v1] + group_conv1d_ncw_rf_local[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 + vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_1, 0, v0, v1]
            for ax1_ax2_fused_2 in range(1):
                for ax1_ax2_fused_0_ax1_ax2_fused_1_fused in T.thread_binding(1, thread="threadIdx.y"):
                    for ax0 in T.thread_binding(64, thread="threadIdx.x"):
                        with T.sblock("group_conv1d_ncw"):
                            vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0 = T.axis.reduce(64, ax0)
                            v0 = T.axis.spatial(64, ax0_fused_ax1_fused_fused_0 // 1000)
                            v1 = T.axis.spatial(1000, ax0_fused_ax1_fused_fused_0 % 1000)
                            T.reads(group_conv1d_ncw_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, 0, v0, v1])
                            T.writes(group_conv1d_ncw[0, v0, v1])
                            with T.init():
                                group_conv1d_ncw[0, v0, v1] = T.float32(0.0)
                            group_conv1d_ncw[0, v0, v1] = group_conv1d_ncw[0, v0, v1] + group_conv1d_ncw_rf_local_1[vax2_fused_u_fused_1_ax2_fused_u_fused_3_fused_0, 0, v0, v1]
