"""The vendor call timed once per workload and machine, against TVM's default build.

Both kernels are ours (the tvm-default build and the vendor library's call), so the ratio of
their times does not depend on the submission. Timing the vendor call again in every task was
the largest part of a task's timed phase on cpu-llvm: NumPy's calls are the noisiest of the
kernels, and theirs was the interval that settled last on 13 of 20 sampled workloads (up to the
2 s budget). So it is timed once, with no submitted code's process alive, and a task's vendor
speedup is that ratio times the candidate's paired speedup over tvm-default::

    t_vendor / t_candidate = (t_vendor / t_default) * (t_default / t_candidate)

its interval the product of both intervals. Every submission on a machine is then held against
the same vendor figure, so a ranking against the vendor call no longer moves with each task's
own vendor rounds. The key holds all that decides the ratio: the backend and device, the
workload and the vendor call's spec, the tvm-default build's bytes, the versions of the vendor
libraries, the protocol and how the run steps start (their CPUs and environment). Held-out
workloads' ratios stay in this process's memory.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import tempfile
import time
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path

FORMAT = "ekb-vendor-ratio/1"


@dataclass(frozen=True)
class VendorRatio:
    """``t_vendor / t_default`` on this machine: the paired rounds' median and its reported
    interval (the rounds' widened by the placement uncertainty)."""

    median: float
    ci: tuple[float, float]
    rounds: int
    measured_at: str

    def speedup(self, over_default: float, ci: tuple[float, float] | list[float]) -> tuple[float, list[float]]:
        """The candidate's vendor speedup and interval from its speedup over tvm-default."""
        return self.median * over_default, [self.ci[0] * ci[0], self.ci[1] * ci[1]]

    def to_json(self) -> dict:
        return {"format": FORMAT, **asdict(self), "ci": list(self.ci)}

    @classmethod
    def from_json(cls, doc: dict) -> "VendorRatio":
        """Refuses anything but a finite, positive ratio inside its interval."""
        if doc.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} record")
        median, (lo, hi), rounds = float(doc["median"]), map(float, doc["ci"]), int(doc["rounds"])
        if not all(math.isfinite(x) and x > 0 for x in (median, lo, hi)) or not lo <= median <= hi or rounds < 1:
            raise ValueError("a vendor ratio must be finite, positive and inside its interval")
        return cls(median, (lo, hi), rounds, str(doc["measured_at"])[:40])


@functools.lru_cache(maxsize=1)
def vendor_versions() -> dict[str, str]:
    """The libraries a vendor call may run (NumPy's BLAS on a CPU, PyTorch or CuPy on a GPU)."""
    out = {}
    for dist in ("numpy", "torch", "cupy-cuda12x", "cupy-cuda13x"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            pass
    return out


# Protocol fields that cannot move this figure: the input seeds (the ratio times random inputs
# of the workload's shapes), and the tie budget, which ends a candidate's rounds only
# (``timing.settled``: a ratio against tvm-default needs its tight interval, nothing else).
NOT_DECIDING = ("seeds", "tie_budget_s")


def key(backend: str, device: str, workload: str, vendor_spec: dict, default_bytes: bytes, protocol: dict,
        run_steps: dict | None = None) -> str:
    """``protocol``: ``Protocol.to_json()``; the fields in ``NOT_DECIDING`` are left out.
    ``run_steps``: how the run steps start (the CPUs they are pinned to, their environment), which
    decide the vendor library's threads."""
    doc = {"backend": backend, "device": device, "workload": workload, "vendor": vendor_spec,
           "default": hashlib.sha256(default_bytes).hexdigest(), "versions": vendor_versions(),
           "protocol": {k: v for k, v in protocol.items() if k not in NOT_DECIDING},
           "run_steps": run_steps or {}}
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()


class VendorRatios:
    """Ratios by key: in memory, and one JSON file a key under ``directory`` (None: memory only)."""

    def __init__(self, directory: Path | None):
        self.directory = directory
        self._memory: dict[str, VendorRatio] = {}

    def get(self, k: str) -> VendorRatio | None:
        if k in self._memory:
            return self._memory[k]
        if self.directory is None:
            return None
        path = self.directory / f"{k}.json"
        try:
            with open(path, "rb", opener=lambda p, f: os.open(p, f | os.O_NOFOLLOW)) as fh:
                ratio = VendorRatio.from_json(json.loads(fh.read(1 << 16)))
        except (OSError, ValueError, KeyError, TypeError):
            return None  # absent or unreadable: measured again, and written over
        self._memory[k] = ratio
        return ratio

    def put(self, k: str, ratio: VendorRatio, persist: bool) -> None:
        self._memory[k] = ratio
        if not persist or self.directory is None:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
        with os.fdopen(fd, "w") as fh:
            json.dump(ratio.to_json(), fh)
        os.replace(tmp, self.directory / f"{k}.json")


def measured(ratio: dict, rounds: int) -> VendorRatio:
    """From ``timing.paired_ratios(samples, against="tvm-default")["vendor"]``."""
    return VendorRatio(ratio["median"], tuple(ratio["ci"]), rounds, time.strftime("%Y-%m-%dT%H:%M:%S%z"))
