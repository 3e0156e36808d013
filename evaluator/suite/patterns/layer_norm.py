"""Layer normalization over the last axis: in every transformer block; two reductions per row."""

import numpy as np
from tvm import topi

from evaluator.suite.base import OpPattern, Tensor, Workload

EPS = 1e-5


def layer_norm_ref(X, gamma, beta):
    mean = X.mean(axis=-1, keepdims=True)
    var = ((X - mean) ** 2).mean(axis=-1, keepdims=True)
    return (X - mean) / np.sqrt(var + EPS) * gamma + beta


PATTERN = OpPattern(
    id="norm/layer-norm",
    family="norm",
    level="L1",
    domains=("language",),
    summary="Y = (X - mean(X)) / sqrt(var(X) + 1e-5) * gamma + beta, statistics over the last axis",
    inputs=lambda p: [Tensor("X", (p["m"], p["n"])), Tensor("gamma", (p["n"],)),
                      Tensor("beta", (p["n"],))],
    compute=lambda p, X, gamma, beta: topi.nn.layer_norm(X, gamma, beta, axis=[-1], epsilon=EPS),
    reference=lambda p, X, gamma, beta: layer_norm_ref(X, gamma, beta),
    vendor=lambda p, X, gamma, beta: layer_norm_ref(X, gamma, beta),
    # mean, variance (2 reductions) and 4 elementwise operations per element
    flops=lambda p: 8 * p["m"] * p["n"],
    workloads=[
        Workload("m128n768", {"m": 128, "n": 768}),
        Workload("m196n384", {"m": 196, "n": 384}, domains=("vision",)),
        Workload("m64n256", {"m": 64, "n": 256}, domains=("audio",)),
    ],
)
