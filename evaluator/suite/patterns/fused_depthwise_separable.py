"""Fused depthwise-separable block (MobileNetV1, DS-CNN; BN folded): dw3x3+bias+ReLU, 1x1+bias+ReLU."""

import numpy as np
from tvm import te, topi

from evaluator.suite.base import OpPattern, Tensor, Workload
from evaluator.suite.patterns.conv2d import conv2d_ref


def _compute(p, X, Wd, bd, Wp, bp):
    dw = topi.nn.depthwise_conv2d_nchw(X, Wd, 1, 1, 1)
    dw_act = te.compute(dw.shape, lambda n, c, y, x: te.max(dw[n, c, y, x] + bd[c], 0.0),
                        name="T_dw_bias_relu")
    pw = topi.nn.conv2d_nchw(dw_act, Wp, 1, 0, 1)
    return te.compute(pw.shape, lambda n, k, y, x: te.max(pw[n, k, y, x] + bp[k], 0.0),
                      name="T_pw_bias_relu")


def _reference(p, X, Wd, bd, Wp, bp):
    d = np.maximum(conv2d_ref(X, Wd, 1, 1, groups=p["c"]) + bd[None, :, None, None], 0.0)
    return np.maximum(conv2d_ref(d, Wp) + bp[None, :, None, None], 0.0)


def _flops(p):
    hw = p["h"] * p["w"]
    return hw * (p["c"] * (2 * 9 + 2) + p["k"] * (2 * p["c"] + 2))


def _wl(c, h, w, k, **kw):
    return Workload(f"n1c{c}h{h}w{w}k{k}", {"c": c, "h": h, "w": w, "k": k}, **kw)


PATTERN = OpPattern(
    id="fused/depthwise-separable",
    family="fused",
    level="L2",
    domains=("vision",),
    summary="Y = relu(conv1x1(relu(dwconv3x3(X) + bd), Wp) + bp), stride 1, one PrimFunc",
    inputs=lambda p: [Tensor("X", (1, p["c"], p["h"], p["w"])),
                      Tensor("Wd", (p["c"], 1, 3, 3)), Tensor("bd", (p["c"],)),
                      Tensor("Wp", (p["k"], p["c"], 1, 1), init="uniform"),
                      Tensor("bp", (p["k"],))],
    compute=_compute,
    reference=_reference,
    vendor=None,
    flops=_flops,
    workloads=[
        _wl(32, 56, 56, 64),
        _wl(128, 28, 28, 128),
        _wl(64, 25, 5, 64, domains=("audio",)),  # a DS-CNN keyword-spotting block
    ],
)
