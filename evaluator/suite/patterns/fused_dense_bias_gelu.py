"""Fused dense + bias + GELU (tanh form): the first half of a transformer feed-forward block."""

import math

import numpy as np
from tvm import te, topi

from evaluator.suite.base import OpPattern, Tensor, Workload

_C = math.sqrt(2.0 / math.pi)


def _gelu(y, tanh):
    return 0.5 * y * (1.0 + tanh(_C * (y + 0.044715 * y * y * y)))


def _compute(p, X, W, b):
    mm = topi.nn.dense(X, W)  # X[m, k] · W[n, k]^T, nn.Linear weight layout
    return te.compute(mm.shape, lambda i, j: _gelu(mm[i, j] + b[j], te.tanh), name="T_bias_gelu")


PATTERN = OpPattern(
    id="fused/dense-bias-gelu",
    family="fused",
    level="L2",
    domains=("language",),
    summary="Y = gelu_tanh(X · W^T + b), one PrimFunc: matmul block then bias+GELU block",
    inputs=lambda p: [Tensor("X", (p["m"], p["k"]), init="uniform"),
                      Tensor("W", (p["n"], p["k"]), init="uniform"), Tensor("b", (p["n"],))],
    compute=_compute,
    reference=lambda p, X, W, b: _gelu(X @ W.T + b, np.tanh),
    vendor=lambda p, X, W, b: _gelu(X @ W.T + b, np.tanh),
    # 2 per multiply-add, 1 for the bias, 9 for GELU
    flops=lambda p: p["m"] * p["n"] * (2 * p["k"] + 10),
    workloads=[
        Workload("m32n1024k256", {"m": 32, "n": 1024, "k": 256}),
        Workload("m128n512k128", {"m": 128, "n": 512, "k": 128}),
    ],
)
