"""Measured peaks of a backend (compute FLOP/s and memory bytes/s), for roofline fractions.

Measured once per backend and device and cached: a large SGEMM through the vendor library for
compute, a large copy for bandwidth. Both are what the machine really sustains, not datasheet
numbers.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np


def cache_dir() -> Path:
    d = Path(os.environ.get("EKB_CACHE_DIR", Path.home() / ".cache" / "edgekernelbench"))
    d.mkdir(parents=True, exist_ok=True)
    return d


def _best(fn, repeats: int = 5) -> float:
    fn()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _best_cpu(fn, repeats: int) -> float:
    """The least CPU time (all threads of this process) one call took, per core."""
    fn()
    best = float("inf")
    for _ in range(repeats):
        c0 = time.process_time()
        fn()
        best = min(best, time.process_time() - c0)
    return best / max(1, len(os.sched_getaffinity(0)))


def measure_cpu() -> dict:
    n = 1024
    a, b = np.ones((n, n), np.float32), np.ones((n, n), np.float32)
    c = np.empty((n, n), np.float32)
    # Wall time reads low when another process shares the cores (and the roof then flags honest
    # kernels timed in a quiet moment); CPU time per core does not: the better of the two.
    wall = _best(lambda: np.matmul(a, b, out=c), repeats=10)
    per_core = _best_cpu(lambda: np.matmul(a, b, out=c), repeats=10)
    flops = 2 * n**3 / min(wall, per_core)
    # Tasks are timed warm (docs/measurement.md), so their data mostly sits in cache: the
    # bandwidth roof is the best of an in-cache and a DRAM-sized copy, not DRAM alone.
    bws = {}
    for label, n in (("dram", 32 << 20), ("cache", 256 << 10)):  # 128 MiB and 1 MiB
        src = np.ones(n, np.float32)
        dst = np.empty_like(src)
        bws[label] = 2 * src.nbytes / _best(lambda: np.copyto(dst, src), repeats=20)
    return {"flops_per_s": flops, "bytes_per_s": max(bws.values()), "dram_bytes_per_s": bws["dram"],
            "cache_bytes_per_s": bws["cache"],
            "method": "numpy sgemm 1024^3 (the least of wall and CPU-per-core time); copy 128 MiB (dram) and "
                      "1 MiB (cache), best of both",
            "measured_at": time.strftime("%Y-%m-%dT%H:%M:%S%z")}


def _path(backend_name: str, device: str) -> Path:
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in f"{backend_name}-{device}")
    return cache_dir() / f"peaks-{safe[:150]}.json"


def peaks(backend_name: str, device: str, measure=measure_cpu) -> dict:
    path = _path(backend_name, device)
    if path.exists():
        try:
            return json.loads(path.read_text())
        except ValueError:
            pass
    result = measure()
    if result is not None:  # None: the device cannot be measured from here (a remote board)
        path.write_text(json.dumps(result, indent=1))
    return result


ROOFS = ("flops_per_s", "bytes_per_s", "dram_bytes_per_s", "cache_bytes_per_s")


def remeasured(backend_name: str, device: str, known: dict | None, measure=measure_cpu) -> dict | None:
    """The peaks measured again now, each roof the higher of this and the ``known`` one (kept).

    A peak measured while the machine was busy (another evaluation, a build) reads low, and a
    kernel timed in a quiet moment then looks impossibly fast: before a result is called suspect
    for beating the roof, the roof is measured again."""
    fresh = measure()
    if fresh is None:
        return known
    merged = dict(fresh)
    for key in ROOFS:
        if known and key in known and known[key] > fresh.get(key, 0):
            merged[key] = known[key]
    _path(backend_name, device).write_text(json.dumps(merged, indent=1))
    return merged


def roofline_fraction(flops: int, nbytes: int, seconds: float, peak: dict) -> float | None:
    """Achieved performance over the roofline's attainable bound at this arithmetic intensity
    (None without a measured peak, e.g. on a remote board)."""
    if not seconds or seconds <= 0 or not peak:
        return None
    if flops > 0:
        attainable = min(peak["flops_per_s"], flops / max(nbytes, 1) * peak["bytes_per_s"])
        return (flops / seconds) / attainable
    return (nbytes / seconds) / peak["bytes_per_s"]
