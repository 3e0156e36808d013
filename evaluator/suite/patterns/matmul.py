"""Dense matrix products: C = A·B and its transposed, scaled, triangular, symmetric and
vector variants — the core of every linear layer, attention score and covariance.

float16 workloads accumulate in float32 and round the result once (as edge GPUs and NPUs do).
"""

import numpy as np
from tvm import te, topi

from evaluator.suite.base import OpPattern, Tensor, Workload
from evaluator.suite.declare import dtype_of, narrow, wl

ALPHA, BETA = 1.5, 0.5  # gemm scalars


def _f32(x):
    return x if str(x.dtype) == "float32" else x.astype("float32")


def _mm(p, A, B, ta=False, tb=False, name="T_matmul"):
    """C[i, j] = sum_k A[i, k] B[k, j], operands read transposed where asked; float32 accumulation."""
    k = te.reduce_axis((0, p["k"]), name="k")
    a = (lambda i: A[k, i]) if ta else (lambda i: A[i, k])
    b = (lambda j: B[j, k]) if tb else (lambda j: B[k, j])
    c = te.compute((p["m"], p["n"]), lambda i, j: te.sum(_f32(a(i)) * _f32(b(j)), axis=k), name=name)
    return narrow(c, dtype_of(p))


def _matmul(p, A, B):
    if dtype_of(p) == "float32":
        return topi.matmul(A, B)
    return _mm(p, A, B)


def _gemm(p, A, B, C):
    k = te.reduce_axis((0, p["k"]), name="k")
    ab = te.compute((p["m"], p["n"]), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="T_matmul")
    return te.compute(ab.shape, lambda i, j: ALPHA * ab[i, j] + BETA * C[i, j], name="T_gemm")


def _linear3d(p, X, W):
    k = te.reduce_axis((0, p["k"]), name="k")
    y = te.compute((p["b"], p["s"], p["n"]),
                   lambda b, s, j: te.sum(_f32(X[b, s, k]) * _f32(W[j, k]), axis=k), name="T_linear")
    return narrow(y, dtype_of(p))


def _dot(p, x, y):
    k = te.reduce_axis((0, p["n"]), name="k")
    return te.compute((1,), lambda _: te.sum(x[k] * y[k], axis=k), name="T_dot")


def _syrk(p, A):
    k = te.reduce_axis((0, p["k"]), name="k")
    return te.compute((p["n"], p["n"]), lambda i, j: te.sum(A[i, k] * A[j, k], axis=k), name="T_syrk")


def _gram(p, A):
    k = te.reduce_axis((0, p["m"]), name="k")
    return te.compute((p["n"], p["n"]), lambda i, j: te.sum(A[k, i] * A[k, j], axis=k), name="T_gram")


def _trmm(p, L, B):
    k = te.reduce_axis((0, p["m"]), name="k")
    return te.compute((p["m"], p["n"]), lambda i, j: te.sum(
        te.if_then_else(k <= i, L[i, k], 0.0) * B[k, j], axis=k), name="T_trmm")


def _bilinear(p, X1, W, X2):
    i = te.reduce_axis((0, p["i"]), name="i")
    t = te.compute((p["b"], p["j"]), lambda b, j: te.sum(X1[b, i] * W[i, j], axis=i), name="T_xw")
    j = te.reduce_axis((0, p["j"]), name="j")
    return te.compute((p["b"],), lambda b: te.sum(t[b, j] * X2[b, j], axis=j), name="T_bilinear")


def _f(x):
    return x.astype(np.float32) if x.dtype == np.float16 else x


def _vendor_mm(fn):
    """NumPy with float16 operands widened to float32 (NumPy has no fast float16 BLAS)."""
    def call(p, *xs):
        out = fn(*[_f(x) for x in xs])
        return out.astype(xs[0].dtype)
    return call


def _mnk(m, n, k, **kw):
    return wl(m=m, n=n, k=k, **kw)


_LA = ("linear-algebra",)

PATTERNS = [
    OpPattern(
        id="matmul/matmul",
        family="matmul",
        level="L1",
        domains=("linear-algebra", "language"),
        summary="C[m, n] = sum_k A[m, k] * B[k, n]",
        inputs=lambda p: [Tensor("A", (p["m"], p["k"]), dtype_of(p)), Tensor("B", (p["k"], p["n"]), dtype_of(p))],
        compute=_matmul,
        reference=lambda p, A, B: A @ B,
        vendor=_vendor_mm(lambda A, B: A @ B),
        flops=lambda p: 2 * p["m"] * p["n"] * p["k"],
        workloads=[
            Workload("m256n256k256", {"m": 256, "n": 256, "k": 256}),
            Workload("m128n512k128", {"m": 128, "n": 512, "k": 128}),
            _mnk(256, 256, 256, dtype="float16"),
            _mnk(128, 512, 128, dtype="float16"),
        ],
    ),
    OpPattern(
        id="matmul/matmul-nt", family="matmul", level="L1", domains=("linear-algebra",),
        summary="C[m, n] = sum_k A[m, k] * B[n, k] (dense / nn.Linear: weights stored row per output)",
        inputs=lambda p: [Tensor("A", (p["m"], p["k"]), dtype_of(p)), Tensor("B", (p["n"], p["k"]), dtype_of(p))],
        compute=lambda p, A, B: _mm(p, A, B, tb=True),
        reference=lambda p, A, B: A @ B.T,
        vendor=_vendor_mm(lambda A, B: A @ B.T),
        flops=lambda p: 2 * p["m"] * p["n"] * p["k"],
        workloads=[_mnk(128, 768, 768, domains=("language",)), _mnk(49, 1000, 1024, domains=("vision",)),
                   _mnk(1, 12, 48, domains=("audio",)),  # TC-ResNet8 classifier
                   _mnk(128, 768, 768, dtype="float16", domains=("language",)),
                   _mnk(128, 768, 768, dtype="bfloat16", domains=("language",)),
                   _mnk(49, 1000, 1024, dtype="float16", domains=("vision",)),
                   _mnk(1, 12, 48, dtype="float16", domains=("audio",))],
    ),
    OpPattern(
        id="matmul/matmul-tn", family="matmul", level="L1", domains=_LA,
        summary="C[m, n] = sum_k A[k, m] * B[k, n] (A stored transposed, e.g. weight gradients)",
        inputs=lambda p: [Tensor("A", (p["k"], p["m"])), Tensor("B", (p["k"], p["n"]))],
        compute=lambda p, A, B: _mm(p, A, B, ta=True),
        reference=lambda p, A, B: A.T @ B,
        vendor=_vendor_mm(lambda A, B: A.T @ B),
        flops=lambda p: 2 * p["m"] * p["n"] * p["k"],
        workloads=[_mnk(256, 256, 256), _mnk(64, 512, 128, domains=("recommendation",))],
    ),
    OpPattern(
        id="matmul/matmul-tt", family="matmul", level="L1", domains=_LA,
        summary="C[m, n] = sum_k A[k, m] * B[n, k] (both operands transposed)",
        inputs=lambda p: [Tensor("A", (p["k"], p["m"])), Tensor("B", (p["n"], p["k"]))],
        compute=lambda p, A, B: _mm(p, A, B, ta=True, tb=True),
        reference=lambda p, A, B: A.T @ B.T,
        vendor=_vendor_mm(lambda A, B: A.T @ B.T),
        flops=lambda p: 2 * p["m"] * p["n"] * p["k"],
        workloads=[_mnk(256, 256, 256)],
    ),
    OpPattern(
        id="matmul/gemm", family="matmul", level="L1", domains=_LA,
        summary=f"D = {ALPHA} A·B + {BETA} C (BLAS gemm with alpha, beta)",
        inputs=lambda p: [Tensor("A", (p["m"], p["k"])), Tensor("B", (p["k"], p["n"])),
                          Tensor("C", (p["m"], p["n"]))],
        compute=_gemm,
        reference=lambda p, A, B, C: ALPHA * (A @ B) + BETA * C,
        vendor=lambda p, A, B, C: ALPHA * (A @ B) + BETA * C,
        flops=lambda p: 2 * p["m"] * p["n"] * p["k"] + 3 * p["m"] * p["n"],
        workloads=[_mnk(256, 256, 256), _mnk(128, 64, 512, domains=("signal-processing",))],
    ),
    OpPattern(
        id="matmul/linear-3d", family="matmul", level="L1", domains=("language",),
        summary="Y[b, s, n] = sum_k X[b, s, k] W[n, k] (nn.Linear over a batch of sequences)",
        inputs=lambda p: [Tensor("X", (p["b"], p["s"], p["k"]), dtype_of(p)),
                          Tensor("W", (p["n"], p["k"]), dtype_of(p), init="uniform")],
        compute=_linear3d,
        reference=lambda p, X, W: X @ W.T,
        vendor=_vendor_mm(lambda X, W: X @ W.T),
        flops=lambda p: 2 * p["b"] * p["s"] * p["n"] * p["k"],
        workloads=[wl(b=4, s=64, n=256, k=256), wl(b=1, s=197, n=192, k=192, domains=("vision",)),
                   wl(b=4, s=64, n=256, k=256, dtype="float16"),
                   wl(b=1, s=197, n=192, k=192, dtype="float16", domains=("vision",))],
    ),
    OpPattern(
        id="matmul/dot", family="matmul", level="L1", domains=_LA,
        summary="y = sum_i x[i] * z[i] (vector dot product, one output)",
        inputs=lambda p: [Tensor("x", (p["n"],), init="uniform"), Tensor("z", (p["n"],), init="uniform")],
        compute=_dot,
        reference=lambda p, x, y: np.dot(x, y).reshape(1),
        vendor=lambda p, x, y: np.dot(x, y).reshape(1),
        flops=lambda p: 2 * p["n"],
        workloads=[wl(n=4096), wl(n=65536, domains=("signal-processing",))],
    ),
    OpPattern(
        id="matmul/outer", family="matmul", level="L1", domains=_LA,
        summary="Y[m, n] = a[m] * b[n] (rank-1 product)",
        inputs=lambda p: [Tensor("a", (p["m"],)), Tensor("b", (p["n"],))],
        compute=lambda p, a, b: te.compute((p["m"], p["n"]), lambda i, j: a[i] * b[j], name="T_outer"),
        reference=lambda p, a, b: np.outer(a, b),
        vendor=lambda p, a, b: np.outer(a, b),
        flops=lambda p: p["m"] * p["n"],
        workloads=[wl(m=512, n=512), wl(m=64, n=1024, domains=("recommendation",))],
    ),
    OpPattern(
        id="matmul/syrk", family="matmul", level="L1", domains=_LA,
        summary="C[i, j] = sum_k A[i, k] A[j, k] (C = A A^T: kernels, similarity of rows)",
        inputs=lambda p: [Tensor("A", (p["n"], p["k"]), init="uniform")],
        compute=_syrk,
        reference=lambda p, A: A @ A.T,
        vendor=lambda p, A: A @ A.T,
        flops=lambda p: 2 * p["n"] * p["n"] * p["k"],
        # n128k512 and n64k196: the shapes of the retired matmul/gram (A^T A of a 512 x 128 and a
        # 196 x 64 matrix)
        workloads=[wl(n=256, k=128), wl(n=64, k=640, domains=("anomaly-detection",)), wl(n=128, k=512),
                   wl(n=64, k=196, domains=("vision",))],
    ),
    OpPattern(
        id="matmul/gram", family="matmul", level="L1", domains=_LA,
        summary="C[i, j] = sum_k A[k, i] A[k, j] (C = A^T A: covariance, style/Gram matrices)",
        inputs=lambda p: [Tensor("A", (p["m"], p["n"]), init="uniform")],
        compute=_gram,
        reference=lambda p, A: A.T @ A,
        vendor=lambda p, A: A.T @ A,
        flops=lambda p: 2 * p["n"] * p["n"] * p["m"],
        workloads=[wl(m=512, n=128), wl(m=196, n=64, domains=("vision",))],
    ),
    OpPattern(
        id="matmul/trmm-lower", family="matmul", level="L1", domains=_LA,
        summary="C = tril(L) · B (lower-triangular times dense; the upper part of L is ignored)",
        inputs=lambda p: [Tensor("L", (p["m"], p["m"]), init="uniform"), Tensor("B", (p["m"], p["n"]))],
        compute=_trmm,
        reference=lambda p, L, B: np.tril(L) @ B,
        vendor=lambda p, L, B: np.tril(L) @ B,
        flops=lambda p: p["m"] * (p["m"] + 1) * p["n"],
        workloads=[wl(m=256, n=256)],
    ),
    OpPattern(
        id="matmul/bilinear", family="matmul", level="L1", domains=("recommendation",),
        summary="y[b] = sum_{i, j} x1[b, i] W[i, j] x2[b, j] (bilinear scoring)",
        inputs=lambda p: [Tensor("X1", (p["b"], p["i"]), init="uniform"), Tensor("W", (p["i"], p["j"]), init="uniform"),
                          Tensor("X2", (p["b"], p["j"]), init="uniform")],
        compute=_bilinear,
        reference=lambda p, X1, W, X2: np.einsum("bi,ij,bj->b", X1, W, X2),
        vendor=lambda p, X1, W, X2: ((X1 @ W) * X2).sum(axis=1),
        flops=lambda p: 2 * p["b"] * p["i"] * p["j"] + 2 * p["b"] * p["j"],
        workloads=[wl(b=128, i=64, j=64), wl(b=32, i=256, j=128, domains=("language",))],
    ),
]
