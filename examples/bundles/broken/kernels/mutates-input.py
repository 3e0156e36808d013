# Correct output, but it clobbers its input X afterwards (a common way to "save memory").
@T.prim_func(s_tir=True)
def main(X: T.Buffer((128, 768), "float32"), b: T.Buffer((768,), "float32"), T_add: T.Buffer((128, 768), "float32")):
    for i, j in T.grid(128, 768):
        with T.sblock("T_add"):
            v_i, v_j = T.axis.remap("SS", [i, j])
            T_add[v_i, v_j] = X[v_i, v_j] + b[v_j]
    for i, j in T.grid(128, 768):
        with T.sblock("clobber"):
            v_i, v_j = T.axis.remap("SS", [i, j])
            X[v_i, v_j] = T.float32(0.0)
