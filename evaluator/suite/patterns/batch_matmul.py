"""Batched matmul C[b] = A[b]·B[b]: per-head attention scores and context in small transformers."""

import numpy as np
from tvm import topi

from evaluator.suite.base import OpPattern, Tensor, Workload

PATTERN = OpPattern(
    id="batch-matmul/batch-matmul",
    family="batch-matmul",
    level="L1",
    domains=("language", "linear-algebra"),
    summary="C[b, m, n] = sum_k A[b, m, k] * B[b, k, n]",
    inputs=lambda p: [Tensor("A", (p["b"], p["m"], p["k"])), Tensor("B", (p["b"], p["k"], p["n"]))],
    compute=lambda p, A, B: topi.nn.batch_matmul(A, B, transpose_b=False),
    reference=lambda p, A, B: np.einsum("bmk,bkn->bmn", A, B),
    vendor=lambda p, A, B: np.matmul(A, B),
    flops=lambda p: 2 * p["b"] * p["m"] * p["n"] * p["k"],
    workloads=[
        Workload("b12m128n128k64", {"b": 12, "m": 128, "n": 128, "k": 64}),
        Workload("b4m64n64k32", {"b": 4, "m": 64, "n": 64, "k": 32}, domains=("audio",)),
    ],
)
