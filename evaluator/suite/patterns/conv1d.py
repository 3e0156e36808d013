"""1-D convolution, NCW: FIR filter banks and raw-waveform front ends (e.g. M5 audio nets)."""

import numpy as np
from tvm import topi

from evaluator.suite.base import OpPattern, Tensor, Workload


def _ow(p):
    return (p["w"] + 2 * p["pad"] - p["r"]) // p["stride"] + 1


def _reference(p, X, W):
    st, ow, r = p["stride"], _ow(p), p["r"]
    xp = np.pad(X, ((0, 0), (0, 0), (p["pad"], p["pad"])))
    out = np.zeros((X.shape[0], W.shape[0], ow))
    for j in range(r):
        out += np.einsum("ncw,kc->nkw", xp[:, :, j:j + st * ow:st], W[:, :, j])
    return out


def _wl(n, c, w, k, r, stride, pad, **kw):
    return Workload(f"n{n}c{c}w{w}k{k}r{r}s{stride}",
                    {"n": n, "c": c, "w": w, "k": k, "r": r, "stride": stride, "pad": pad}, **kw)


PATTERN = OpPattern(
    id="conv1d/conv1d-ncw",
    family="conv1d",
    level="L1",
    domains=("signal-processing", "audio"),
    summary="Y[n, k, x] = sum_{c, r} X[n, c, x*st + r - pad] * W[k, c, r]",
    inputs=lambda p: [Tensor("X", (p["n"], p["c"], p["w"])),
                      Tensor("W", (p["k"], p["c"], p["r"]), init="uniform")],
    compute=lambda p, X, W: topi.nn.conv1d_ncw(X, W, p["stride"], p["pad"], 1),
    reference=_reference,
    vendor=None,
    flops=lambda p: 2 * p["n"] * p["k"] * _ow(p) * p["c"] * p["r"],
    workloads=[
        _wl(1, 1, 8000, 32, 80, 16, 0),    # M5 raw-waveform front end, 8 kHz, 1 s
        _wl(1, 32, 2048, 32, 9, 1, 4),
    ],
)
