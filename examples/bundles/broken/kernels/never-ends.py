# Correct values, then ~10^13 dependent updates: it runs far past the check step's limit.
@T.prim_func(s_tir=True)
def main(X: T.Buffer((128, 768), "float32"), T_gelu: T.Buffer((128, 768), "float32")):
    for i0, i1 in T.grid(128, 768):
        with T.sblock("T_gelu"):
            v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
            T_gelu[v_i0, v_i1] = T.float32(0.5) * X[v_i0, v_i1] * (T.float32(1.0) + T.tanh(T.float32(0.7978845608) * (X[v_i0, v_i1] + T.float32(0.044715) * X[v_i0, v_i1] * X[v_i0, v_i1] * X[v_i0, v_i1])))
    for a, b in T.grid(10000000, 1000000):
        with T.sblock("spin"):
            va, vb = T.axis.remap("RR", [a, b])
            T_gelu[0, 0] = T_gelu[0, 0] * T.float32(1.0000001) - T_gelu[0, 0] * T.float32(0.0000001)
