"""Scans (cumulative reductions) along an axis: running sums for integral images and CTC/alignment
lattices, running extrema for envelopes, exclusive sums for offsets into ragged batches.

The canonical compute is TOPI's scan (one sequential loop per row, rows in parallel), so the
default build is already parallel; a faster kernel has to change the algorithm (blocked or
tree scans), which is the point of these tasks. Products use inputs in [0.5, 1.5].
"""

import numpy as np
from tvm import te, topi

from evaluator.suite.base import OpPattern, Tensor
from evaluator.suite.declare import wl


def _pattern(name, compute, reference, summary, workloads, init="uniform", ops=1):
    return OpPattern(
        id=f"scan/{name}", family="scan", level="L1", domains=(), summary=summary,
        inputs=lambda p: [Tensor("X", (p["m"], p["n"]), init=init)],
        compute=compute, reference=reference, vendor=reference,
        flops=lambda p: ops * p["m"] * p["n"],
        workloads=workloads,
    )


def _logcumsumexp(X):
    return np.logaddexp.accumulate(X, axis=1)


PATTERNS = [
    _pattern("cumsum-lastaxis", lambda p, X: topi.cumsum(X, axis=1), lambda p, X: np.cumsum(X, axis=1),
             "Y[m, n] = sum_{j <= n} X[m, j]",
             [wl(m=64, n=1024, domains=("signal-processing",)), wl(m=128, n=128, domains=("vision",))]),
    _pattern("cumsum-firstaxis", lambda p, X: topi.cumsum(X, axis=0), lambda p, X: np.cumsum(X, axis=0),
             "Y[m, n] = sum_{i <= m} X[i, n] (column prefix sums, integral images)",
             [wl(m=128, n=128, domains=("vision",)), wl(m=98, n=257, domains=("audio",))]),
    _pattern("cumsum-exclusive", lambda p, X: topi.cumsum(X, axis=1, exclusive=True),
             lambda p, X: np.cumsum(X, axis=1) - X,
             "Y[m, n] = sum_{j < n} X[m, j] (offsets)",
             [wl(m=64, n=2048, domains=("recommendation",))]),
    _pattern("cumprod-lastaxis", lambda p, X: topi.cumprod(X, axis=1), lambda p, X: np.cumprod(X, axis=1),
             "Y[m, n] = prod_{j <= n} X[m, j], X in [0.5, 1.5] (decay factors)",
             [wl(m=256, n=64, domains=("signal-processing",))], init="positive"),
    _pattern("cummax-lastaxis", lambda p, X: topi.scanop(X, te.max, te.min_value(X.dtype), "cummax", axis=1),
             lambda p, X: np.maximum.accumulate(X, axis=1),
             "Y[m, n] = max_{j <= n} X[m, j] (running peak, envelope)",
             [wl(m=64, n=1024, domains=("signal-processing",)), wl(m=16, n=16000, domains=("audio",))]),
    _pattern("cummin-lastaxis", lambda p, X: topi.scanop(X, te.min, te.max_value(X.dtype), "cummin", axis=1),
             lambda p, X: np.minimum.accumulate(X, axis=1),
             "Y[m, n] = min_{j <= n} X[m, j] (running minimum, noise floor tracking)",
             [wl(m=98, n=257, domains=("audio",))]),
    _pattern("logcumsumexp-lastaxis",
             lambda p, X: topi.scanop(X, te.logaddexp, te.min_value(X.dtype), "logcumsumexp", axis=1),
             lambda p, X: _logcumsumexp(X),
             "Y[m, n] = log sum_{j <= n} exp(X[m, j]) (log-space forward recursions)",
             [wl(m=64, n=512, domains=("audio", "language"))], init="normal", ops=4),
]
