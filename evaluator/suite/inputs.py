"""Seeded input generation: the same (workload, seed) always gives the same arrays."""

from __future__ import annotations

import hashlib

import numpy as np

from evaluator.suite.base import Tensor, WorkloadDef


def _rng(workload_id: str, seed: int, name: str) -> np.random.Generator:
    # Independent stream per tensor so adding an input never shifts the others.
    digest = hashlib.sha256(f"{workload_id}|{seed}|{name}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


def draw(t: Tensor, rng: np.random.Generator) -> np.ndarray:
    if t.init == "permutation":
        rows = int(np.prod(t.shape[:-1], dtype=np.int64))
        if t.shape[-1] > t.high:
            raise ValueError(f"{t.name}: {t.shape[-1]} distinct values asked of range({t.high})")
        perm = rng.permuted(np.tile(np.arange(t.high), (rows, 1)), axis=1)[:, :t.shape[-1]]
        return perm.reshape(t.shape).astype(t.dtype)
    if t.init == "randint" or np.issubdtype(np.dtype(t.dtype), np.integer):
        low, high = (t.low, t.high) if t.init == "randint" else (-8, 8)
        return rng.integers(low, high, size=t.shape).astype(t.dtype)
    if t.init == "distinct":
        return _distinct_rows((rng.standard_normal(t.shape) * t.scale).astype(t.dtype), t, rng)
    if t.init == "quantizable":
        return _quantizable_rows(t, rng)
    if t.init == "normal":
        a = rng.standard_normal(t.shape)
    elif t.init == "uniform":
        a = rng.uniform(-1.0, 1.0, t.shape)
    elif t.init == "positive":
        a = rng.uniform(0.5, 1.5, t.shape)
    else:
        raise ValueError(f"{t.name}: unknown init {t.init!r}")
    return (a * t.scale).astype(t.dtype)


def _distinct_rows(a: np.ndarray, t: Tensor, rng: np.random.Generator) -> np.ndarray:
    """``a`` with every repeated value of a row (last axis) drawn again until none repeats."""
    rows = a.reshape(-1, a.shape[-1] if a.ndim else 1)
    for _ in range(64):
        s = np.sort(rows, axis=1)
        tied = np.flatnonzero((s[:, 1:] == s[:, :-1]).any(axis=1))
        if not tied.size:
            return a
        for i in tied:
            _, first = np.unique(rows[i], return_index=True)
            again = np.setdiff1d(np.arange(rows.shape[1]), first)
            rows[i, again] = (rng.standard_normal(again.size) * t.scale).astype(t.dtype)
    raise ValueError(f"{t.name}: no {rows.shape[1]} distinct {t.dtype} values in a row after 64 draws")


def _quantizable_rows(t: Tensor, rng: np.random.Generator) -> np.ndarray:
    """Rows (last axis) of ``s * (k + u)``: ``s = 2**e`` per row, ``k`` in [-127, 127] with one
    element of each row at ``±127 s``, ``|u| <= 3/8`` (see :class:`Tensor`)."""
    last = t.shape[-1] if t.shape else 1
    rows = int(np.prod(t.shape, dtype=np.int64)) // max(last, 1)
    k = rng.integers(-126, 127, size=(rows, last)).astype(np.float64)
    u = rng.uniform(-0.375, 0.375, size=(rows, last))
    q = k + u
    at = rng.integers(0, last, size=rows)
    q[np.arange(rows), at] = rng.choice((-127.0, 127.0), size=rows)
    s = np.exp2(rng.integers(-7, -2, size=(rows, 1)).astype(np.float64))
    return (q * s).reshape(t.shape).astype(t.dtype)


def generate(w: WorkloadDef, seed: int) -> list[np.ndarray]:
    return [draw(t, _rng(w.id, seed, t.name)) for t in w.inputs]
