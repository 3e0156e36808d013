# Writes over a gigabyte past the end of its output: the kernel process dies with SIGSEGV.
@T.prim_func(s_tir=True)
def main(X: T.Buffer((1, 64, 56, 56), "float32"), T_relu6: T.Buffer((1, 64, 56, 56), "float32")):
    for n, c, h, w in T.grid(1, 64, 56, 56):
        with T.sblock("T_relu6"):
            vn, vc, vh, vw = T.axis.remap("SSSS", [n, c, h, w])
            T_relu6[vn, vc + 100000, vh, vw] = T.min(T.max(X[vn, vc, vh, vw], T.float32(0.0)), T.float32(6.0))
