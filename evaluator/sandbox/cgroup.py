"""A fresh cgroup per sandboxed step: memory, CPU quota and pid limits, and what was used.

The layout is detected, never assumed: cgroup v1 (memory, cpu, cpuacct, pids as separate
hierarchies: this project's CPU machines), or cgroup v2 (one unified tree) with whichever of the
``memory``, ``cpu`` and ``pids`` controllers are delegated to this process — at the root, or only
in this process's own cgroup (a container or a job slice, like the GPU machine, which delegates
``memory`` alone). Memory is required: it is the one limit nothing else can hold (an address-space
rlimit breaks CUDA, which maps far more than it uses). What is missing is left to the sandbox's
rlimits (:attr:`Layout.missing`); the worker's start-up line says which. Every cgroup lives under
``ekb/`` so a worker can sweep what a killed predecessor left behind.
"""

from __future__ import annotations

import errno
import os
import signal
import time
import uuid
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(os.environ.get("EKB_CGROUP_ROOT", "/sys/fs/cgroup"))
PREFIX = "ekb"
LIMITS = ("memory", "cpu", "pids")  # the controllers a step's limits use
V1_CONTROLLERS = ("memory", "cpu", "cpuacct", "pids")
LEAF = "ekb-evaluator"  # v2: where this cgroup's own processes move so its children may be limited


@dataclass(frozen=True)
class Layout:
    """Where this process makes cgroups and which limits they hold."""

    version: int
    base: Path  # v1: the hierarchies' root; v2: the cgroup whose ``ekb/`` children are ours
    controllers: frozenset[str]  # of LIMITS

    @property
    def missing(self) -> list[str]:
        return [c for c in LIMITS if c not in self.controllers]

    def describe(self) -> str:
        where = "" if self.base == ROOT else f" under {self.base.relative_to(ROOT)}"
        have = ", ".join(c for c in LIMITS if c in self.controllers)
        return f"cgroup v{self.version}{where} ({have})"


def detect() -> Layout | None:
    """The cgroup layout this process may use; None without a writable one that has memory."""
    if all((ROOT / c).is_dir() and os.access(ROOT / c, os.W_OK) for c in ("memory", "cpuacct")):
        have = frozenset(c for c in LIMITS if (ROOT / c).is_dir() and os.access(ROOT / c, os.W_OK))
        return Layout(1, ROOT, have)
    for base in _v2_candidates():
        controllers = base / "cgroup.controllers"
        if controllers.exists() and os.access(base, os.W_OK):
            have = frozenset(controllers.read_text().split()) & set(LIMITS)
            if "memory" in have:
                return Layout(2, base, have)
    return None


def _v2_candidates() -> list[Path]:
    """The unified root, then this process's own cgroup (where only it is delegated)."""
    out = [ROOT]
    line = _own_cgroup_line()
    if line.startswith("0::/"):
        own = ROOT / line[len("0::/"):].strip()
        if own.name == LEAF:  # moved there by prepare(): the delegated cgroup is its parent
            own = own.parent
        if own != ROOT:
            out.append(own)
    return out


def _own_cgroup_line() -> str:
    """This process's line of the unified hierarchy in /proc/self/cgroup ("" when none)."""
    try:
        return next((ln for ln in Path("/proc/self/cgroup").read_text().splitlines() if ln.startswith("0::")), "")
    except OSError:
        return ""


def version() -> int | None:
    found = detect()
    return found.version if found else None


@dataclass
class Usage:
    cpu_s: float
    peak_memory_bytes: int
    oom_killed: bool
    pids_limited: bool
    tasks: int = 0  # processes and threads in the cgroup when read, or when it was killed if more


@cache
def prepare() -> Layout:
    """Make ``ekb/`` ready for limited children, once per process. On v2 a cgroup can give its
    controllers to children only while it holds no processes of its own: where this process's
    own cgroup is the delegated one, its processes move into a leaf beside ``ekb/`` first."""
    found = detect()
    if found is None:
        raise OSError("no writable cgroup hierarchy with a memory controller")
    if found.version == 1:
        return found
    enable = " ".join(f"+{c}" for c in LIMITS if c in found.controllers)
    group = found.base / PREFIX
    try:
        (found.base / "cgroup.subtree_control").write_text(enable)
    except OSError as e:
        if e.errno != errno.EBUSY or found.base == ROOT:
            raise
        leaf = found.base / LEAF
        leaf.mkdir(exist_ok=True)
        for pid in (found.base / "cgroup.procs").read_text().split():
            try:
                (leaf / "cgroup.procs").write_text(pid)
            except OSError:  # gone meanwhile, or a kernel thread
                pass
        (found.base / "cgroup.subtree_control").write_text(enable)
    group.mkdir(exist_ok=True)
    (group / "cgroup.subtree_control").write_text(enable)
    return found


class Cgroup:
    def __init__(self, memory_bytes: int, cpu_cores: float, pids: int, use: frozenset[str] | None = None):
        """``use``: the controllers to set limits with (default: all the layout has)."""
        self.layout = prepare()
        self.version = self.layout.version
        self.tasks_at_kill = 0
        # named after the evaluating process, so a sweep only takes what a dead one left
        self.name = f"{PREFIX}/{os.getpid()}-{uuid.uuid4().hex[:12]}"
        self.dirs = ([ROOT / c / self.name for c in V1_CONTROLLERS if (ROOT / c).is_dir()] if self.version == 1
                     else [self.layout.base / self.name])
        for d in self.dirs:
            d.mkdir(parents=True, exist_ok=False)
        period = 100_000
        quota = int(cpu_cores * period)
        have = self.layout.controllers if use is None else self.layout.controllers & use
        if self.version == 1:
            self._write("memory", "memory.limit_in_bytes", memory_bytes)
            self._try_write("memory", "memory.memsw.limit_in_bytes", memory_bytes)  # no swap escape
            if "cpu" in have:
                self._write("cpu", "cpu.cfs_period_us", period)
                self._write("cpu", "cpu.cfs_quota_us", quota)
            if "pids" in have:
                self._write("pids", "pids.max", pids)
        else:
            self._write(None, "memory.max", memory_bytes)
            self._try_write(None, "memory.swap.max", 0)
            if "cpu" in have:
                self._write(None, "cpu.max", f"{quota} {period}")
            if "pids" in have:
                self._write(None, "pids.max", pids)

    # --- files ---------------------------------------------------------------------------------
    def _path(self, controller: str | None, name: str) -> Path:
        if self.version == 1:
            return ROOT / controller / self.name / name
        return self.layout.base / self.name / name

    def _write(self, controller, name, value) -> None:
        self._path(controller, name).write_text(str(value))

    def _try_write(self, controller, name, value) -> None:
        try:
            self._write(controller, name, value)
        except OSError:
            pass

    def _read(self, controller, name) -> str:
        try:
            return self._path(controller, name).read_text()
        except OSError:
            return ""

    # --- use ---------------------------------------------------------------------------------
    def procs_files(self) -> list[str]:
        """Files a starting process writes its pid into to join this cgroup."""
        return [str(d / "cgroup.procs") for d in self.dirs]

    def tasks(self) -> int:
        """Processes and threads in the cgroup now."""
        return len(self._read("memory" if self.version == 1 else None, "tasks" if self.version == 1 else
                              "cgroup.threads").split())

    def pids(self) -> list[int]:
        text = self._read("memory" if self.version == 1 else None, "cgroup.procs")
        return [int(p) for p in text.split()]

    def kill(self) -> None:
        """SIGKILL every process in the cgroup (a daemonised grandchild included)."""
        self.tasks_at_kill = max(self.tasks_at_kill, self.tasks())  # what ran, for the usage after
        if self.version == 2 and self._path(None, "cgroup.kill").exists():
            self._try_write(None, "cgroup.kill", 1)
        for _ in range(100):
            pids = self.pids()
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.01)

    def cpu_s(self) -> float:
        """CPU seconds used so far by every process of the cgroup (one file read: cheap enough to
        take around each timed sample)."""
        if self.version == 1:
            return int(self._read("cpuacct", "cpuacct.usage") or 0) / 1e9
        return _field(self._read(None, "cpu.stat"), "usage_usec") / 1e6

    def usage(self) -> Usage:
        if self.version == 1:
            cpu_ns = int(self._read("cpuacct", "cpuacct.usage") or 0)
            peak = int(self._read("memory", "memory.max_usage_in_bytes") or 0)
            oom = _field(self._read("memory", "memory.oom_control"), "oom_kill") > 0
            events = self._read("pids", "pids.events")
            pids_hit = int(events.split()[-1] if events else 0) > 0
            return Usage(cpu_ns / 1e9, peak, oom, pids_hit, max(self.tasks(), self.tasks_at_kill))
        cpu_us = _field(self._read(None, "cpu.stat"), "usage_usec")
        peak = int(self._read(None, "memory.peak") or 0)
        oom = _field(self._read(None, "memory.events"), "oom_kill") > 0
        pids_hit = _field(self._read(None, "pids.events"), "max") > 0
        return Usage(cpu_us / 1e6, peak, oom, pids_hit, max(self.tasks(), self.tasks_at_kill))

    def remove(self) -> None:
        self.kill()
        for d in self.dirs:
            for _ in range(50):
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)


def _field(text: str, key: str) -> int:
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == key:
            return int(parts[1])
    return 0


def owner_alive(name: str) -> bool:
    """Whether the process that made ``<pid>-…`` (a cgroup or scratch name) still runs."""
    pid = name.split("-", 1)[0].removeprefix("task")
    try:
        os.kill(int(pid), 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:
        return True
    return True


def sweep() -> int:
    """Kill and remove the ``ekb/*`` cgroups whose evaluating process is gone; returns how many."""
    found = detect()
    if found is None:
        return 0
    bases = [ROOT / c / PREFIX for c in V1_CONTROLLERS] if found.version == 1 else [found.base / PREFIX]
    removed = set()
    for base in bases:
        if not base.is_dir():
            continue
        for d in base.iterdir():
            if not d.is_dir() or owner_alive(d.name):
                continue
            try:
                for pid in (d / "cgroup.procs").read_text().split():
                    try:
                        os.kill(int(pid), signal.SIGKILL)
                    except ProcessLookupError:
                        pass
            except OSError:
                pass
            for _ in range(50):
                try:
                    d.rmdir()
                    removed.add(d.name)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)
    return len(removed)
