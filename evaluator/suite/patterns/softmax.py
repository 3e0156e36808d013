"""Softmax over the last axis: attention probabilities and classifier outputs; 3 passes per row."""

import numpy as np
from tvm import topi

from evaluator.suite.base import OpPattern, Tensor, Workload


def _softmax(X):
    e = np.exp(X - X.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


PATTERN = OpPattern(
    id="softmax/softmax",
    family="softmax",
    level="L1",
    domains=("language",),
    summary="Y[m, n] = exp(X[m, n] - max_j X[m, j]) / sum_j exp(X[m, j] - max_j X[m, j])",
    inputs=lambda p: [Tensor("X", (p["m"], p["n"]))],
    compute=lambda p, X: topi.nn.softmax(X, axis=-1),
    reference=lambda p, X: _softmax(X),
    vendor=lambda p, X: _softmax(X),
    # max, subtract, exp, sum, divide: 5 operations per element
    flops=lambda p: 5 * p["m"] * p["n"],
    workloads=[
        Workload("m1536n128", {"m": 1536, "n": 128}),
        Workload("m256n512", {"m": 256, "n": 512}),
        Workload("m32n1000", {"m": 32, "n": 1000}, domains=("vision",)),
    ],
)
