# The output is declared 128x767: the signature does not match the workload's.
@T.prim_func(s_tir=True)
def main(X: T.Buffer((128, 768), "float32"), T_sigmoid: T.Buffer((128, 767), "float32")):
    for i0, i1 in T.grid(128, 767):
        with T.sblock("T_sigmoid"):
            v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
            T_sigmoid[v_i0, v_i1] = T.sigmoid(X[v_i0, v_i1])
