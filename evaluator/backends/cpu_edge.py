"""``cpu-edge``: this host's CPU under an edge-class budget — a few cores pinned, memory capped.

It is a real constraint of a server CPU, not an edge device: the run steps are pinned to the
profile's CPUs and their cgroup's memory and CPU quota are the profile's, and the board says so
(``info().device``). Code is built as for ``cpu-llvm`` with the target's ``num-cores`` set to the
profile's cores, so TVM's thread pool and default schedules are made for that budget.

The profile (docs/settings.md): ``EKB_EDGE_CPU_CORES`` (default 1), ``EKB_EDGE_CPU_MEMORY_MB``
(default 1024) and ``EKB_EDGE_CPU_LIST`` (default: the last cores of this process's affinity, so
the evaluating process, usually on CPU 0, disturbs the steps least). The constraint is the
sandbox's: without it the backend is unavailable rather than publishing unconstrained numbers
under an edge label.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, replace

from evaluator.backends.base import Backend, BackendInfo, BackendUnavailable
from evaluator.backends.cpu_llvm import CpuLlvmBuilder, CpuLlvmRunner, cpu_model, host_target
from evaluator.sandbox import Sandbox, SandboxLimits, probe
from evaluator.vocabulary import BackendKind

CORES_ENV = "EKB_EDGE_CPU_CORES"
MEMORY_ENV = "EKB_EDGE_CPU_MEMORY_MB"
CPUS_ENV = "EKB_EDGE_CPU_LIST"
DEFAULT_CORES = 1
DEFAULT_MEMORY_MB = 1024


class ProfileError(ValueError):
    """A profile setting that cannot hold on this machine; the message names the bad value."""


def cpu_list(cpus: tuple[int, ...]) -> str:
    """``taskset``'s form of a CPU list: ``"1"``, ``"4,5,6"``."""
    return ",".join(str(c) for c in cpus)


def cpu_ranges(cpus: tuple[int, ...]) -> str:
    """The short form of a sorted CPU list: ``"1"``, ``"4-7"``, ``"0,2-3"``."""
    runs: list[list[int]] = []
    for c in cpus:
        if runs and c == runs[-1][1] + 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def parse_cpu_list(text: str) -> tuple[int, ...]:
    """``"1,3"`` or ``"4-7"`` (or both, as taskset takes them) → sorted CPU numbers."""
    out: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        lo, sep, hi = part.partition("-")
        if not lo.isdigit() or (sep and not hi.isdigit()):
            raise ProfileError(f"{CPUS_ENV}={text!r}: {part!r} is not a CPU number or range (e.g. '1,3' or '4-7')")
        out.update(range(int(lo), int(hi if sep else lo) + 1))
    return tuple(sorted(out))


def _positive(name: str, default: int) -> int:
    raw = os.environ.get(name, str(default))
    if not raw.strip().isdigit() or int(raw) < 1:
        raise ProfileError(f"{name}={raw!r}: expected a whole number of at least 1")
    return int(raw)


def _mib(n: int) -> str:
    return f"{n >> 30:g} GiB" if n % (1 << 30) == 0 else f"{n >> 20} MiB"


@dataclass(frozen=True)
class EdgeProfile:
    """The budget: how many cores, which CPUs they are, and the memory cap."""

    cores: int
    memory_bytes: int
    cpus: tuple[int, ...]

    @classmethod
    def from_env(cls) -> "EdgeProfile":
        """The deployment's profile, checked against this process's CPUs (:class:`ProfileError`)."""
        allowed = tuple(sorted(os.sched_getaffinity(0)))
        cores = _positive(CORES_ENV, DEFAULT_CORES)
        memory = _positive(MEMORY_ENV, DEFAULT_MEMORY_MB) << 20
        if cores > len(allowed):
            raise ProfileError(f"{CORES_ENV}={cores}: this process may run on only {len(allowed)} CPUs "
                               f"({cpu_list(allowed)})")
        raw = os.environ.get(CPUS_ENV, "").strip()
        if not raw:
            return cls(cores, memory, allowed[-cores:])
        cpus = parse_cpu_list(raw)
        outside = [c for c in cpus if c not in allowed]
        if outside:
            raise ProfileError(f"{CPUS_ENV}={raw!r}: CPU {cpu_list(tuple(outside))} is not among this "
                               f"machine's CPUs for this process ({cpu_list(allowed)})")
        if len(cpus) != cores:
            raise ProfileError(f"{CPUS_ENV}={raw!r} names {len(cpus)} CPUs; the profile has {CORES_ENV}={cores}")
        return cls(cores, memory, cpus)

    def limits(self, deployment: SandboxLimits) -> SandboxLimits:
        """A run step's limits: the deployment's, each no looser than the profile's."""
        return replace(deployment, memory_bytes=min(deployment.memory_bytes, self.memory_bytes),
                       cpu_cores=min(deployment.cpu_cores, float(self.cores)))

    def describe(self, memory_bytes: int) -> str:
        word = "core" if self.cores == 1 else "cores"
        return (f"edge profile: {self.cores} {word} (CPU {cpu_ranges(self.cpus)}) pinned, "
                f"{_mib(memory_bytes)} memory cap (cgroup)")


class CpuEdgeBuilder(CpuLlvmBuilder):
    """As ``cpu-llvm``'s builder, for the profile's core count (``num-cores``)."""

    name = BackendKind.CPU_EDGE

    def __init__(self, cores: int | None = None):
        # a build step (or a farm's builder) is handed the target: its cores are the profile's
        # where the profile is, not this process's environment
        self.cores = cores

    @classmethod
    def for_target(cls, target: dict | None) -> "CpuEdgeBuilder":
        cores = (target or {}).get("num-cores")
        return cls(cores if isinstance(cores, int) and cores > 0 else None)

    def target(self) -> dict:
        return {**host_target(), "num-cores": self.cores or EdgeProfile.from_env().cores}


class CpuEdgeRunner(CpuLlvmRunner):
    """As ``cpu-llvm``'s runner, its run steps pinned to the profile's CPUs under its memory cap."""

    name = BackendKind.CPU_EDGE

    def device_target(self) -> dict:
        return {**host_target(), "num-cores": EdgeProfile.from_env().cores}

    def unavailable(self) -> str:
        # the profile only: a run step (inside the sandbox) checks this too, where no sandbox is
        # to be had; whether the constraint can be applied is asked where steps start (info,
        # run_sandbox)
        try:
            EdgeProfile.from_env()
        except ProfileError as e:
            return str(e)
        return ""

    def unconstrained(self) -> str:
        """Why run steps could not be held to the profile here ("" when they can)."""
        why = probe()
        if why:
            return f"the edge profile is applied by the sandbox, which is unavailable: {why}"
        if shutil.which("taskset") is None:
            return "the edge profile pins steps with taskset (util-linux), which is not installed"
        return ""

    def info(self) -> BackendInfo:
        why = self.unavailable() or self.unconstrained()
        if why:
            return BackendInfo(self.name, False, why, "", "", host_target())
        profile = EdgeProfile.from_env()
        memory = profile.limits(SandboxLimits.from_env()).memory_bytes
        target = self.device_target()
        arch = target.get("mcpu") or target.get("mtriple") or ""
        return BackendInfo(self.name, True, "", f"{cpu_model()} — {profile.describe(memory)}", arch, target)

    def run_sandbox(self, sandbox: Sandbox | None) -> Sandbox:
        if sandbox is None:
            raise BackendUnavailable(f"backend {self.name!r} never runs unsandboxed: its profile (pinned CPUs, "
                                     "memory cap) is the sandbox's to apply")
        return sandbox.pinned(EdgeProfile.from_env().limits(sandbox.limits), self.run_cpus())

    def run_cpus(self) -> tuple[int, ...]:
        # the thread counts (cpu-llvm's child_env) follow: as many as the profile's cores
        return EdgeProfile.from_env().cpus


class CpuEdge(CpuEdgeBuilder, CpuEdgeRunner, Backend):
    """This host's CPU under the edge profile, built for and run on here."""
