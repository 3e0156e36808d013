"""2-D convolutions — the dominant cost of every edge vision CNN: NCHW/OIHW (TVM's default),
NHWC/HWIO (TFLite, most NPUs), the blocked NCHWc layout TVM uses on CPUs, dilated (atrous,
DeepLab), grouped (ResNeXt, ShuffleNet) and transposed (decoders, U-Net) variants.

float16 workloads accumulate in float32 and round once. Also exports ``conv2d_ref`` (the NumPy
reference) and ``out_hw``, reused by other conv patterns.
"""

from tvm import te, topi

from evaluator.suite import refs
from evaluator.suite.base import OpPattern, Tensor, Workload
from evaluator.suite.declare import dtype_of, narrow, te_workload, widen, wl


def conv2d_ref(x, w, stride=1, pad=0, groups=1):
    """NumPy conv2d, NCHW input and (K, C/groups, R, S) weights, symmetric zero padding."""
    return refs.conv(x, w, stride, pad, 1, groups)


def out_hw(p):
    """Output (height, width) for params h, w, r (square kernel), stride, pad (and dilation d)."""
    d = p.get("d", 1)
    st, pad = p.get("stride", p.get("s")), p.get("pad", p.get("p"))
    oh = (p["h"] + 2 * pad - d * (p["r"] - 1) - 1) // st + 1
    ow = (p["w"] + 2 * pad - d * (p["r"] - 1) - 1) // st + 1
    return oh, ow


def _flops(p):
    oh, ow = out_hw(p)
    return 2 * p["n"] * p["k"] * oh * ow * (p["c"] // p.get("g", 1)) * p["r"] * p["r"]


def _wl(n, c, h, w, k, r, stride, pad, **kw):
    tag = f"n{n}c{c}h{h}w{w}k{k}r{r}s{stride}"
    return Workload(tag, {"n": n, "c": c, "h": h, "w": w, "k": k, "r": r, "stride": stride,
                          "pad": pad}, **kw)


def _nchw(p, X, W):
    if dtype_of(p) == "float32":
        return topi.nn.conv2d_nchw(X, W, p["stride"], p["pad"], 1)
    return narrow(topi.nn.conv2d_nchw(widen(X), widen(W), p["stride"], p["pad"], 1), dtype_of(p))


def _nhwc(p, X, W):
    y = topi.nn.conv2d_nhwc(widen(X), widen(W), p["s"], p["p"], 1, out_dtype="float32")
    return narrow(y, dtype_of(p))


def _nchwc(p, X, W):
    """Y[n, ko, y, x, kb] = sum_{ci, r, s, cb} X[n, ci, y*st + r - p, x*st + s - p, cb] W[ko, ci, r, s, cb, kb]."""
    pad = p["p"]
    xp = topi.nn.pad(X, (0, 0, pad, pad, 0), (0, 0, pad, pad, 0), name="T_pad")
    oh, ow = out_hw(p)
    ci = te.reduce_axis((0, p["c"] // p["cb"]), name="ci")
    ry = te.reduce_axis((0, p["r"]), name="ry")
    rx = te.reduce_axis((0, p["r"]), name="rx")
    cb = te.reduce_axis((0, p["cb"]), name="cb")
    st = p["s"]
    return te.compute(
        (p["n"], p["k"] // p["kb"], oh, ow, p["kb"]),
        lambda n, ko, y, x, kb: te.sum(xp[n, ci, y * st + ry, x * st + rx, cb] * W[ko, ci, ry, rx, cb, kb],
                                       axis=[ci, ry, rx, cb]), name="T_conv2d_NCHWc")


def _nchwc_ref(p, X, W):
    n, cbk, h, w, cb = X.shape
    x = X.transpose(0, 1, 4, 2, 3).reshape(n, cbk * cb, h, w)
    ko, ci, r, s, cb_, kb = W.shape
    wt = W.transpose(0, 5, 1, 4, 2, 3).reshape(ko * kb, ci * cb_, r, s)
    y = refs.conv(x, wt, p["s"], p["p"])
    return y.reshape(n, ko, kb, *y.shape[2:]).transpose(0, 1, 3, 4, 2)


def _transpose_out(p):
    return (p["h"] - 1) * p["s"] - 2 * p["p"] + p["r"], (p["w"] - 1) * p["s"] - 2 * p["p"] + p["r"]


def _conv(name, summary, inputs, compute, reference, workloads, flops=_flops):
    return OpPattern(id=f"conv2d/{name}", family="conv2d", level="L1", domains=("vision",), summary=summary,
                     inputs=inputs, compute=compute, reference=reference, vendor=None, flops=flops,
                     workloads=workloads)


def _x(p):
    return Tensor("X", (p["n"], p["c"], p["h"], p["w"]), dtype_of(p))


PATTERNS = [
    OpPattern(
        id="conv2d/conv2d-nchw",
        family="conv2d",
        level="L1",
        domains=("vision",),
        summary="Y[n, k, y, x] = sum_{c, r, s} X[n, c, y*st + r - pad, x*st + s - pad] * W[k, c, r, s]",
        inputs=lambda p: [Tensor("X", (p["n"], p["c"], p["h"], p["w"]), dtype_of(p)),
                          Tensor("W", (p["k"], p["c"], p["r"], p["r"]), dtype_of(p), init="uniform")],
        compute=_nchw,
        reference=lambda p, X, W: conv2d_ref(X, W, p["stride"], p["pad"]),
        vendor=None,
        flops=_flops,
        workloads=[
            _wl(1, 32, 28, 28, 32, 3, 1, 1),
            _wl(1, 64, 14, 14, 128, 3, 1, 1),
            _wl(1, 3, 112, 112, 16, 3, 2, 1),
            _wl(1, 16, 64, 64, 2, 1, 1, 0),  # the small U-Net's 1x1 classifier
            Workload("n1c32h28w28k32r3s1-f16", {"n": 1, "c": 32, "h": 28, "w": 28, "k": 32, "r": 3,
                                                "stride": 1, "pad": 1, "dtype": "float16"}),
            Workload("n1c64h14w14k128r3s1-f16", {"n": 1, "c": 64, "h": 14, "w": 14, "k": 128, "r": 3,
                                                 "stride": 1, "pad": 1, "dtype": "float16"}),
            Workload("n1c16h64w64k2r1s1-f16", {"n": 1, "c": 16, "h": 64, "w": 64, "k": 2, "r": 1,
                                               "stride": 1, "pad": 0, "dtype": "float16"}),
        ],
    ),
    _conv("conv2d-nhwc", "Y[n, y, x, k] = sum_{r, s, c} X[n, y*st + r - p, x*st + s - p, c] * W[r, s, c, k] (HWIO)",
          lambda p: [Tensor("X", (p["n"], p["h"], p["w"], p["c"]), dtype_of(p)),
                     Tensor("W", (p["r"], p["r"], p["c"], p["k"]), dtype_of(p), init="uniform")],
          _nhwc,
          lambda p, X, W: refs.conv(X.transpose(0, 3, 1, 2), W.transpose(3, 2, 0, 1), p["s"],
                                    p["p"]).transpose(0, 2, 3, 1),
          [wl(n=1, h=28, w=28, c=32, k=64, r=3, s=1, p=1), wl(n=1, h=96, w=96, c=3, k=8, r=3, s=2, p=1),
           wl(n=1, h=28, w=28, c=32, k=64, r=3, s=1, p=1, dtype="float16"),
           wl(n=1, h=96, w=96, c=3, k=8, r=3, s=2, p=1, dtype="float16"),
           wl(n=1, h=56, w=56, c=64, k=64, r=1, s=1, p=0, dtype="float16")]
          # TVM MetaSchedule's C2D (ResNet-18's conv layers; NHWC data, HWIO weights), as given
          + [wl(n=1, h=h, w=h, c=c, k=k, r=r, s=s, p=p, source=te_workload("C2D", i))
             for i, (h, c, k, r, s, p) in enumerate([(224, 3, 64, 7, 2, 3), (56, 64, 64, 1, 1, 0),
                                                      (14, 256, 256, 3, 1, 1), (7, 512, 512, 3, 1, 1)])]),
    _conv("conv2d-nchw-dilated",
          "Y[n, k, y, x] = sum_{c, r, s} X[n, c, y + d*r - p, x + d*s - p] * W[k, c, r, s] (atrous)",
          lambda p: [_x(p), Tensor("W", (p["k"], p["c"], p["r"], p["r"]), init="uniform")],
          lambda p, X, W: topi.nn.conv2d_nchw(X, W, 1, p["p"], p["d"]),
          lambda p, X, W: refs.conv(X, W, 1, p["p"], p["d"]),
          [wl(n=1, c=64, h=32, w=32, k=64, r=3, d=2, p=2, s=1), wl(n=1, c=32, h=64, w=64, k=32, r=3, d=4, p=4, s=1)]),
    _conv("conv2d-grouped-nchw", "Y = conv2d(X, W) with G channel groups (W[k, c/G, r, s]; ResNeXt, ShuffleNet)",
          lambda p: [_x(p), Tensor("W", (p["k"], p["c"] // p["g"], p["r"], p["r"]), init="uniform")],
          lambda p, X, W: topi.nn.group_conv2d_nchw(X, W, p["s"], p["p"], 1, p["g"]),
          lambda p, X, W: refs.conv(X, W, p["s"], p["p"], 1, p["g"]),
          [wl(n=1, c=128, h=28, w=28, k=128, r=3, g=8, s=1, p=1),
           wl(n=1, c=240, h=14, w=14, k=240, r=1, g=3, s=1, p=0)]),
    _conv("conv2d-nchwc",
          "Y[n, K/kb, y, x, kb] = sum X[n, C/cb, y*s + r - p, x*s + s' - p, cb] W[K/kb, C/cb, r, s', cb, kb] "
          "(blocked NCHWc layout, as TVM's x86 schedules use)",
          lambda p: [Tensor("X", (p["n"], p["c"] // p["cb"], p["h"], p["w"], p["cb"])),
                     Tensor("W", (p["k"] // p["kb"], p["c"] // p["cb"], p["r"], p["r"], p["cb"], p["kb"]),
                            init="uniform")],
          _nchwc, _nchwc_ref,
          [wl(n=1, c=64, h=28, w=28, k=64, r=3, s=1, p=1, cb=8, kb=8),
           wl(n=1, c=128, h=14, w=14, k=256, r=1, s=1, p=0, cb=16, kb=16)]),
    _conv("conv2d-transpose-nchw",
          "Y[n, k, y*s + r - p, x*s + t - p] += X[n, c, y, x] * W[c, k, r, t] (learned upsampling; IOHW weights)",
          lambda p: [_x(p), Tensor("W", (p["c"], p["k"], p["r"], p["r"]), init="uniform")],
          lambda p, X, W: topi.nn.conv2d_transpose_nchw(X, W, (p["s"], p["s"]), (p["p"],) * 4, "float32", (0, 0)),
          lambda p, X, W: refs.conv_transpose(X, W, p["s"], p["p"]),
          [wl(n=1, c=64, h=16, w=16, k=32, r=4, s=2, p=1), wl(n=1, c=32, h=32, w=32, k=16, r=2, s=2, p=0),
           wl(n=1, c=64, h=16, w=16, k=32, r=2, s=2, p=0)],
          flops=lambda p: 2 * p["n"] * p["c"] * p["k"] * p["h"] * p["w"] * p["r"] * p["r"]),
]
