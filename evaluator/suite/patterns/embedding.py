"""Embedding lookups and pooled bags: sparse-feature lookups pooled per sample are the
memory-bound core of DLRM-style recommenders; token embeddings start every language model.

Only the gathered rows of a table are read, so traffic counts indices, gathered rows and outputs.
"""

import numpy as np
from tvm import te

from evaluator.suite.base import OpPattern, Tensor, Workload
from evaluator.suite.declare import wl


def _compute(p, table, idx):
    j = te.reduce_axis((0, p["bag"]), name="j")
    return te.compute((p["batch"], p["dim"]),
                      lambda b, d: te.sum(table[idx[b, j], d], axis=j), name="T_embedding_bag")


def _bag_inputs(p, weighted=False):
    ts = [Tensor("table", (p["rows"], p["dim"])),
          Tensor("idx", (p["batch"], p["bag"]), dtype="int32", init="randint", low=0, high=p["rows"])]
    if weighted:
        ts.append(Tensor("weight", (p["batch"], p["bag"]), init="uniform"))
    return ts


def _bag_traffic(p):
    return 4 * (p["batch"] * p["bag"] * (1 + p["dim"]) + p["batch"] * p["dim"])


def _mean(p, table, idx):
    s = _compute(p, table, idx)
    return te.compute(s.shape, lambda b, d: s[b, d] / p["bag"], name="T_embedding_bag_mean")


def _max(p, table, idx):
    j = te.reduce_axis((0, p["bag"]), name="j")
    return te.compute((p["batch"], p["dim"]), lambda b, d: te.max(table[idx[b, j], d], axis=j),
                      name="T_embedding_bag_max")


def _weighted(p, table, idx, weight):
    j = te.reduce_axis((0, p["bag"]), name="j")
    return te.compute((p["batch"], p["dim"]), lambda b, d: te.sum(weight[b, j] * table[idx[b, j], d], axis=j),
                      name="T_embedding_bag_weighted")


def _bag(name, summary, compute, reference, workloads, weighted=False, ops=1):
    return OpPattern(
        id=f"embedding/{name}", family="embedding", level="L1", domains=("recommendation",), summary=summary,
        inputs=lambda p: _bag_inputs(p, weighted), compute=compute, reference=reference, vendor=reference,
        flops=lambda p: ops * p["batch"] * p["bag"] * p["dim"],
        traffic=lambda p: _bag_traffic(p) + (4 * p["batch"] * p["bag"] if weighted else 0),
        workloads=workloads)


PATTERNS = [
    OpPattern(
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
        traffic=_bag_traffic,
        workloads=[
            Workload("r10000d64b32l20", {"rows": 10000, "dim": 64, "batch": 32, "bag": 20}),
            Workload("r50000d16b128l8", {"rows": 50000, "dim": 16, "batch": 128, "bag": 8}),
        ],
    ),
    _bag("embedding-bag-mean", "Y[b, d] = mean_j table[idx[b, j], d]", _mean,
         lambda p, table, idx: table[idx].mean(axis=1),
         [wl(rows=10000, dim=64, batch=32, bag=20, tag="r10000d64b32l20"),
          wl(rows=30000, dim=32, batch=64, bag=50, tag="r30000d32b64l50")]),
    _bag("embedding-bag-max", "Y[b, d] = max_j table[idx[b, j], d]", _max,
         lambda p, table, idx: table[idx].max(axis=1),
         [wl(rows=10000, dim=64, batch=32, bag=20, tag="r10000d64b32l20")]),
    _bag("embedding-bag-weighted", "Y[b, d] = sum_j w[b, j] table[idx[b, j], d] (per-sample weights)",
         _weighted, lambda p, table, idx, w: (table[idx] * w[:, :, None]).sum(axis=1),
         [wl(rows=10000, dim=64, batch=32, bag=20, tag="r10000d64b32l20")], weighted=True, ops=2),
    OpPattern(
        id="embedding/embedding-lookup", family="embedding", level="L1", domains=("language",),
        summary="Y[t, d] = table[ids[t], d] (token embedding gather)",
        inputs=lambda p: [Tensor("table", (p["rows"], p["dim"])),
                          Tensor("ids", (p["tokens"],), dtype="int32", init="randint", low=0, high=p["rows"])],
        compute=lambda p, table, ids: te.compute((p["tokens"], p["dim"]), lambda t, d: table[ids[t], d],
                                                 name="T_embedding"),
        reference=lambda p, table, ids: table[ids],
        vendor=lambda p, table, ids: np.take(table, ids, axis=0),
        flops=lambda p: 0,
        traffic=lambda p: 4 * (p["tokens"] + 2 * p["tokens"] * p["dim"]),
        workloads=[wl(rows=30522, dim=128, tokens=128, tag="r30522d128t128"),
                   wl(rows=32000, dim=288, tokens=256, tag="r32000d288t256"),
                   wl(rows=1000, dim=64, tokens=512, tag="r1000d64t512", domains=("recommendation",)),
                   wl(rows=26000, dim=16, tokens=26, tag="r26000d16t26", domains=("recommendation",))],
    ),
]
