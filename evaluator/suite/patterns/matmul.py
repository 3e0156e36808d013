"""Dense matrix multiplication C = A·B: the core of every linear layer."""

from tvm import topi

from evaluator.suite.base import OpPattern, Tensor, Workload

PATTERN = OpPattern(
    id="matmul/matmul",
    family="matmul",
    level="L1",
    domains=("linear-algebra", "language"),
    summary="C[m, n] = sum_k A[m, k] * B[k, n]",
    inputs=lambda p: [Tensor("A", (p["m"], p["k"])), Tensor("B", (p["k"], p["n"]))],
    compute=lambda p, A, B: topi.matmul(A, B),
    reference=lambda p, A, B: A @ B,
    vendor=lambda p, A, B: A @ B,
    flops=lambda p: 2 * p["m"] * p["n"] * p["k"],
    workloads=[
        Workload("m256n256k256", {"m": 256, "n": 256, "k": 256}),
        Workload("m128n512k128", {"m": 128, "n": 512, "k": 128}),
    ],
)
