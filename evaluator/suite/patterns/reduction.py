"""Row reductions (sum, max over the last axis): the building blocks of pooling, norms and softmax."""

import numpy as np
from tvm import te

from evaluator.suite.base import OpPattern, Tensor, Workload

_WORKLOADS = [
    Workload("m512n1024", {"m": 512, "n": 1024}),
    Workload("m128n2048", {"m": 128, "n": 2048}, domains=("audio",)),
]


def _pattern(name, te_reducer, np_fn, summary, workloads):
    def compute(p, X):
        k = te.reduce_axis((0, p["n"]), name="k")
        return te.compute((p["m"],), lambda i: te_reducer(X[i, k], axis=k),
                          name="T_" + name.split("-")[0])

    return OpPattern(
        id=f"reduction/{name}",
        family="reduction",
        level="L1",
        domains=("signal-processing",),
        summary=summary,
        # Uniform inputs keep fp32 accumulation error far below the tolerance.
        inputs=lambda p: [Tensor("X", (p["m"], p["n"]), init="uniform")],
        compute=compute,
        reference=lambda p, X: np_fn(X, axis=-1),
        vendor=lambda p, X: np_fn(X, axis=-1),
        flops=lambda p: p["m"] * p["n"],
        workloads=workloads,
    )


PATTERNS = [
    _pattern("sum-lastaxis", te.sum, np.sum, "Y[m] = sum_n X[m, n]", _WORKLOADS),
    _pattern("max-lastaxis", te.max, np.max, "Y[m] = max_n X[m, n]", _WORKLOADS),
]
