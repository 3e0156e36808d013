# ReLU shifted by 0.5: compiles and runs, but every element is wrong.
@T.prim_func(s_tir=True)
def main(X: T.Buffer((1, 64, 56, 56), "float32"), T_relu: T.Buffer((1, 64, 56, 56), "float32")):
    for n, c, h, w in T.grid(1, 64, 56, 56):
        with T.sblock("T_relu"):
            vn, vc, vh, vw = T.axis.remap("SSSS", [n, c, h, w])
            T_relu[vn, vc, vh, vw] = T.max(X[vn, vc, vh, vw], T.float32(0.0)) + T.float32(0.5)
