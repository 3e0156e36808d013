"""Broadcast binary ops: bias add and per-channel scaling, the glue between layers on the edge."""

from tvm import te

from evaluator.suite.base import OpPattern, Tensor, Workload

PATTERNS = [
    OpPattern(
        id="elementwise/add-bias",
        family="elementwise",
        level="L1",
        domains=("language",),
        summary="Y[m, n] = X[m, n] + b[n] (row-broadcast bias)",
        inputs=lambda p: [Tensor("X", (p["m"], p["n"])), Tensor("b", (p["n"],))],
        compute=lambda p, X, b: te.compute(X.shape, lambda i, j: X[i, j] + b[j], name="T_add"),
        reference=lambda p, X, b: X + b[None, :],
        vendor=lambda p, X, b: X + b,
        flops=lambda p: p["m"] * p["n"],
        workloads=[
            Workload("m128n768", {"m": 128, "n": 768}),
            Workload("m256n1024", {"m": 256, "n": 1024}, domains=("recommendation",)),
        ],
    ),
    OpPattern(
        id="elementwise/mul-channel",
        family="elementwise",
        level="L1",
        domains=("vision",),
        summary="Y[n, c, h, w] = X[n, c, h, w] * s[c] (per-channel scale, e.g. squeeze-excite)",
        inputs=lambda p: [Tensor("X", (p["n"], p["c"], p["h"], p["w"])), Tensor("s", (p["c"],))],
        compute=lambda p, X, s: te.compute(
            X.shape, lambda n, c, h, w: X[n, c, h, w] * s[c], name="T_multiply"),
        reference=lambda p, X, s: X * s[None, :, None, None],
        vendor=lambda p, X, s: X * s[:, None, None],
        flops=lambda p: p["n"] * p["c"] * p["h"] * p["w"],
        workloads=[
            Workload("n1c64h56w56", {"n": 1, "c": 64, "h": 56, "w": 56}),
            Workload("n1c256h14w14", {"n": 1, "c": 256, "h": 14, "w": 14}),
        ],
    ),
]
