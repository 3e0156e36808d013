# X + b for any shape of elementwise/add-bias: the buffers' sizes are symbolic (m, n) and are
# bound to each workload's shapes when the entry is built for it; rows run in parallel.
@T.prim_func(s_tir=True)
def main(x: T.handle, bias: T.handle, out: T.handle):
    T.func_attr({"tirx.noalias": True})
    m = T.int64()
    n = T.int64()
    X = T.match_buffer(x, (m, n), "float32")
    b = T.match_buffer(bias, (n,), "float32")
    T_add = T.match_buffer(out, (m, n), "float32")
    for i in T.parallel(m):
        for j in T.serial(n):
            with T.sblock("T_add"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T_add[v_i, v_j] = X[v_i, v_j] + b[v_j]
