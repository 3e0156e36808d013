"""Batched matmuls C[b] = A[b]·B[b] (and with either operand transposed): per-head attention
scores and context in small transformers, grouped projections."""

import numpy as np
from tvm import te, topi

from evaluator.suite.base import OpPattern, Tensor, Workload
from evaluator.suite.declare import te_workload, wl


def _tn(p, A, B):
    k = te.reduce_axis((0, p["k"]), name="k")
    return te.compute((p["b"], p["m"], p["n"]), lambda b, i, j: te.sum(A[b, k, i] * B[b, k, j], axis=k),
                      name="T_batch_matmul_tn")


PATTERNS = [
    OpPattern(
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
        ]
        # TVM MetaSchedule's GMM (batch_matmul_nkkm(B, N, M, K): m = N, n = M), as given
        + [wl(b=1, m=m, n=n, k=k, source=te_workload("GMM", i))
           for i, (m, n, k) in enumerate([(128, 128, 128), (512, 32, 512), (512, 512, 512), (1024, 1024, 1024)])],
    ),
    OpPattern(
        id="batch-matmul/batch-matmul-nt", family="batch-matmul", level="L1", domains=("language",),
        summary="C[b, m, n] = sum_k A[b, m, k] * B[b, n, k] (attention scores Q K^T)",
        inputs=lambda p: [Tensor("A", (p["b"], p["m"], p["k"])), Tensor("B", (p["b"], p["n"], p["k"]))],
        compute=lambda p, A, B: topi.nn.batch_matmul(A, B, transpose_b=True),
        reference=lambda p, A, B: np.einsum("bmk,bnk->bmn", A, B),
        vendor=lambda p, A, B: np.matmul(A, np.swapaxes(B, 1, 2)),
        flops=lambda p: 2 * p["b"] * p["m"] * p["n"] * p["k"],
        workloads=[wl(b=12, m=128, n=128, k=64), wl(b=3, m=197, n=197, k=64, domains=("vision",))],
    ),
    OpPattern(
        id="batch-matmul/batch-matmul-tn", family="batch-matmul", level="L1", domains=("linear-algebra",),
        summary="C[b, m, n] = sum_k A[b, k, m] * B[b, k, n] (first operand transposed)",
        inputs=lambda p: [Tensor("A", (p["b"], p["k"], p["m"])), Tensor("B", (p["b"], p["k"], p["n"]))],
        compute=_tn,
        reference=lambda p, A, B: np.einsum("bkm,bkn->bmn", A, B),
        vendor=lambda p, A, B: np.matmul(np.swapaxes(A, 1, 2), B),
        flops=lambda p: 2 * p["b"] * p["m"] * p["n"] * p["k"],
        workloads=[wl(b=8, m=64, n=64, k=128)],
    ),
]
