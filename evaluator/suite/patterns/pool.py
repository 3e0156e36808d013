"""Pooling: max/avg windows in 1-D, 2-D (NCHW and NHWC) and 3-D, padding that is or is not
counted, ceil-mode windows, L2 (power-average) pooling, global and adaptive pools — the
downsampling steps of CNNs and the global average pool before their classifiers."""

import numpy as np
from tvm import te, topi

from evaluator.suite import refs
from evaluator.suite.base import OpPattern, Tensor, Workload
from evaluator.suite.declare import wl


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


def _pool(name, summary, inputs, compute, reference, flops, workloads, domains=("vision",)):
    return OpPattern(id=f"pool/{name}", family="pool", level="L1", domains=domains, summary=summary,
                     inputs=inputs, compute=compute, reference=reference, vendor=None, flops=flops,
                     workloads=workloads)


def _o(size, p):
    return (size + 2 * p["p"] - p["k"]) // p["s"] + 1


def _ncw(p):
    return [Tensor("X", (p["n"], p["c"], p["w"]))]


def _nchw(p):
    return [Tensor("X", (p["n"], p["c"], p["h"], p["w"]))]


def _nhwc(p):
    return [Tensor("X", (p["n"], p["h"], p["w"], p["c"]))]


def _ncdhw(p):
    return [Tensor("X", (p["n"], p["c"], p["d"], p["h"], p["w"]))]


def _pool2d(p, X, kind, layout="NCHW", count_include_pad=True, ceil_mode=False):
    k, s, pad = p["k"], p["s"], p["p"]
    return topi.nn.pool2d(X, (k, k), (s, s), (1, 1), (pad,) * 4, kind, ceil_mode, layout, count_include_pad)


def _lp_pool(p, X):
    """(sum over the window of X^2)^(1/2): L2 pooling."""
    k, s = p["k"], p["s"]
    oh, ow = _o(p["h"], p), _o(p["w"], p)
    ry = te.reduce_axis((0, k), name="ry")
    rx = te.reduce_axis((0, k), name="rx")
    sq = te.compute((p["n"], p["c"], oh, ow), lambda n, c, y, x: te.sum(
        X[n, c, y * s + ry, x * s + rx] * X[n, c, y * s + ry, x * s + rx], axis=[ry, rx]), name="T_sq_sum")
    return te.compute(sq.shape, lambda *i: te.sqrt(sq(*i)), name="T_lp_pool")


def _lp_ref(p, X):
    return np.sqrt(refs.pool(X * X, p["k"], p["s"], 0, "avg") * p["k"] * p["k"])


def _nhwc_ref(p, X, kind):
    return refs.pool(X.transpose(0, 3, 1, 2), p["k"], p["s"], p["p"], kind).transpose(0, 2, 3, 1)


def _win2(p):
    return p["n"] * p["c"] * _o(p["h"], p) * _o(p["w"], p) * p["k"] ** 2


PATTERNS = [
    _window_pattern("max", "Y = max over k x k windows (stride s, -inf padding)", [
        _wl(1, 64, 112, 112, 3, 2, 1),
        _wl(1, 32, 56, 56, 2, 2, 0),
        _wl(1, 16, 64, 64, 2, 2, 0),   # small U-Net encoder
        _wl(1, 32, 32, 32, 2, 2, 0),
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
    OpPattern(
        id="pool/global-max-pool", family="pool", level="L1", domains=("vision",),
        summary="Y[n, c, 0, 0] = max_{h, w} X[n, c, h, w]",
        inputs=_nchw,
        compute=lambda p, X: topi.nn.global_pool(X, "max"),
        reference=lambda p, X: X.max(axis=(2, 3), keepdims=True),
        vendor=lambda p, X: X.max(axis=(2, 3), keepdims=True),
        flops=lambda p: p["n"] * p["c"] * p["h"] * p["w"],
        workloads=[wl(n=1, c=512, h=7, w=7), wl(n=1, c=64, h=25, w=5, domains=("audio",))],
    ),
    _pool("max-pool1d", "Y[n, c, x] = max_{j < k} X[n, c, x*s + j - p] (-inf padding)", _ncw,
          lambda p, X: topi.nn.pool1d(X, (p["k"],), (p["s"],), (1,), (p["p"], p["p"]), "max"),
          lambda p, X: refs.pool(X, p["k"], p["s"], p["p"], "max"),
          lambda p: p["n"] * p["c"] * _o(p["w"], p) * p["k"],
          [wl(n=1, c=64, w=4000, k=4, s=4, p=0), wl(n=1, c=128, w=500, k=3, s=2, p=1)],
          domains=("audio", "signal-processing")),
    _pool("avg-pool1d", "Y[n, c, x] = mean_{j < k} X[n, c, x*s + j - p] (zero padding counted)", _ncw,
          lambda p, X: topi.nn.pool1d(X, (p["k"],), (p["s"],), (1,), (p["p"], p["p"]), "avg"),
          lambda p, X: refs.pool(X, p["k"], p["s"], p["p"], "avg"),
          lambda p: p["n"] * p["c"] * _o(p["w"], p) * p["k"],
          [wl(n=1, c=64, w=1000, k=4, s=4, p=0)], domains=("audio", "signal-processing")),
    _pool("max-pool3d", "Y = max over k x k x k windows, NCDHW (video)", _ncdhw,
          lambda p, X: topi.nn.pool3d(X, (p["k"],) * 3, (p["s"],) * 3, (1,) * 3, (p["p"],) * 6, "max"),
          lambda p, X: refs.pool(X, p["k"], p["s"], p["p"], "max"),
          lambda p: p["n"] * p["c"] * _o(p["d"], p) * _o(p["h"], p) * _o(p["w"], p) * p["k"] ** 3,
          [wl(n=1, c=32, d=16, h=28, w=28, k=2, s=2, p=0)]),
    _pool("avg-pool3d", "Y = mean over k x k x k windows, NCDHW", _ncdhw,
          lambda p, X: topi.nn.pool3d(X, (p["k"],) * 3, (p["s"],) * 3, (1,) * 3, (p["p"],) * 6, "avg"),
          lambda p, X: refs.pool(X, p["k"], p["s"], p["p"], "avg"),
          lambda p: p["n"] * p["c"] * _o(p["d"], p) * _o(p["h"], p) * _o(p["w"], p) * p["k"] ** 3,
          [wl(n=1, c=64, d=8, h=14, w=14, k=3, s=1, p=1)]),
    _pool("avg-pool2d-exclude-pad", "Y = mean over the in-bounds part of each k x k window (padding not counted)",
          _nchw, lambda p, X: _pool2d(p, X, "avg", count_include_pad=False),
          lambda p, X: refs.pool(X, p["k"], p["s"], p["p"], "avg", count_include_pad=False),
          _win2, [wl(n=1, c=64, h=56, w=56, k=3, s=1, p=1), wl(n=1, c=192, h=28, w=28, k=3, s=2, p=1)]),
    _pool("avg-pool2d-ceil", "Y = mean over k x k windows, output size rounded up (ceil mode)",
          _nchw, lambda p, X: _pool2d(p, X, "avg", ceil_mode=True),
          lambda p, X: refs.pool(X, p["k"], p["s"], p["p"], "avg", ceil_mode=True),
          _win2, [wl(n=1, c=96, h=28, w=28, k=3, s=2, p=0)]),
    _pool("max-pool2d-nhwc", "Y[n, y, x, c] = max over k x k windows, channels-last (TFLite)",
          _nhwc, lambda p, X: _pool2d(p, X, "max", "NHWC"), lambda p, X: _nhwc_ref(p, X, "max"),
          _win2, [wl(n=1, h=112, w=112, c=64, k=3, s=2, p=1), wl(n=1, h=32, w=32, c=16, k=2, s=2, p=0)]),
    _pool("avg-pool2d-nhwc", "Y[n, y, x, c] = mean over k x k windows, channels-last",
          _nhwc, lambda p, X: _pool2d(p, X, "avg", "NHWC"), lambda p, X: _nhwc_ref(p, X, "avg"),
          _win2, [wl(n=1, h=6, w=6, c=256, k=3, s=3, p=0), wl(n=1, h=56, w=56, c=64, k=2, s=2, p=0)]),
    _pool("lp-pool2d", "Y = sqrt(sum over k x k windows of X^2) (L2 pooling)",
          _nchw, _lp_pool, _lp_ref, lambda p: 2 * _win2(p),
          [wl(n=1, c=64, h=56, w=56, k=2, s=2, p=0)]),
    _pool("adaptive-avg-pool2d", "Y[n, c, i, j] = mean of bin (i, j): rows floor(i H/O)..ceil((i+1) H/O)",
          _nchw, lambda p, X: topi.nn.adaptive_pool(X, (p["o"], p["o"]), "avg"),
          lambda p, X: refs.adaptive_pool(X, p["o"], "avg"),
          lambda p: p["n"] * p["c"] * p["h"] * p["w"],
          [wl(n=1, c=256, h=13, w=13, o=6), wl(n=1, c=64, h=25, w=5, o=1, domains=("audio",))]),
    _pool("adaptive-max-pool2d", "Y[n, c, i, j] = max of adaptive bin (i, j)",
          _nchw, lambda p, X: topi.nn.adaptive_pool(X, (p["o"], p["o"]), "max"),
          lambda p, X: refs.adaptive_pool(X, p["o"], "max"),
          lambda p: p["n"] * p["c"] * p["h"] * p["w"],
          [wl(n=1, c=128, h=20, w=20, o=7)]),
    _pool("adaptive-avg-pool1d", "Y[n, c, i] = mean of adaptive bin i over time",
          _ncw, lambda p, X: topi.nn.adaptive_pool1d(X, (p["o"],), "avg"),
          lambda p, X: refs.adaptive_pool(X, p["o"], "avg"),
          lambda p: p["n"] * p["c"] * p["w"],
          [wl(n=1, c=128, w=250, o=16), wl(n=1, c=48, w=13, o=1)], domains=("audio", "signal-processing")),
]
