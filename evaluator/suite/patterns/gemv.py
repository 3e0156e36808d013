"""Matrix-vector products: batch-1 dense layers and LLM decode are bandwidth-bound GEMVs.

float16 workloads accumulate in float32 and round the result once.
"""

import numpy as np
from tvm import te

from evaluator.suite.base import OpPattern, Tensor, Workload
from evaluator.suite.declare import dtype_of, narrow, wl


def _f32(x):
    return x if str(x.dtype) == "float32" else x.astype("float32")


def _compute(p, A, x):
    k = te.reduce_axis((0, p["k"]), name="k")
    y = te.compute((p["m"],), lambda i: te.sum(_f32(A[i, k]) * _f32(x[k]), axis=k), name="T_gemv")
    return narrow(y, dtype_of(p))


def _gemv_t(p, A, x):
    k = te.reduce_axis((0, p["k"]), name="k")
    return te.compute((p["m"],), lambda j: te.sum(A[k, j] * x[k], axis=k), name="T_gemv_t")


def _batched(p, A, x):
    k = te.reduce_axis((0, p["k"]), name="k")
    return te.compute((p["b"], p["m"]), lambda b, i: te.sum(A[b, i, k] * x[b, k], axis=k), name="T_bgemv")


def _widened(fn):
    def call(p, *xs):
        return fn(*[x.astype(np.float32) if x.dtype == np.float16 else x for x in xs]).astype(xs[0].dtype)
    return call


PATTERNS = [
    OpPattern(
        id="gemv/gemv",
        family="gemv",
        level="L1",
        domains=("linear-algebra", "language"),
        summary="y[m] = sum_k A[m, k] * x[k]",
        inputs=lambda p: [Tensor("A", (p["m"], p["k"]), dtype_of(p)),
                          Tensor("x", (p["k"],), dtype_of(p), init="uniform")],
        compute=_compute,
        reference=lambda p, A, x: A @ x,
        vendor=_widened(lambda A, x: A @ x),
        flops=lambda p: 2 * p["m"] * p["k"],
        workloads=[
            Workload("m1024k1024", {"m": 1024, "k": 1024}),
            Workload("m3072k768", {"m": 3072, "k": 768}),
            wl(m=2048, k=2048, dtype="float16"),
            wl(m=1024, k=1024, dtype="float16"),
            wl(m=3072, k=768, dtype="float16"),
        ],
    ),
    OpPattern(
        id="gemv/gemv-t", family="gemv", level="L1", domains=("linear-algebra",),
        summary="y[m] = sum_k A[k, m] * x[k] (y = A^T x: the matrix read across rows)",
        inputs=lambda p: [Tensor("A", (p["k"], p["m"])), Tensor("x", (p["k"],), init="uniform")],
        compute=_gemv_t,
        reference=lambda p, A, x: A.T @ x,
        vendor=lambda p, A, x: x @ A,
        flops=lambda p: 2 * p["m"] * p["k"],
        workloads=[wl(m=1024, k=1024), wl(m=128, k=640, domains=("anomaly-detection",))],
    ),
    OpPattern(
        id="gemv/batched-gemv", family="gemv", level="L1", domains=("linear-algebra", "language"),
        summary="y[b, m] = sum_k A[b, m, k] * x[b, k] (per-head decode attention, per-sample weights)",
        inputs=lambda p: [Tensor("A", (p["b"], p["m"], p["k"])), Tensor("x", (p["b"], p["k"]), init="uniform")],
        compute=_batched,
        reference=lambda p, A, x: np.einsum("bmk,bk->bm", A, x),
        vendor=lambda p, A, x: np.matmul(A, x[:, :, None])[:, :, 0],
        flops=lambda p: 2 * p["b"] * p["m"] * p["k"],
        workloads=[wl(b=12, m=256, k=64), wl(b=8, m=512, k=128)],
    ),
]
