"""``cpu-llvm``: the host CPU through LLVM, parallelised by TVM's thread pool.

It also takes ``c-source`` entries: a C function compiled by the system C compiler into a shared
library (``c_source.py``) and called through ctypes on the harness's own buffers.

:class:`CpuLlvmBuilder` builds for this host's ISA level; :class:`CpuLlvmRunner` loads and runs on
this host's CPU; :class:`CpuLlvm` is the two.
"""

from __future__ import annotations

import os
import platform
from functools import cache

from evaluator.backends import c_source
from evaluator.backends.base import Backend, BackendInfo, DeviceRunner, Kernel, TargetBuilder
from evaluator.sandbox import Sandbox
from evaluator.vocabulary import BackendKind

# x86-64 micro-architecture levels (the psABI's): the highest level whose flags the host has.
_X86_LEVELS = [
    ("x86-64-v4", {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"}),
    ("x86-64-v3", {"avx2", "fma", "bmi1", "bmi2", "movbe", "f16c"}),
    ("x86-64-v2", {"sse4_2", "popcnt", "ssse3"}),
]


@cache
def _cpuinfo() -> tuple[str, set[str]]:
    model, flags = platform.processor() or platform.machine(), set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "model name" and model in ("", platform.machine(), platform.processor()):
                    model = value.strip()
                elif key in ("flags", "Features") and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    return model, flags


def cpu_model() -> str:
    """The CPU's model name, as the machine reports it."""
    return _cpuinfo()[0]


def host_target() -> dict:
    """The LLVM target for this host: an explicit ISA level, never ``-mcpu=native``."""
    machine = platform.machine()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if machine in ("x86_64", "AMD64"):
        _, flags = _cpuinfo()
        mcpu = next((lvl for lvl, need in _X86_LEVELS if need <= flags), "x86-64")
        return {"kind": "llvm", "mtriple": "x86_64-linux-gnu", "mcpu": mcpu, "num-cores": cores}
    if machine in ("aarch64", "arm64"):
        return {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["+neon"], "num-cores": cores}
    return {"kind": "llvm", "num-cores": cores}


@cache  # once per process: every step of every task on the same CPUs
def timing_cpus() -> tuple[int, ...]:
    """The CPUs ``cpu-llvm``'s run steps are pinned to: this process's but the first, which the
    evaluating process and the system keep (one CPU where there is only one). Measured on a 2-core
    VM: the same loop in two processes left to the scheduler read 0.61-1.35x of each other over 30
    runs (7 beyond 10 %); in two processes on the same CPU, 0.98-1.01x."""
    allowed = tuple(sorted(os.sched_getaffinity(0)))
    return allowed[1:] or allowed


class _CpuKernel(Kernel):
    def __init__(self, module, dev, graph: bool):
        self.dev, self.graph = dev, graph
        if graph:
            from tvm.runtime.vm import VirtualMachine  # heavy: TVM is imported on use, never with this module

            self.vm = VirtualMachine(module, dev)
            self.fn = self.vm["main"]
        else:
            self.module = module
            self.fn = module["main"]

    def __call__(self, inputs, outputs):
        if self.graph:
            out = self.fn(*inputs)
            return list(out) if isinstance(out, (list, tuple)) else [out]
        self.fn(*inputs, *outputs)
        return list(outputs)

    def timer(self, inputs, outputs, number):
        owner = self.vm if self.graph else self.module
        args = list(inputs) if self.graph else list(inputs) + list(outputs)
        evaluator = owner.time_evaluator("main", self.dev, number=number, repeat=1)
        return lambda: float(evaluator(*args).results[0])


class CpuLlvmBuilder(TargetBuilder):
    """Builds for this host's CPU (its ISA level, never ``-mcpu=native``): TVM's LLVM code, or a
    ``c-source`` entry with the system C compiler."""

    name = BackendKind.CPU_LLVM

    def target(self) -> dict:
        return host_target()

    def build(self, mod, path: str) -> None:
        import tvm  # heavy: TVM is imported on use, never with this module

        ex = tvm.compile(mod, target=tvm.target.Target(self.target()))
        ex.export_library(path)

    def build_source(self, fmt: str, source: str, launch: dict, tensors: list[dict], path: str) -> None:
        if fmt != "c-source":
            return super().build_source(fmt, source, launch, tensors, path)
        c_source.build(source, launch, tensors, path, c_source.march(self.target()))


class CpuLlvmRunner(DeviceRunner):
    """Loads and runs on this host's CPU: TVM's libraries in its thread pool, C kernels through
    ctypes, both on the arena's own memory."""

    name = BackendKind.CPU_LLVM
    host_memory = True
    max_slots = 1024  # zero-copy views of the arena: a slot costs nothing to set up

    def device_target(self) -> dict:
        return host_target()

    def info(self) -> BackendInfo:
        model, _ = _cpuinfo()
        target = self.device_target()
        arch = target.get("mcpu") or target.get("mtriple") or platform.machine()
        return BackendInfo(self.name, True, "", f"{model} ({target['num-cores']} cores)", arch,
                           target)

    def device(self):
        import tvm  # heavy: TVM is imported on use, never with this module

        return tvm.cpu(0)

    def run_cpus(self) -> tuple[int, ...]:
        """The CPUs every run step is pinned to: on a shared host one CPU runs slower than the
        other for seconds at a time, and two processes of the same kernel left to the scheduler
        read 0.6x or 1.6x of each other (see timing_cpus)."""
        return timing_cpus()

    def run_sandbox(self, sandbox: Sandbox | None) -> Sandbox | None:
        return None if sandbox is None else sandbox.pinned(sandbox.limits, self.run_cpus())

    def child_env(self) -> dict[str, str]:
        # the pools sized to the pinned CPUs (TVM halves a count it finds on x86, for hyper-threads,
        # and left to find it spends ~6 us on every parallel region), and never re-pinned by TVM
        # over every CPU of the machine: the pinned steps' filter kills sched_setaffinity
        cores = str(len(self.run_cpus()))
        return {"TVM_NUM_THREADS": cores, "OMP_NUM_THREADS": cores, "OPENBLAS_NUM_THREADS": cores,
                "TVM_BIND_THREADS": "0"}

    def load(self, path: str, graph: bool) -> Kernel:
        if c_source.is_artifact(path):
            if graph:
                raise ValueError("a c-source entry cannot stand for a model graph")
            return c_source.load(path)
        import tvm  # only for TVM's own libraries: a C kernel's process never loads TVM

        return _CpuKernel(tvm.runtime.load_module(path), self.device(), graph)


class CpuLlvm(CpuLlvmBuilder, CpuLlvmRunner, Backend):
    """The host CPU, built for and run on here."""
