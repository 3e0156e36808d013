"""2-D pooling, NCHW: max/avg downsampling and the global average pool before a CNN's classifier."""

import numpy as np
from tvm import topi

from evaluator.suite.base import OpPattern, Tensor, Workload


def _out(p):
    k, st, pad = p["k"], p["stride"], p["pad"]
    return (p["h"] + 2 * pad - k) // st + 1, (p["w"] + 2 * pad - k) // st + 1


def _pool_ref(x, k, st, pad, kind):
    n, c, h, w = x.shape
    fill = -np.inf if kind == "max" else 0.0
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)), constant_values=fill)
    oh, ow = (h + 2 * pad - k) // st + 1, (w + 2 * pad - k) // st + 1
    wins = [xp[:, :, i:i + st * oh:st, j:j + st * ow:st] for i in range(k) for j in range(k)]
    return np.max(wins, axis=0) if kind == "max" else np.mean(wins, axis=0)


def _window_pattern(kind, summary, workloads):
    def compute(p, X):
        k, st, pad = p["k"], p["stride"], p["pad"]
        return topi.nn.pool2d(X, (k, k), (st, st), (1, 1), (pad, pad, pad, pad), kind)

    return OpPattern(
        id=f"pool/{kind}-pool2d",
        family="pool",
        level="L1",
        domains=("vision",),
        summary=summary,
        inputs=lambda p: [Tensor("X", (p["n"], p["c"], p["h"], p["w"]))],
        compute=compute,
        reference=lambda p, X: _pool_ref(X, p["k"], p["stride"], p["pad"], kind),
        vendor=None,
        flops=lambda p: p["n"] * p["c"] * _out(p)[0] * _out(p)[1] * p["k"] * p["k"],
        workloads=workloads,
    )


def _wl(n, c, h, w, k, stride, pad, **kw):
    return Workload(f"n{n}c{c}h{h}w{w}k{k}s{stride}",
                    {"n": n, "c": c, "h": h, "w": w, "k": k, "stride": stride, "pad": pad}, **kw)


PATTERNS = [
    _window_pattern("max", "Y = max over k x k windows (stride s, -inf padding)", [
        _wl(1, 64, 112, 112, 3, 2, 1),
        _wl(1, 32, 56, 56, 2, 2, 0),
    ]),
    _window_pattern("avg", "Y = mean over k x k windows (stride s, no padding)", [
        _wl(1, 64, 56, 56, 2, 2, 0),
    ]),
    OpPattern(
        id="pool/global-avg-pool",
        family="pool",
        level="L1",
        domains=("vision", "audio"),
        summary="Y[n, c, 0, 0] = mean_{h, w} X[n, c, h, w]",
        inputs=lambda p: [Tensor("X", (p["n"], p["c"], p["h"], p["w"]))],
        compute=lambda p, X: topi.nn.global_pool(X, "avg"),
        reference=lambda p, X: X.mean(axis=(2, 3), keepdims=True),
        vendor=lambda p, X: X.mean(axis=(2, 3), keepdims=True),
        flops=lambda p: p["n"] * p["c"] * p["h"] * p["w"],
        workloads=[
            Workload("n1c1024h7w7", {"n": 1, "c": 1024, "h": 7, "w": 7}),
            Workload("n1c256h14w14", {"n": 1, "c": 256, "h": 14, "w": 14}),
        ],
    ),
]
