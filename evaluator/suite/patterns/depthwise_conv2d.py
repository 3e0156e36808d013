"""Depthwise 3x3 conv2d, NCHW: the spatial half of MobileNet/DS-CNN separable blocks; low reuse."""

import numpy as np
from tvm import topi

from evaluator.suite.base import OpPattern, Tensor, Workload
from evaluator.suite.patterns.conv2d import conv2d_ref, out_hw


def _wl(n, c, h, w, r, stride, **kw):
    return Workload(f"n{n}c{c}h{h}w{w}r{r}s{stride}",
                    {"n": n, "c": c, "h": h, "w": w, "r": r, "stride": stride, "pad": r // 2}, **kw)


PATTERN = OpPattern(
    id="depthwise-conv2d/depthwise-conv2d-nchw",
    family="depthwise-conv2d",
    level="L1",
    domains=("vision",),
    summary="Y[n, c, y, x] = sum_{r, s} X[n, c, y*st + r - pad, x*st + s - pad] * W[c, 0, r, s]",
    inputs=lambda p: [Tensor("X", (p["n"], p["c"], p["h"], p["w"])),
                      Tensor("W", (p["c"], 1, p["r"], p["r"]))],
    compute=lambda p, X, W: topi.nn.depthwise_conv2d_nchw(X, W, p["stride"], p["pad"], 1),
    reference=lambda p, X, W: conv2d_ref(X, W, p["stride"], p["pad"], groups=p["c"]),
    vendor=None,
    flops=lambda p: 2 * p["n"] * p["c"] * np.prod(out_hw(p)) * p["r"] * p["r"],
    workloads=[
        _wl(1, 32, 56, 56, 3, 1),
        _wl(1, 128, 28, 28, 3, 1),
        _wl(1, 64, 56, 56, 3, 2),
    ],
)
