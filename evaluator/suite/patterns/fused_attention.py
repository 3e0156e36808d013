"""Fused scaled dot-product attention softmax(Q·K^T/sqrt(d))·V per head: the transformer core.

float16 workloads store Q, K, V and O in float16 and compute in float32 (``suite.precision``).
"""

import numpy as np
from tvm import te, topi

from evaluator.suite.base import OpPattern, Tensor, Workload
from evaluator.suite.declare import dtype_of, tag_of
from evaluator.suite.patterns.attention import qk_scale
from evaluator.suite.precision import in_float32, vendor_in_float32


@in_float32
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


def _wl(b, m, n, d, dtype="float32", **kw):
    params = {"b": b, "m": m, "n": n, "d": d} | ({"dtype": dtype} if dtype != "float32" else {})
    return Workload(tag_of(params), params, **kw)


PATTERN = OpPattern(
    id="fused/attention",
    family="fused",
    level="L2",
    domains=("language",),
    summary="O[b] = softmax(Q[b] K[b]^T / sqrt(d)) V[b], one PrimFunc (matmul, softmax, matmul)",
    inputs=lambda p: [Tensor("Q", (p["b"], p["m"], p["d"]), dtype_of(p), init="uniform", scale=qk_scale(p)),
                      Tensor("K", (p["b"], p["n"], p["d"]), dtype_of(p), init="uniform", scale=qk_scale(p)),
                      Tensor("V", (p["b"], p["n"], p["d"]), dtype_of(p))],
    compute=_compute,
    reference=lambda p, Q, K, V: _attention(Q, K, V),
    vendor=vendor_in_float32(lambda p, Q, K, V: _attention(Q, K, V)),
    # two matmuls, the scale and 5 softmax operations per score
    flops=lambda p: p["b"] * p["m"] * p["n"] * (4 * p["d"] + 6),
    workloads=[
        _wl(12, 128, 128, 64),
        _wl(4, 49, 49, 32, domains=("vision",)),  # Swin-style 7x7 window attention
        _wl(12, 128, 128, 64, "float16"),
        _wl(4, 49, 49, 32, "float16", domains=("vision",)),
    ],
)
