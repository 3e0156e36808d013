"""Index ops: gathers and scatters by index tensors, one-hot encoding, bucketisation, and the
sorting ops behind top-k decoding and non-maximum suppression.

Indices are int32. Scatter-update draws indices that never collide within a row (a collision
would make the result depend on write order); scatter-add may collide (the sum is defined).
Sorting ops run on normal inputs (ties have probability zero) and use TOPI's kernels.
"""

import numpy as np
from tvm import te, topi

from evaluator.suite.base import OpPattern, Tensor
from evaluator.suite.declare import wl


def _idx(name, shape, high, init="randint"):
    return Tensor(name, shape, "int32", init=init, low=0, high=high)


def _index_select(p, X, idx):
    return te.compute((p["m"], p["k"]), lambda i, j: X[i, idx[j]], name="T_index_select")


def _scatter(p, X, idx, U, reduction):
    return topi.scatter_elements(X, idx, U, 1, reduction)


def _scatter_ref(p, X, idx, U, add):
    y = X.copy()
    rows = np.arange(X.shape[0])[:, None].repeat(idx.shape[1], axis=1)
    if add:
        np.add.at(y, (rows, idx), U)
    else:
        y[rows, idx] = U
    return y


def _segment_sum(p, X, seg):
    zeros = te.compute((p["s"], p["d"]), lambda i, j: te.const(0.0, "float32"), name="T_zeros")
    rows = te.compute((p["n"], p["d"]), lambda i, j: seg[i], name="T_rows")
    return topi.scatter_elements(zeros, rows, X, 0, "add")


def _segment_ref(p, X, seg):
    y = np.zeros((p["s"], p["d"]))
    np.add.at(y, seg, X)
    return y


def _bucketize(p, x, b):
    j = te.reduce_axis((0, p["b"]), name="j")
    return te.compute((p["n"],), lambda i: te.sum((b[j] <= x[i]).astype("int32"), axis=j), name="T_bucketize")


def _boundaries(p):
    return Tensor("boundaries", (p["b"],), init="uniform")


def _bucketize_ref(p, x, b):
    return (b[None, :] <= x[:, None]).sum(axis=1)


def _pattern(name, summary, inputs, compute, reference, workloads, domains=(), flops=lambda p: 0, traffic=None,
             gpu_compute=None):
    return OpPattern(id=f"index/{name}", family="index", level="L1", domains=domains, summary=summary,
                     inputs=inputs, compute=compute, reference=reference, vendor=reference, flops=flops,
                     traffic=traffic, workloads=workloads, gpu_compute=gpu_compute)


PATTERNS = [
    _pattern("gather-elements", "Y[m, j] = X[m, idx[m, j]] (torch.gather / take_along_axis on axis 1)",
             lambda p: [Tensor("X", (p["m"], p["n"])), _idx("idx", (p["m"], p["k"]), p["n"])],
             lambda p, X, idx: topi.gather(X, 1, idx),
             lambda p, X, idx: np.take_along_axis(X, idx, axis=1),
             [wl(m=128, n=1000, k=5, domains=("vision",)), wl(m=256, n=512, k=64, domains=("language",))]),
    _pattern("gather-nd", "Y[t, :] = X[idx[0, t], idx[1, t], :] (gather of (batch, position) feature rows)",
             lambda p: [Tensor("X", (p["a"], p["b"], p["d"])),
                        Tensor("idx", (2, p["t"]), "int32", init="randint", low=0, high=min(p["a"], p["b"]))],
             lambda p, X, idx: topi.gather_nd(X, idx),
             lambda p, X, idx: X[idx[0], idx[1]],
             [wl(a=16, b=128, d=256, t=64, domains=("language",)), wl(a=8, b=8, d=512, t=32, domains=("vision",))]),
    _pattern("index-select-cols", "Y[m, j] = X[m, idx[j]] (select feature columns / channel pruning)",
             lambda p: [Tensor("X", (p["m"], p["n"])), _idx("idx", (p["k"],), p["n"])],
             _index_select, lambda p, X, idx: X[:, idx],
             [wl(m=256, n=1024, k=256, domains=("recommendation",)), wl(m=98, n=257, k=64, domains=("audio",))]),
    _pattern("scatter-add", "Y = X; Y[m, idx[m, j]] += U[m, j] (indices may repeat)",
             lambda p: [Tensor("X", (p["m"], p["n"])), _idx("idx", (p["m"], p["k"]), p["n"]),
                        Tensor("U", (p["m"], p["k"]))],
             lambda p, X, idx, U: _scatter(p, X, idx, U, "add"),
             lambda p, X, idx, U: _scatter_ref(p, X, idx, U, True),
             [wl(m=64, n=1024, k=256, domains=("recommendation",)),
              wl(m=32, n=4096, k=4096, domains=("linear-algebra",))],
             flops=lambda p: p["m"] * p["k"]),
    _pattern("scatter-update", "Y = X; Y[m, idx[m, j]] = U[m, j] (indices distinct within a row)",
             lambda p: [Tensor("X", (p["m"], p["n"])), _idx("idx", (p["m"], p["k"]), p["n"], "permutation"),
                        Tensor("U", (p["m"], p["k"]))],
             lambda p, X, idx, U: _scatter(p, X, idx, U, "update"),
             lambda p, X, idx, U: _scatter_ref(p, X, idx, U, False),
             [wl(m=64, n=1024, k=256, domains=("recommendation",)), wl(m=8, n=512, k=64, domains=("language",))]),
    _pattern("segment-sum", "Y[s, :] = sum of X[i, :] over rows i with seg[i] = s (graph/bag pooling)",
             lambda p: [Tensor("X", (p["n"], p["d"]), init="uniform"), _idx("seg", (p["n"],), p["s"])],
             _segment_sum, _segment_ref,
             [wl(n=2048, d=64, s=128, domains=("recommendation",)), wl(n=1000, d=32, s=50, domains=("language",))],
             flops=lambda p: p["n"] * p["d"]),
    _pattern("one-hot", "Y[i, c] = 1.0 if idx[i] == c else 0.0",
             lambda p: [_idx("idx", (p["n"],), p["c"])],
             lambda p, idx: topi.one_hot(idx, te.const(1.0, "float32"), te.const(0.0, "float32"), p["c"], -1,
                                         "float32"),
             lambda p, idx: np.eye(p["c"])[idx],
             [wl(n=512, c=1000, domains=("vision",)), wl(n=128, c=32, domains=("language",))]),
    _pattern("bucketize", "Y[i] = #{j : b[j] <= x[i]} for sorted boundaries b (searchsorted right; int32)",
             lambda p: [Tensor("x", (p["n"],), init="uniform"), _boundaries(p)],
             _bucketize, _bucketize_ref,
             [wl(n=4096, b=64, domains=("recommendation",)), wl(n=16000, b=16, domains=("signal-processing",))],
             flops=lambda p: p["n"] * p["b"]),
    _pattern("sort", "Y[m, :] = X[m, :] sorted ascending", lambda p: [Tensor("X", (p["m"], p["n"]))],
             lambda p, X: topi.sort(X, axis=-1), lambda p, X: np.sort(X, axis=-1),
             [wl(m=64, n=1024, domains=("signal-processing",)), wl(m=8, n=100, domains=("vision",))],
             flops=lambda p: p["m"] * p["n"] * max(1, int(np.log2(p["n"]))),
             gpu_compute=lambda p, X: topi.gpu.sort(X, axis=-1)),
    _pattern("argsort", "Y[m, :] = indices that sort X[m, :] ascending (int32)",
             lambda p: [Tensor("X", (p["m"], p["n"]), init="distinct")],
             lambda p, X: topi.argsort(X, axis=-1, is_ascend=True, dtype="int32"),
             lambda p, X: np.argsort(X, axis=-1),
             [wl(m=16, n=1000, domains=("vision",))],
             flops=lambda p: p["m"] * p["n"] * max(1, int(np.log2(p["n"]))),
             gpu_compute=lambda p, X: topi.gpu.argsort(X, axis=-1, is_ascend=True, dtype="int32")),
    _pattern("topk", "Y[m, :] = the k largest values of X[m, :], descending (top-k decoding)",
             lambda p: [Tensor("X", (p["m"], p["n"]))],
             lambda p, X: topi.topk(X, p["k"], axis=-1, ret_type="values", is_ascend=False),
             lambda p, X: -np.sort(-X, axis=-1)[:, :p["k"]],
             [wl(m=32, n=32000, k=40, domains=("language",)), wl(m=1, n=1000, k=5, domains=("vision",))],
             flops=lambda p: p["m"] * p["n"] * max(1, int(np.log2(p["n"]))),
             gpu_compute=lambda p, X: topi.gpu.topk(X, p["k"], axis=-1, ret_type="values", is_ascend=False)),
]
