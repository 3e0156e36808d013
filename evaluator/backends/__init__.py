"""Backend registry. A backend that is not present on this machine is reported unavailable
with its reason — never silently skipped."""

from __future__ import annotations

from evaluator.backends.base import Backend, BackendInfo, BackendUnavailable, Kernel
from evaluator.backends.cpu_llvm import CpuLlvm

__all__ = ["Backend", "BackendInfo", "BackendUnavailable", "Kernel", "BACKENDS", "get_backend", "infos"]

BACKENDS: dict[str, type[Backend]] = {"cpu-llvm": CpuLlvm}
# Known names that later backends will implement; listed so `backends` reports them honestly.
PLANNED = {"opencl": "the opencl backend is not implemented yet",
           "cuda": "the cuda backend is not implemented yet"}


def get_backend(name: str) -> Backend:
    if name in BACKENDS:
        return BACKENDS[name]()
    if name in PLANNED or name.startswith("rpc:"):
        raise BackendUnavailable(f"backend {name!r} is unavailable: "
                                 + PLANNED.get(name, "remote devices are not implemented yet"))
    raise BackendUnavailable(f"unknown backend {name!r}; known: {sorted(BACKENDS) + sorted(PLANNED)}")


def infos() -> list[BackendInfo]:
    out = [cls().info() for cls in BACKENDS.values()]
    out += [BackendInfo(name, False, why, "", "") for name, why in PLANNED.items()]
    return out
