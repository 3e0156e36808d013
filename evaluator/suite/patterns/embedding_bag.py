"""Embedding-bag sum: sparse-feature lookups pooled per sample, the memory-bound core of DLRM."""

from tvm import te

from evaluator.suite.base import OpPattern, Tensor, Workload


def _compute(p, table, idx):
    j = te.reduce_axis((0, p["bag"]), name="j")
    return te.compute((p["batch"], p["dim"]),
                      lambda b, d: te.sum(table[idx[b, j], d], axis=j), name="T_embedding_bag")


PATTERN = OpPattern(
    id="embedding/embedding-bag-sum",
    family="embedding",
    level="L1",
    domains=("recommendation",),
    summary="Y[b, d] = sum_j table[idx[b, j], d]",
    inputs=lambda p: [Tensor("table", (p["rows"], p["dim"])),
                      Tensor("idx", (p["batch"], p["bag"]), dtype="int32", init="randint",
                             low=0, high=p["rows"])],
    compute=_compute,
    reference=lambda p, table, idx: table[idx].sum(axis=1),
    vendor=lambda p, table, idx: table[idx].sum(axis=1),
    flops=lambda p: p["batch"] * p["bag"] * p["dim"],
    # only the gathered rows are read: indices + batch*bag rows of the table + the output
    traffic=lambda p: 4 * (p["batch"] * p["bag"] * (1 + p["dim"]) + p["batch"] * p["dim"]),
    workloads=[
        Workload("r10000d64b32l20", {"rows": 10000, "dim": 64, "batch": 32, "bag": 20}),
        Workload("r50000d16b128l8", {"rows": 50000, "dim": 16, "batch": 128, "bag": 8}),
    ],
)
