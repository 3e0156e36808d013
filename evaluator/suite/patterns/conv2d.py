"""2-D convolution, NCHW/OIHW: the dominant cost of every edge vision CNN.

Also exports ``conv2d_ref`` (the NumPy reference) and ``out_hw``, reused by other conv patterns.
"""

import numpy as np
from tvm import topi

from evaluator.suite.base import OpPattern, Tensor, Workload


def conv2d_ref(x, w, stride=1, pad=0, groups=1):
    """NumPy conv2d, NCHW input and (K, C/groups, R, S) weights, symmetric zero padding."""
    n, c, h, wd = x.shape
    k, cg, r, s = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = (h + 2 * pad - r) // stride + 1, (wd + 2 * pad - s) // stride + 1
    out = np.zeros((n, k, oh, ow), dtype=x.dtype)
    for i in range(r):
        for j in range(s):
            patch = xp[:, :, i:i + stride * oh:stride, j:j + stride * ow:stride]
            xs = patch.reshape(n, groups, cg, oh, ow)
            ws = w[:, :, i, j].reshape(groups, k // groups, cg)
            out += np.einsum("ngchw,gkc->ngkhw", xs, ws).reshape(n, k, oh, ow)
    return out


def out_hw(p):
    """Output (height, width) for params h, w, r (square kernel), stride, pad."""
    oh = (p["h"] + 2 * p["pad"] - p["r"]) // p["stride"] + 1
    ow = (p["w"] + 2 * p["pad"] - p["r"]) // p["stride"] + 1
    return oh, ow


def _flops(p):
    oh, ow = out_hw(p)
    return 2 * p["n"] * p["k"] * oh * ow * p["c"] * p["r"] * p["r"]


def _wl(n, c, h, w, k, r, stride, pad, **kw):
    tag = f"n{n}c{c}h{h}w{w}k{k}r{r}s{stride}"
    return Workload(tag, {"n": n, "c": c, "h": h, "w": w, "k": k, "r": r, "stride": stride,
                          "pad": pad}, **kw)


PATTERN = OpPattern(
    id="conv2d/conv2d-nchw",
    family="conv2d",
    level="L1",
    domains=("vision",),
    summary="Y[n, k, y, x] = sum_{c, r, s} X[n, c, y*st + r - pad, x*st + s - pad] * W[k, c, r, s]",
    inputs=lambda p: [Tensor("X", (p["n"], p["c"], p["h"], p["w"])),
                      Tensor("W", (p["k"], p["c"], p["r"], p["r"]), init="uniform")],
    compute=lambda p, X, W: topi.nn.conv2d_nchw(X, W, p["stride"], p["pad"], 1),
    reference=lambda p, X, W: conv2d_ref(X, W, p["stride"], p["pad"]),
    vendor=None,
    flops=_flops,
    workloads=[
        _wl(1, 32, 28, 28, 32, 3, 1, 1),
        _wl(1, 64, 14, 14, 128, 3, 1, 1),
        _wl(1, 3, 112, 112, 16, 3, 2, 1),
    ],
)
