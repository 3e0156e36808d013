"""Distances and similarities: pairwise squared-L2 and L1 distances (k-NN, k-means assignment,
nearest-prototype classifiers), row-wise and all-pairs cosine similarity (two-tower retrieval,
speaker and face verification) and the Mahalanobis distance of anomaly detectors.
"""

import numpy as np
from tvm import te

from evaluator.suite.base import OpPattern, Tensor
from evaluator.suite.declare import wl


def _sq_l2(p, X, Y):
    k = te.reduce_axis((0, p["d"]), name="k")
    return te.compute((p["m"], p["n"]), lambda i, j: te.sum((X[i, k] - Y[j, k]) * (X[i, k] - Y[j, k]), axis=k),
                      name="T_sq_l2")


def _l1(p, X, Y):
    k = te.reduce_axis((0, p["d"]), name="k")
    return te.compute((p["m"], p["n"]), lambda i, j: te.sum(te.abs(X[i, k] - Y[j, k]), axis=k), name="T_l1")


def _norms(X, rows, d, name):
    k = te.reduce_axis((0, d), name=name + "_k")
    sq = te.compute((rows,), lambda i: te.sum(X[i, k] * X[i, k], axis=k), name=name + "_sq")
    return te.compute((rows,), lambda i: te.sqrt(sq[i]), name=name)


def _cos_rows(p, X, Y):
    k = te.reduce_axis((0, p["d"]), name="k")
    dot = te.compute((p["m"],), lambda i: te.sum(X[i, k] * Y[i, k], axis=k), name="T_dot")
    nx, ny = _norms(X, p["m"], p["d"], "T_norm_x"), _norms(Y, p["m"], p["d"], "T_norm_y")
    return te.compute((p["m"],), lambda i: dot[i] / te.max(nx[i] * ny[i], 1e-8), name="T_cosine")


def _cos_matrix(p, X, Y):
    k = te.reduce_axis((0, p["d"]), name="k")
    dot = te.compute((p["m"], p["n"]), lambda i, j: te.sum(X[i, k] * Y[j, k], axis=k), name="T_dot")
    nx, ny = _norms(X, p["m"], p["d"], "T_norm_x"), _norms(Y, p["n"], p["d"], "T_norm_y")
    return te.compute((p["m"], p["n"]), lambda i, j: dot[i, j] / te.max(nx[i] * ny[j], 1e-8), name="T_cosine")


def _mahalanobis(p, X, mu, P):
    d = p["d"]
    k = te.reduce_axis((0, d), name="k")
    t = te.compute((p["m"], d), lambda b, i: te.sum((X[b, k] - mu[k]) * P[k, i], axis=k), name="T_whiten")
    j = te.reduce_axis((0, d), name="j")
    return te.compute((p["m"],), lambda b: te.sum(t[b, j] * (X[b, j] - mu[j]), axis=j), name="T_mahalanobis")


def _cos_rows_ref(p, X, Y):
    return (X * Y).sum(1) / np.maximum(np.linalg.norm(X, axis=1) * np.linalg.norm(Y, axis=1), 1e-8)


def _cos_matrix_ref(p, X, Y):
    return (X @ Y.T) / np.maximum(np.outer(np.linalg.norm(X, axis=1), np.linalg.norm(Y, axis=1)), 1e-8)


def _pattern(name, summary, inputs, compute, reference, flops, workloads, domains=()):
    return OpPattern(id=f"distance/{name}", family="distance", level="L1", domains=domains, summary=summary,
                     inputs=inputs, compute=compute, reference=reference, vendor=reference, flops=flops,
                     workloads=workloads)


def _xy(p):
    return [Tensor("X", (p["m"], p["d"]), init="uniform"), Tensor("Y", (p["n"], p["d"]), init="uniform")]


_AD, _REC = ("anomaly-detection",), ("recommendation",)

PATTERNS = [
    _pattern("pairwise-sq-l2", "D[i, j] = sum_k (X[i, k] - Y[j, k])^2 (k-NN, k-means assignment)", _xy, _sq_l2,
             lambda p, X, Y: ((X[:, None, :] - Y[None, :, :]) ** 2).sum(-1), lambda p: 3 * p["m"] * p["n"] * p["d"],
             [wl(m=256, n=512, d=64, domains=_AD), wl(m=64, n=1000, d=128, domains=("vision",))]),
    _pattern("pairwise-l1", "D[i, j] = sum_k |X[i, k] - Y[j, k]| (Manhattan distance)", _xy, _l1,
             lambda p, X, Y: np.abs(X[:, None, :] - Y[None, :, :]).sum(-1), lambda p: 3 * p["m"] * p["n"] * p["d"],
             [wl(m=128, n=256, d=40, domains=_AD)]),
    _pattern("cosine-similarity", "s[i] = X[i] . Y[i] / max(|X[i]| |Y[i]|, 1e-8) (row-wise: pair scoring)",
             lambda p: [Tensor("X", (p["m"], p["d"])), Tensor("Y", (p["m"], p["d"]))], _cos_rows, _cos_rows_ref,
             lambda p: 6 * p["m"] * p["d"], [wl(m=256, d=128, domains=_REC), wl(m=64, d=192, domains=("audio",))]),
    _pattern("cosine-similarity-matrix",
             "S[i, j] = X[i] . Y[j] / max(|X[i]| |Y[j]|, 1e-8) (retrieval against a catalogue)",
             _xy, _cos_matrix, _cos_matrix_ref, lambda p: 2 * p["m"] * p["n"] * p["d"],
             [wl(m=32, n=4096, d=64, domains=_REC), wl(m=16, n=512, d=512, domains=("vision",))]),
    _pattern("mahalanobis", "d[b] = (X[b] - mu)^T P (X[b] - mu) with precision matrix P (Gaussian anomaly score)",
             lambda p: [Tensor("X", (p["m"], p["d"])), Tensor("mu", (p["d"],)),
                        Tensor("P", (p["d"], p["d"]), init="uniform", scale=1.0 / p["d"] ** 0.5)],
             _mahalanobis, lambda p, X, mu, P: np.einsum("bi,ij,bj->b", X - mu, P, X - mu),
             lambda p: 2 * p["m"] * p["d"] * (p["d"] + 2),
             [wl(m=256, d=128, domains=_AD), wl(m=64, d=640, domains=_AD)]),
]
