"""Fused residual add + layer norm (post-LN transformer): Y = LayerNorm(X + R) in one pass."""

from tvm import te, topi

from evaluator.suite.base import OpPattern, Tensor, Workload
from evaluator.suite.patterns.norm import EPS, layer_norm_ref

PATTERN = OpPattern(
    id="fused/residual-layer-norm",
    family="fused",
    level="L2",
    domains=("language",),
    summary="Y = layer_norm(X + R) * gamma + beta over the last axis, one PrimFunc",
    inputs=lambda p: [Tensor("X", (p["m"], p["n"])), Tensor("R", (p["m"], p["n"])),
                      Tensor("gamma", (p["n"],)), Tensor("beta", (p["n"],))],
    compute=lambda p, X, R, gamma, beta: topi.nn.layer_norm(
        te.compute(X.shape, lambda i, j: X[i, j] + R[i, j], name="T_residual_add"),
        gamma, beta, axis=[-1], epsilon=EPS),
    reference=lambda p, X, R, gamma, beta: layer_norm_ref(X + R, gamma, beta),
    vendor=lambda p, X, R, gamma, beta: layer_norm_ref(X + R, gamma, beta),
    flops=lambda p: 9 * p["m"] * p["n"],
    workloads=[
        Workload("m128n768", {"m": 128, "n": 768}),
        Workload("m196n384", {"m": 196, "n": 384}, domains=("vision",)),
        Workload("m64n128", {"m": 64, "n": 128}),  # the tiny transformer encoder
    ],
)
