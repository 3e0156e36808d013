"""Fused scaled dot-product attention softmax(Q·K^T/sqrt(d))·V per head: the transformer core."""

import numpy as np
from tvm import te, topi

from evaluator.suite.base import OpPattern, Tensor, Workload


def _compute(p, Q, K, V):
    scores = topi.nn.batch_matmul(Q, K, transpose_b=True)
    scale = 1.0 / float(np.sqrt(p["d"]))
    scaled = te.compute(scores.shape, lambda b, i, j: scores[b, i, j] * scale, name="T_scale")
    probs = topi.nn.softmax(scaled, axis=-1)
    return topi.nn.batch_matmul(probs, V, transpose_b=False)


def _attention(Q, K, V):
    s = np.matmul(Q, np.swapaxes(K, 1, 2)) / np.sqrt(Q.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return np.matmul(e / e.sum(axis=-1, keepdims=True), V)


def _wl(b, m, n, d, **kw):
    return Workload(f"b{b}m{m}n{n}d{d}", {"b": b, "m": m, "n": n, "d": d}, **kw)


PATTERN = OpPattern(
    id="fused/attention",
    family="fused",
    level="L2",
    domains=("language",),
    summary="O[b] = softmax(Q[b] K[b]^T / sqrt(d)) V[b], one PrimFunc (matmul, softmax, matmul)",
    inputs=lambda p: [Tensor("Q", (p["b"], p["m"], p["d"]), init="uniform"),
                      Tensor("K", (p["b"], p["n"], p["d"]), init="uniform"),
                      Tensor("V", (p["b"], p["n"], p["d"]))],
    compute=_compute,
    reference=lambda p, Q, K, V: _attention(Q, K, V),
    vendor=lambda p, Q, K, V: _attention(Q, K, V),
    # two matmuls, the scale and 5 softmax operations per score
    flops=lambda p: p["b"] * p["m"] * p["n"] * (4 * p["d"] + 6),
    workloads=[
        _wl(12, 128, 128, 64),
        _wl(4, 49, 49, 32, domains=("vision",)),  # Swin-style 7x7 window attention
    ],
)
