"""Reductions over one axis or several: sums, extrema, arg-extrema, norms and moments — the building
blocks of pooling, normalisation, softmax and feature statistics.

Uniform inputs keep float32 accumulation error far below the tolerance on the long sums; the
arg-reductions use normal inputs (ties have probability zero) and return int32 indices (first
occurrence, as NumPy).
"""

import numpy as np
from tvm import te, topi

from evaluator.suite.base import OpPattern, Tensor, Workload
from evaluator.suite.declare import wl

_WORKLOADS = [
    Workload("m512n1024", {"m": 512, "n": 1024}),
    Workload("m128n2048", {"m": 128, "n": 2048}, domains=("audio",)),
]
_SPEC = wl(m=98, n=257, domains=("audio", "signal-processing"))
_TOK = wl(m=128, n=768, domains=("language",))
_FEAT = wl(m=256, n=64, domains=("recommendation", "anomaly-detection"))
_prod = te.comm_reducer(lambda x, y: x * y, lambda t: te.const(1, dtype=t), name="prod")


def _pattern(name, te_reducer, np_fn, summary, workloads, init="uniform"):
    """Y[m] = reduce_n X[m, n]."""
    def compute(p, X):
        k = te.reduce_axis((0, p["n"]), name="k")
        return te.compute((p["m"],), lambda i: te_reducer(X[i, k], axis=k),
                          name="T_" + name.split("-")[0])

    return OpPattern(
        id=f"reduction/{name}",
        family="reduction",
        level="L1",
        domains=("signal-processing",),
        summary=summary,
        inputs=lambda p: [Tensor("X", (p["m"], p["n"]), init=init)],
        compute=compute,
        reference=lambda p, X: np_fn(X, axis=-1),
        vendor=lambda p, X: np_fn(X, axis=-1),
        flops=lambda p: p["m"] * p["n"],
        workloads=workloads,
    )


def _row(name, body, finish, np_fn, summary, workloads, ops=2, init="uniform", domains=()):
    """Y[m] = finish(sum_n body(X[m, n]), ...): a row reduction with an elementwise epilogue.

    ``body(x, row_stats)`` and ``finish(acc, n, row_stats)`` see the earlier passes' results."""
    def compute(p, X):
        k = te.reduce_axis((0, p["n"]), name="k")
        acc = te.compute((p["m"],), lambda i: te.sum(body(X[i, k]), axis=k), name="T_acc")
        return te.compute((p["m"],), lambda i: finish(acc[i], p["n"]), name="T_" + name.split("-")[0])

    return OpPattern(
        id=f"reduction/{name}", family="reduction", level="L1", domains=domains, summary=summary,
        inputs=lambda p: [Tensor("X", (p["m"], p["n"]), init=init)],
        compute=compute,
        reference=lambda p, X: np_fn(X),
        vendor=lambda p, X: np_fn(X),
        flops=lambda p: ops * p["m"] * p["n"],
        workloads=workloads,
    )


def _first_axis(name, te_reducer, np_fn, summary, workloads, finish=None):
    """Y[n] = reduce_m X[m, n] (column statistics, e.g. per-feature over a batch or over time)."""
    def compute(p, X):
        k = te.reduce_axis((0, p["m"]), name="k")
        y = te.compute((p["n"],), lambda j: te_reducer(X[k, j], axis=k), name="T_" + name.split("-")[0])
        if finish is None:
            return y
        return te.compute((p["n"],), lambda j: finish(y[j], p["m"]), name="T_finish")

    return OpPattern(
        id=f"reduction/{name}", family="reduction", level="L1", domains=(), summary=summary,
        inputs=lambda p: [Tensor("X", (p["m"], p["n"]), init="uniform")],
        compute=compute,
        reference=lambda p, X: np_fn(X, axis=0),
        vendor=lambda p, X: np_fn(X, axis=0),
        flops=lambda p: p["m"] * p["n"],
        workloads=workloads,
    )


def _arg(name, fn, np_fn, axis, summary, workloads):
    return OpPattern(
        id=f"reduction/{name}", family="reduction", level="L1", domains=(), summary=summary,
        inputs=lambda p: [Tensor("X", (p["m"], p["n"]))],
        compute=lambda p, X: fn(X, axis=axis),
        reference=lambda p, X: np_fn(X, axis=axis),
        vendor=lambda p, X: np_fn(X, axis=axis).astype(np.int32),
        flops=lambda p: p["m"] * p["n"],
        workloads=workloads,
    )


def _amax_abs(p, X):
    k = te.reduce_axis((0, p["n"]), name="k")
    return te.compute((p["m"],), lambda i: te.max(te.abs(X[i, k]), axis=k), name="T_amax")


def _logsumexp(p, X):
    k = te.reduce_axis((0, p["n"]), name="k")
    mx = te.compute((p["m"],), lambda i: te.max(X[i, k], axis=k), name="T_max")
    k2 = te.reduce_axis((0, p["n"]), name="k2")
    s = te.compute((p["m"],), lambda i: te.sum(te.exp(X[i, k2] - mx[i]), axis=k2), name="T_sum_exp")
    return te.compute((p["m"],), lambda i: mx[i] + te.log(s[i]), name="T_logsumexp")


def _np_logsumexp(X):
    mx = X.max(axis=-1)
    return mx + np.log(np.exp(X - mx[:, None]).sum(axis=-1))


def _moments(p, X, std):
    n = p["n"]
    k = te.reduce_axis((0, n), name="k")
    total = te.compute((p["m"],), lambda i: te.sum(X[i, k], axis=k), name="T_sum")
    k2 = te.reduce_axis((0, n), name="k2")
    sq = te.compute((p["m"],), lambda i: te.sum((X[i, k2] - total[i] / n) * (X[i, k2] - total[i] / n),
                                                axis=k2), name="T_sq_dev")
    if not std:
        return te.compute((p["m"],), lambda i: sq[i] / n, name="T_var")
    return te.compute((p["m"],), lambda i: te.sqrt(sq[i] / n), name="T_std")


def _sum_middle(p, X):
    k = te.reduce_axis((0, p["b"]), name="k")
    return te.compute((p["a"], p["c"]), lambda i, j: te.sum(X[i, k, j], axis=k), name="T_sum")


def _sum_all(p, X):
    i = te.reduce_axis((0, p["m"]), name="i")
    j = te.reduce_axis((0, p["n"]), name="j")
    return te.compute((1,), lambda _: te.sum(X[i, j], axis=[i, j]), name="T_sum")


def _mean_spatial_nhwc(p, X):
    y = te.reduce_axis((0, p["h"]), name="y")
    x = te.reduce_axis((0, p["w"]), name="x")
    s = te.compute((p["n"], p["c"]), lambda n, c: te.sum(X[n, y, x, c], axis=[y, x]), name="T_sum")
    return te.compute(s.shape, lambda n, c: s[n, c] / (p["h"] * p["w"]), name="T_mean")


PATTERNS = [
    _pattern("sum-lastaxis", te.sum, np.sum, "Y[m] = sum_n X[m, n]", _WORKLOADS),
    _pattern("max-lastaxis", te.max, np.max, "Y[m] = max_n X[m, n]", _WORKLOADS),
    _pattern("min-lastaxis", te.min, np.min, "Y[m] = min_n X[m, n]", [_SPEC]),
    _pattern("prod-lastaxis", _prod, np.prod, "Y[m] = prod_n X[m, n], X in [0.5, 1.5]",
             [wl(m=512, n=64, domains=("linear-algebra",))], init="positive"),
    _row("mean-lastaxis", lambda x: x, lambda s, n: s / n, lambda X: X.mean(axis=-1),
         "Y[m] = mean_n X[m, n]", [_TOK, _SPEC]),
    _row("sumsq-lastaxis", lambda x: x * x, lambda s, n: s, lambda X: (X * X).sum(axis=-1),
         "Y[m] = sum_n X[m, n]^2 (frame energy)", [_SPEC]),
    _row("l1-norm-lastaxis", lambda x: te.abs(x), lambda s, n: s, lambda X: np.abs(X).sum(axis=-1),
         "Y[m] = sum_n |X[m, n]|", [_FEAT]),
    _row("l2-norm-lastaxis", lambda x: x * x, lambda s, n: te.sqrt(s), lambda X: np.sqrt((X * X).sum(axis=-1)),
         "Y[m] = sqrt(sum_n X[m, n]^2)", [_FEAT, _TOK], ops=2),
    OpPattern(
        id="reduction/amax-abs-lastaxis", family="reduction", level="L1", domains=(),
        summary="Y[m] = max_n |X[m, n]| (quantisation range calibration)",
        inputs=lambda p: [Tensor("X", (p["m"], p["n"]))],
        compute=_amax_abs,
        reference=lambda p, X: np.abs(X).max(axis=-1),
        vendor=lambda p, X: np.abs(X).max(axis=-1),
        flops=lambda p: 2 * p["m"] * p["n"],
        workloads=[_TOK, wl(m=64, n=4096, domains=("language",))],
    ),
    OpPattern(
        id="reduction/logsumexp-lastaxis", family="reduction", level="L1", domains=(),
        summary="Y[m] = log sum_n exp(X[m, n]) (stable: max, then sum of shifted exps)",
        inputs=lambda p: [Tensor("X", (p["m"], p["n"]))],
        compute=_logsumexp,
        reference=lambda p, X: _np_logsumexp(X),
        vendor=lambda p, X: _np_logsumexp(X),
        flops=lambda p: 4 * p["m"] * p["n"],
        workloads=[_TOK, wl(m=32, n=1000, domains=("vision",))],
    ),
    OpPattern(
        id="reduction/var-lastaxis", family="reduction", level="L1", domains=(),
        summary="Y[m] = mean_n (X[m, n] - mean_n X[m, n])^2 (two passes)",
        inputs=lambda p: [Tensor("X", (p["m"], p["n"]), init="uniform")],
        compute=lambda p, X: _moments(p, X, std=False),
        reference=lambda p, X: X.var(axis=-1),
        vendor=lambda p, X: X.var(axis=-1),
        flops=lambda p: 4 * p["m"] * p["n"],
        workloads=[_TOK, _FEAT],
    ),
    OpPattern(
        id="reduction/std-lastaxis", family="reduction", level="L1", domains=(),
        summary="Y[m] = sqrt(var_n X[m, n]) (population standard deviation)",
        inputs=lambda p: [Tensor("X", (p["m"], p["n"]), init="uniform")],
        compute=lambda p, X: _moments(p, X, std=True),
        reference=lambda p, X: X.std(axis=-1),
        vendor=lambda p, X: X.std(axis=-1),
        flops=lambda p: 4 * p["m"] * p["n"],
        workloads=[_SPEC],
    ),
    _first_axis("sum-firstaxis", te.sum, np.sum, "Y[n] = sum_m X[m, n] (column sums)",
                [wl(m=1024, n=512, domains=("linear-algebra",)), _SPEC]),
    _first_axis("max-firstaxis", te.max, np.max, "Y[n] = max_m X[m, n] (max over time)",
                [_SPEC, wl(m=196, n=384, domains=("vision",))]),
    _first_axis("min-firstaxis", te.min, np.min, "Y[n] = min_m X[m, n]", [_SPEC]),
    _first_axis("mean-firstaxis", te.sum, np.mean, "Y[n] = mean_m X[m, n] (mean over time or batch)",
                [_SPEC, wl(m=196, n=384, domains=("vision",))], finish=lambda s, m: s / m),
    OpPattern(
        id="reduction/sum-middle-axis", family="reduction", level="L1", domains=(),
        summary="Y[a, c] = sum_b X[a, b, c] (reduce a strided middle axis)",
        inputs=lambda p: [Tensor("X", (p["a"], p["b"], p["c"]), init="uniform")],
        compute=_sum_middle,
        reference=lambda p, X: X.sum(axis=1),
        vendor=lambda p, X: X.sum(axis=1),
        flops=lambda p: p["a"] * p["b"] * p["c"],
        workloads=[wl(a=8, b=128, c=256, domains=("language",)), wl(a=64, b=49, c=96, domains=("vision",))],
    ),
    OpPattern(
        id="reduction/sum-all", family="reduction", level="L1", domains=(),
        summary="Y[0] = sum_{m, n} X[m, n] (full reduction to one value)",
        inputs=lambda p: [Tensor("X", (p["m"], p["n"]), init="uniform")],
        compute=_sum_all,
        reference=lambda p, X: X.sum().reshape(1),
        vendor=lambda p, X: X.sum().reshape(1),
        flops=lambda p: p["m"] * p["n"],
        workloads=[wl(m=256, n=256, domains=("linear-algebra",)), wl(m=98, n=40, domains=("audio",))],
    ),
    OpPattern(
        id="reduction/mean-spatial-nhwc", family="reduction", level="L1", domains=("vision",),
        summary="Y[n, c] = mean_{h, w} X[n, h, w, c] (channels-last global average)",
        inputs=lambda p: [Tensor("X", (p["n"], p["h"], p["w"], p["c"]), init="uniform")],
        compute=_mean_spatial_nhwc,
        reference=lambda p, X: X.mean(axis=(1, 2)),
        vendor=lambda p, X: X.mean(axis=(1, 2)),
        flops=lambda p: p["n"] * p["h"] * p["w"] * p["c"],
        workloads=[wl(n=1, h=7, w=7, c=1024), wl(n=1, h=3, w=3, c=256)],
    ),
    _arg("argmax-lastaxis", topi.argmax, np.argmax, 1, "Y[m] = argmax_n X[m, n] (int32; first maximum)",
         [wl(m=128, n=1000, domains=("vision",)), wl(m=64, n=4096, domains=("language",))]),
    _arg("argmin-lastaxis", topi.argmin, np.argmin, 1, "Y[m] = argmin_n X[m, n] (int32; nearest codeword)",
         [wl(m=256, n=512, domains=("anomaly-detection",))]),
    _arg("argmax-firstaxis", topi.argmax, np.argmax, 0, "Y[n] = argmax_m X[m, n] (int32; e.g. best frame)",
         [wl(m=98, n=257, domains=("audio",))]),
]
