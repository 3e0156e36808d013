# An unbalanced bracket: TVMScript parsing fails, reported as a compile error.
@T.prim_func(s_tir=True)
def main(X: T.Buffer((128, 768), "float32"), T_relu: T.Buffer((128, 768), "float32"):
    for i0, i1 in T.grid(128, 768):
        with T.sblock("T_relu"):
            v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
            T_relu[v_i0, v_i1] = T.max(X[v_i0, v_i1], T.float32(0.0)
