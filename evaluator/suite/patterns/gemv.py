"""Matrix-vector product y = A·x: batch-1 dense layers and LLM decode are bandwidth-bound GEMVs."""

from tvm import te

from evaluator.suite.base import OpPattern, Tensor, Workload


def _compute(p, A, x):
    k = te.reduce_axis((0, p["k"]), name="k")
    return te.compute((p["m"],), lambda i: te.sum(A[i, k] * x[k], axis=k), name="T_gemv")


PATTERN = OpPattern(
    id="gemv/gemv",
    family="gemv",
    level="L1",
    domains=("linear-algebra", "language"),
    summary="y[m] = sum_k A[m, k] * x[k]",
    inputs=lambda p: [Tensor("A", (p["m"], p["k"])), Tensor("x", (p["k"],), init="uniform")],
    compute=_compute,
    reference=lambda p, A, x: A @ x,
    vendor=lambda p, A, x: A @ x,
    flops=lambda p: 2 * p["m"] * p["k"],
    workloads=[
        Workload("m1024k1024", {"m": 1024, "k": 1024}),
        Workload("m3072k768", {"m": 3072, "k": 768}),
    ],
)
