"""The backend interface: what the harness needs from a compile target and its device.

A backend has two halves, in the shape of TVM MetaSchedule's builder and runner: a
:class:`TargetBuilder` (``target``, ``build``, the tvm-default policy, the vendor call's spec)
runs where TVM's compiler is; a :class:`DeviceRunner` (``device``, ``load``, the vendor kernel,
peaks) runs where the kernel is measured — for ``rpc:<key>`` or a compile farm those are
different machines. Each concrete backend is the two composed (``class Cuda(CudaBuilder,
CudaRunner, Backend)``); a compile farm's build worker holds the builder alone
(``backends.get_builder``). The harness only ever talks to these interfaces, so adding
``opencl``, ``cuda`` or a remote board means adding one module here and registering it.
"""

from __future__ import annotations

import importlib
import sys
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Sequence

from evaluator.backends.peaks import measure_cpu
from evaluator.baselines.policy import BaselinePolicy, CpuRules
from evaluator.sandbox import DevicePaths, Sandbox


@dataclass(frozen=True)
class BackendInfo:
    name: str
    available: bool
    reason: str  # why unavailable, empty when available
    device: str  # human-readable device identity (CPU model, GPU name, board)
    arch: str  # ISA/arch the code is built for
    target: dict = field(default_factory=dict)  # the TVM target, as JSON
    # the device is emulated (qemu-user): results are real, times are the emulator's and never
    # ranked (evaluator.boards)
    emulated: bool = False
    # the device's live state when asked (an rpc board's queue), never part of its identity:
    # results are grouped by ``device``
    state: str = ""

    def to_json(self) -> dict:
        return asdict(self)


class BackendUnavailable(RuntimeError):
    pass


class Kernel(ABC):
    """A loaded, callable kernel on the measurement device (used inside the run step)."""

    @abstractmethod
    def __call__(self, inputs: Sequence[Any], outputs: Sequence[Any]) -> list[Any]:
        """Run once; returns the output tensors (``outputs`` when preallocated)."""

    def launch(self, inputs: Sequence[Any], outputs: Sequence[Any]) -> list[Any]:
        """Start one call; it may still run on the device when this returns (see ``sync``)."""
        return self(inputs, outputs)

    def sync(self) -> None:
        """Wait until every launched call has finished."""

    def timer(self, inputs: Sequence[Any], outputs: Sequence[Any], number: int) -> Callable[[], float]:
        """A function timing ``number`` back-to-back calls with the runtime's own clock, for the
        backend's own tools (peaks, tuning). The harness never uses it to score: the evaluating
        process times every sample itself (``harness.timing``). Kernels that no such tool times
        (the vendor calls) have none."""
        raise NotImplementedError(f"{type(self).__name__} has no timer of its own")


def pattern_module(pattern) -> str:
    """The pattern file that defines ``pattern`` (where its vendor call can be imported from)."""
    for name, module in list(sys.modules.items()):
        if name.startswith("evaluator.suite.patterns.") and (
                getattr(module, "PATTERN", None) is pattern or pattern in (getattr(module, "PATTERNS", None) or ())):
            return name
    raise LookupError(f"no pattern file defines {pattern.id}")


class _VendorCall(Kernel):
    """The pattern's NumPy call on the host: the ``vendor`` baseline of a host-memory backend."""

    host = True  # takes the arena's NumPy views whatever the backend
    def __init__(self, fn):
        self.fn = fn

    def __call__(self, inputs, outputs):
        self.fn(*inputs)
        return []


class TargetBuilder(ABC):
    """The target-and-builder half of a backend (MetaSchedule's builder): what code is built for,
    how it is built, how the tvm-default baseline is made, and which vendor call a workload has.
    It needs TVM's compiler, not the device: a compile farm's build worker holds this half only
    (``backends.get_builder``), and nothing on the build path asks the runner half."""

    name: str
    # how the tvm-default baseline is made (a GPU backend sets its own: baselines.policy.Dlight)
    baseline: BaselinePolicy = CpuRules()
    # Whether NumPy/OpenBLAS on the host CPU (the ``vendor`` baseline) is this backend's vendor
    # library; a backend without one sets False and its tasks have no vendor speedup.
    vendor_baseline: bool = True

    @classmethod
    def for_target(cls, target: dict | None) -> "TargetBuilder":
        """The backend's build half for ``target`` (the device's TVM target, JSON), on a machine
        that need not have the device: a compile farm's build worker. By default the target is
        this machine's own, whatever is asked; a backend whose device can be elsewhere (cuda)
        takes it from ``target``."""
        return cls()

    @abstractmethod
    def target(self) -> dict:
        """The TVM target (JSON form) code for this backend is built for."""

    @abstractmethod
    def build(self, mod, path: str) -> None:
        """Compile a scheduled IRModule and export the artifact to ``path``."""

    def build_source(self, fmt: str, source: str, launch: dict, tensors: list[dict], path: str) -> None:
        """Compile a raw-source entry (``opencl-source``, ``cuda-source``, ``c-source``) and write
        an artifact ``load`` accepts. ``tensors`` is the workload's signature: the inputs then the
        outputs, each ``{"name", "shape", "dtype", "role"}``; ``launch`` is the manifest's object."""
        raise ValueError(f"backend {self.name!r} does not take the {fmt!r} format")

    def registry_calls(self, w) -> bool:
        """Whether a kernel library for ``w`` may call TVM registry functions by name (its own
        default does: a CPU sort is ``tvm.contrib.sort``); see docs/kernel-policy.md."""
        from evaluator.harness import linkage  # elftools: the parent's check only, not a step's start-up

        # a workload known only by its tensors (a measurement machine's pack) has no module here
        canonical = getattr(w, "canonical_module", None)
        return bool(canonical and linkage.registry_calls(canonical()))

    def vendor_spec(self, w) -> dict | None:
        """What the run step needs to make the ``vendor`` call for workload ``w`` on this backend
        (None: no vendor baseline for it here). By default the pattern's NumPy call. A fact of the
        workload and the backend, not of the device: the build side decides it where the pattern
        files are, and a compile farm hands it to the measurement machine (``WorkloadSpec``)."""
        if not (w.has_vendor and self.vendor_baseline):
            return None
        return {"pattern": w.pattern.id, "params": w.params, "module": pattern_module(w.pattern)}

    def build_env(self) -> dict[str, str]:
        """Environment the build step needs (it starts with a cleared environment)."""
        return {}

    # --- the tvm-default baseline: the backend's policy (baselines/policy.py) ---------------
    def default_module(self, canonical, workload=None):
        """The canonical module scheduled the way TVM's default path does for this backend
        (``workload``: the workload it is of, for backends whose default path depends on more
        than the module, e.g. a GPU sort built from TOPI's GPU kernel)."""
        return self.baseline.module(canonical, self.target(), workload)

    def default_signature(self, canonical, workload=None):
        """JSON data that, with the workload, target and TVM version, determines ``default_module``
        (the key its cached build is stored under)."""
        return self.baseline.signature(canonical, workload)

    def default_layers(self, sch, func_name: str = "main") -> dict:
        """Default layered-trace steps for a model-graph function a submission does not schedule."""
        return self.baseline.layers(sch, func_name)


class DeviceRunner(ABC):
    """The device-and-runner half of a backend (MetaSchedule's runner): the device and whether it
    is here, loading artifacts in the run step, the vendor kernel, the device's peaks, and what
    the sandbox must let through to it. It never builds: what it needs of a target (its own
    device's) it says itself (``device_target``)."""

    name: str
    # the target keys that decide whether code built for one device runs on another
    TARGET_KEYS = ("kind", "arch", "mcpu", "mtriple", "mattr")
    # Whether kernels run on host memory, so the run step hands them the arena's bytes directly
    # (zero-copy); otherwise each slot has device tensors, filled and read back on command.
    host_memory: bool = False
    # Whether one step process must carry every kernel of a task (a remote board serves one
    # session at a time); otherwise the candidate and each baseline have a process of their own.
    one_session: bool = False
    # At most this many arena slots (fresh inputs per call of a batch): each slot of a device
    # backend is a set of device tensors to allocate, and on a remote board every allocation is
    # a round trip (1,024 slots took a model graph's loading past its limit)
    max_slots: int = 256
    # Whether a session may keep a step process for the next task (its scratch emptied between
    # them); not where something the step needs beside it lives in its scratch (cuda-edge's daemon)
    keeps_processes: bool = True

    @abstractmethod
    def info(self) -> BackendInfo: ...

    @abstractmethod
    def device_target(self) -> dict:
        """The TVM target (JSON form) of the device here: what ``info`` reports and what an
        artifact's target is compared with (``runs_target``). The runner's own, not the builder's:
        a backend built for a device elsewhere must not make this one look like it."""

    def unavailable(self) -> str:
        """Why this backend cannot run on this machine ("" when it can); ``get_backend`` then
        refuses it with that reason."""
        return ""

    def runs_target(self, built_for: dict) -> str:
        """Why an artifact built for ``built_for`` cannot run on this machine's device ("" when it
        can): a compile farm's artifacts are measured where the device is."""
        here = self.device_target()
        differ = [k for k in self.TARGET_KEYS if here.get(k) != built_for.get(k)]
        if not differ:
            return ""
        return ("built for " + ", ".join(f"{k}={built_for.get(k)!r}" for k in differ) + "; this device is "
                + ", ".join(f"{k}={here.get(k)!r}" for k in differ))

    @abstractmethod
    def device(self):
        """The TVM device kernels run on (run half)."""

    @abstractmethod
    def load(self, path: str, graph: bool) -> Kernel:
        """Load an artifact written by ``build`` (run half)."""

    def tensor(self, array):
        import tvm  # heavy: TVM is imported on use, never with this module

        return tvm.runtime.tensor(array, self.device())

    def wrap(self, view):
        """A host-memory backend's tensor over ``view``'s bytes (an arena slot), without a copy."""
        import tvm  # heavy: TVM is imported on use, never with this module

        if view.dtype.name == "bfloat16":  # DLPack from NumPy knows no bfloat16: its bits, retyped
            bits = tvm.runtime.from_dlpack(view.view("uint16"))
            return bits._create_view(view.shape, "bfloat16")  # noqa: SLF001 - TVM's only same-memory retype
        return tvm.runtime.from_dlpack(view)

    def vendor_kernel(self, spec: dict) -> Kernel:
        """The vendor library's call for the builder's ``vendor_spec``, as a kernel that
        takes this backend's input tensors (by default the pattern's NumPy call)."""
        # a step imports the suite only for a vendor call (and then this pattern's file alone)
        from evaluator.suite.base import Workload, WorkloadDef

        # by pattern and shape, not by workload id: held-out workloads are not in the sandbox;
        # only the pattern's own file is imported (importing all of them took seconds)
        if not str(spec.get("module", "")).startswith("evaluator.suite.patterns."):
            raise ValueError(f"vendor call: {spec.get('module')!r} is not a pattern file")
        module = importlib.import_module(spec["module"])
        items = getattr(module, "PATTERNS", None) or [getattr(module, "PATTERN", None)]
        pattern = next(p for p in items if p is not None and p.id == spec["pattern"])
        return _VendorCall(WorkloadDef(pattern, Workload("vendor", spec["params"])).vendor_call())

    def measure_peaks(self) -> dict:
        """The device's sustained FLOP/s and bytes/s (see ``peaks.py``), for roofline fractions."""
        return measure_cpu()

    def child_env(self) -> dict[str, str]:
        """Environment the run steps need (they start with a cleared environment)."""
        return {}

    def device_paths(self) -> DevicePaths:
        """What the device needs inside the sandbox (a GPU's nodes and driver libraries)."""
        return DevicePaths()

    def run_sandbox(self, sandbox: Sandbox | None) -> Sandbox | None:
        """The sandbox this device's run steps start in, given the deployment's (None:
        unsandboxed, trusted bundles only). That one by default; a device profile narrows it
        (``cpu_edge``: pinned CPUs, a lower memory cap) or refuses to run without one."""
        return sandbox

    def prepare_run(self, scratch, limit_s: float) -> dict[str, str]:
        """Called in the evaluating process right before a run step (which lasts at most
        ``limit_s``) starts; returns more environment for that step. A remote board's session
        is opened here (``rpc.py``)."""
        return {}


class Backend(TargetBuilder, DeviceRunner):
    """A backend: both halves, for one kind of device, on a machine that has it. A concrete one
    is its builder and its runner composed, with nothing of its own beyond the glue
    (``class CpuLlvm(CpuLlvmBuilder, CpuLlvmRunner, Backend)``). Adding ``opencl``, ``cuda`` or a
    remote board means adding one module here and registering it."""
