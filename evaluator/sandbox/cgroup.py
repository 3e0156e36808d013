"""A fresh cgroup per sandboxed step: memory, CPU quota and pid limits, and what was used.

cgroup v1 (this project's machines: memory, cpu, cpuacct, pids as separate hierarchies) or
cgroup v2 (one unified tree), detected at start-up. Every cgroup lives under ``ekb/`` so a worker
can sweep what a killed predecessor left behind.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(os.environ.get("EKB_CGROUP_ROOT", "/sys/fs/cgroup"))
PREFIX = "ekb"
V1_CONTROLLERS = ("memory", "cpu", "cpuacct", "pids")


def version() -> int | None:
    """1 or 2 when this process may create cgroups with the controllers we need, else None."""
    if all((ROOT / c).is_dir() and os.access(ROOT / c, os.W_OK) for c in V1_CONTROLLERS):
        return 1
    controllers = ROOT / "cgroup.controllers"
    if controllers.exists() and os.access(ROOT, os.W_OK):
        have = set(controllers.read_text().split())
        if {"memory", "cpu", "pids"} <= have:
            return 2
    return None


@dataclass
class Usage:
    cpu_s: float
    peak_memory_bytes: int
    oom_killed: bool
    pids_limited: bool


class Cgroup:
    def __init__(self, memory_bytes: int, cpu_cores: float, pids: int):
        self.version = version()
        if self.version is None:
            raise OSError("no writable cgroup hierarchy with memory, cpu and pids controllers")
        # named after the evaluating process, so a sweep only takes what a dead one left
        self.name = f"{PREFIX}/{os.getpid()}-{uuid.uuid4().hex[:12]}"
        self.dirs = ([ROOT / c / self.name for c in V1_CONTROLLERS] if self.version == 1
                     else [ROOT / self.name])
        for d in self.dirs:
            d.mkdir(parents=True, exist_ok=False)
        period = 100_000
        quota = int(cpu_cores * period)
        if self.version == 1:
            self._write("memory", "memory.limit_in_bytes", memory_bytes)
            self._try_write("memory", "memory.memsw.limit_in_bytes", memory_bytes)  # no swap escape
            self._write("cpu", "cpu.cfs_period_us", period)
            self._write("cpu", "cpu.cfs_quota_us", quota)
            self._write("pids", "pids.max", pids)
        else:
            self._enable_v2_controllers()
            self._write(None, "memory.max", memory_bytes)
            self._try_write(None, "memory.swap.max", 0)
            self._write(None, "cpu.max", f"{quota} {period}")
            self._write(None, "pids.max", pids)

    # --- files ---------------------------------------------------------------------------------
    def _path(self, controller: str | None, name: str) -> Path:
        if self.version == 1:
            return ROOT / controller / self.name / name
        return ROOT / self.name / name

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

    def _enable_v2_controllers(self) -> None:
        parent = ROOT / PREFIX
        for d in (ROOT, parent):
            try:
                (d / "cgroup.subtree_control").write_text("+memory +cpu +pids")
            except OSError:
                pass

    # --- use ---------------------------------------------------------------------------------
    def procs_files(self) -> list[str]:
        """Files a starting process writes its pid into to join this cgroup."""
        return [str(d / "cgroup.procs") for d in self.dirs]

    def pids(self) -> list[int]:
        text = self._read("pids" if self.version == 1 else None, "cgroup.procs")
        return [int(p) for p in text.split()]

    def kill(self) -> None:
        """SIGKILL every process in the cgroup (a daemonised grandchild included)."""
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
            pids_hit = int(self._read("pids", "pids.events").split()[-1] if self._read("pids", "pids.events") else 0) > 0
            return Usage(cpu_ns / 1e9, peak, oom, pids_hit)
        cpu_us = _field(self._read(None, "cpu.stat"), "usage_usec")
        peak = int(self._read(None, "memory.peak") or 0)
        oom = _field(self._read(None, "memory.events"), "oom_kill") > 0
        pids_hit = _field(self._read(None, "pids.events"), "max") > 0
        return Usage(cpu_us / 1e6, peak, oom, pids_hit)

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
    v = version()
    if v is None:
        return 0
    bases = [ROOT / c / PREFIX for c in V1_CONTROLLERS] if v == 1 else [ROOT / PREFIX]
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
