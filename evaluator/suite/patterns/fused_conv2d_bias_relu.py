"""Fused conv2d + bias + ReLU (BN folded into the weights): the standard deployed CNN layer."""

import numpy as np
from tvm import te, topi

from evaluator.suite.base import OpPattern, Tensor, Workload
from evaluator.suite.patterns.conv2d import conv2d_ref, out_hw


def _compute(p, X, W, b):
    conv = topi.nn.conv2d_nchw(X, W, p["stride"], p["pad"], 1)
    return te.compute(conv.shape, lambda n, k, y, x: te.max(conv[n, k, y, x] + b[k], 0.0),
                      name="T_bias_relu")


def _wl(n, c, h, w, k, r, stride, **kw):
    return Workload(f"n{n}c{c}h{h}w{w}k{k}r{r}s{stride}", {"n": n, "c": c, "h": h, "w": w, "k": k,
                    "r": r, "stride": stride, "pad": r // 2}, **kw)


PATTERN = OpPattern(
    id="fused/conv2d-bias-relu",
    family="fused",
    level="L2",
    domains=("vision",),
    summary="Y = relu(conv2d_nchw(X, W) + b[k]), one PrimFunc: conv2d block then bias+ReLU block",
    inputs=lambda p: [Tensor("X", (p["n"], p["c"], p["h"], p["w"])),
                      Tensor("W", (p["k"], p["c"], p["r"], p["r"]), init="uniform"),
                      Tensor("b", (p["k"],))],
    compute=_compute,
    reference=lambda p, X, W, b: np.maximum(
        conv2d_ref(X, W, p["stride"], p["pad"]) + b[None, :, None, None], 0.0),
    vendor=None,
    flops=lambda p: p["n"] * p["k"] * np.prod(out_hw(p)) * (2 * p["c"] * p["r"] * p["r"] + 2),
    workloads=[
        _wl(1, 32, 28, 28, 64, 3, 1),
        _wl(1, 64, 14, 14, 64, 3, 1),
        # the convs of the small U-Net (64 x 64 x 3, widths 16/32/64)
        _wl(1, 3, 64, 64, 16, 3, 1), _wl(1, 16, 64, 64, 16, 3, 1), _wl(1, 16, 32, 32, 32, 3, 1),
        _wl(1, 32, 32, 32, 32, 3, 1), _wl(1, 32, 16, 16, 64, 3, 1), _wl(1, 64, 16, 16, 64, 3, 1),
    ],
)
