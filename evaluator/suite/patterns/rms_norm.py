"""RMS normalization over the last axis: LLaMA-style small language models; one row reduction."""

import numpy as np
from tvm import te

from evaluator.suite.base import OpPattern, Tensor, Workload

EPS = 1e-5


def _compute(p, X, gamma):
    k = te.reduce_axis((0, p["n"]), name="k")
    sq = te.compute((p["m"],), lambda i: te.sum(X[i, k] * X[i, k], axis=k), name="T_sq_sum")
    return te.compute(X.shape, lambda i, j: X[i, j] * te.rsqrt(sq[i] / p["n"] + EPS) * gamma[j],
                      name="T_rms_norm")


def _rms_norm(X, gamma):
    return X / np.sqrt((X * X).mean(axis=-1, keepdims=True) + EPS) * gamma


PATTERN = OpPattern(
    id="norm/rms-norm",
    family="norm",
    level="L1",
    domains=("language",),
    summary="Y = X / sqrt(mean(X^2) + 1e-5) * gamma, statistics over the last axis",
    inputs=lambda p: [Tensor("X", (p["m"], p["n"])), Tensor("gamma", (p["n"],))],
    compute=_compute,
    reference=lambda p, X, gamma: _rms_norm(X, gamma),
    vendor=lambda p, X, gamma: _rms_norm(X, gamma),
    # square, sum, scale and multiply by gamma: 4 operations per element
    flops=lambda p: 4 * p["m"] * p["n"],
    workloads=[
        Workload("m128n576", {"m": 128, "n": 576}),
        Workload("m32n2048", {"m": 32, "n": 2048}),
    ],
)
