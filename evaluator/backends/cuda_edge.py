"""``cuda-edge``: this machine's NVIDIA GPU held to a Jetson Orin-class share — an emulated edge GPU.

Each run step is a CUDA MPS client of a control daemon of its own: the daemon starts with the
step (inside its cgroup, as its user, before the sandbox: ``Sandbox.with_launch``) and is ended
with it. Its defaults are the share: ``set_default_active_thread_percentage`` (the SMs a client's
kernels may use: 12 % of an H100's or H200's 132 SMs gave 14, against an AGX Orin's 16) and
``set_default_device_pinned_mem_limit`` (the device memory a client may allocate). A client may
lower its percentage, never raise it (measured on an H100: an environment asking for 100 % still
got 14 SMs; 6 % got 8).

It stands in for a Jetson; it is not one. The SMs are Hopper's, and neither memory bandwidth nor
clocks are held (an H100's HBM3 moves about 16 times an AGX Orin's LPDDR5), so the board is
labelled emulated: correctness is real and ranked, times are shown and never ranked
(``evaluator.backends.emulation``). Code is built as for ``cuda`` (the same GPU's arch).

The share (docs/settings.md): ``EKB_EDGE_GPU_SM_PERCENT`` (default 12) and
``EKB_EDGE_GPU_MEMORY_MB`` (default 8192). Without the sandbox, or without MPS's control
program, the backend is unavailable with the reason rather than publishing an unshared GPU's
times under an edge label.
"""

from __future__ import annotations

import os
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path

from evaluator.backends.base import Backend, BackendInfo, BackendUnavailable
from evaluator.backends.cuda import CudaBuilder, CudaRunner, driver
from evaluator.backends.emulation import EDGE_GPU_MARK
from evaluator.sandbox import Sandbox, driver_library_dirs, probe
from evaluator.vocabulary import BackendKind

SM_PERCENT_ENV = "EKB_EDGE_GPU_SM_PERCENT"
MEMORY_ENV = "EKB_EDGE_GPU_MEMORY_MB"
DEFAULT_SM_PERCENT = 12
DEFAULT_MEMORY_MB = 8192
MPS_CONTROL = "nvidia-cuda-mps-control"
MPS_DIR = "mps"  # under the step's scratch: the daemon's pipes (pipe/) and logs (log/)


class ShareError(ValueError):
    """A share setting that cannot hold; the message names the bad value."""


def _whole(name: str, default: int, lo: int, hi: int | None = None) -> int:
    raw = os.environ.get(name, str(default)).strip()
    if not raw.isdigit() or int(raw) < lo or (hi is not None and int(raw) > hi):
        span = f"from {lo} to {hi}" if hi is not None else f"of at least {lo}"
        raise ShareError(f"{name}={raw!r}: expected a whole number {span}")
    return int(raw)


@dataclass(frozen=True)
class EdgeShare:
    """The share of the GPU a step gets: a percentage of its SMs and a device memory cap."""

    sm_percent: int
    memory_mb: int

    @classmethod
    def from_env(cls) -> "EdgeShare":
        return cls(_whole(SM_PERCENT_ENV, DEFAULT_SM_PERCENT, 1, 100), _whole(MEMORY_ENV, DEFAULT_MEMORY_MB, 16))

    def describe(self, sms: int) -> str:
        memory = f"{self.memory_mb >> 10:g} GiB" if self.memory_mb % 1024 == 0 else f"{self.memory_mb} MiB"
        return (f"{EDGE_GPU_MARK}: MPS active threads {self.sm_percent} % of {sms} SMs, "
                f"{memory} device memory cap (MPS)")

    def launch(self, mps_control: str, library_dirs: tuple[str, ...] = ()) -> tuple[str, ...]:
        """The shell lines that start a step's control daemon with this share, ``{scratch}``
        standing for the step's scratch directory (``Sandbox.with_launch`` fills it in).
        ``library_dirs``: where the driver's libraries are outside the loader's cache (the
        daemon's server loads libcuda; a step's launcher starts with PATH alone)."""
        pipe, log = f"{{scratch}}/{MPS_DIR}/pipe", f"{{scratch}}/{MPS_DIR}/log"
        ctl = shlex.quote(mps_control)
        env = f"CUDA_MPS_PIPE_DIRECTORY={pipe} CUDA_MPS_LOG_DIRECTORY={log}"
        if library_dirs:
            env += " LD_LIBRARY_PATH=" + shlex.quote(os.pathsep.join(library_dirs))
        return (f"mkdir -p {pipe} {log}",
                f"{env} {ctl} -d",
                f"echo set_default_active_thread_percentage {self.sm_percent} | {env} {ctl} >/dev/null",
                f"echo set_default_device_pinned_mem_limit 0 {self.memory_mb}M | {env} {ctl} >/dev/null")


class CudaEdgeBuilder(CudaBuilder):
    """As ``cuda``'s builder: the share changes what runs at once, not what the code is for."""

    name = BackendKind.CUDA_EDGE


class CudaEdgeRunner(CudaRunner):
    """As ``cuda``'s runner, each run step an MPS client of its own daemon holding the share."""

    name = BackendKind.CUDA_EDGE
    # a kept process's scratch is emptied between tasks, and its daemon's pipes live there
    keeps_processes = False

    def unavailable(self) -> str:
        why = super().unavailable()
        if why:
            return why
        try:
            EdgeShare.from_env()
        except ShareError as e:
            return str(e)
        return ""

    def unshared(self) -> str:
        """Why run steps could not be held to the share here ("" when they can)."""
        why = probe()
        if why:
            return f"the GPU share is applied with the sandbox, which is unavailable: {why}"
        if shutil.which(MPS_CONTROL) is None:
            return f"the GPU share is applied by CUDA MPS, and {MPS_CONTROL} is not on PATH"
        return ""

    def info(self) -> BackendInfo:
        base = super().info()
        why = base.reason or self.unavailable() or self.unshared()
        if why:
            return BackendInfo(self.name, False, why, "", base.arch, base.target, emulated=True)
        _, facts = driver()
        device = f"{base.device} — {EdgeShare.from_env().describe(facts['sms'])}"
        return BackendInfo(self.name, True, "", device, base.arch, base.target, emulated=True)

    def run_sandbox(self, sandbox: Sandbox | None) -> Sandbox:
        if sandbox is None:
            raise BackendUnavailable(f"backend {self.name!r} never runs unsandboxed: its share of the GPU "
                                     "is each step's own MPS daemon, started with the step's sandbox")
        why = self.unshared()
        if why:
            raise BackendUnavailable(f"backend {self.name!r} is unavailable: {why}")
        return sandbox.with_launch(EdgeShare.from_env().launch(shutil.which(MPS_CONTROL), driver_library_dirs()))

    def prepare_run(self, scratch, limit_s: float) -> dict[str, str]:
        # the client finds its step's daemon here (the scratch is bound at the same path)
        root = Path(scratch) / MPS_DIR
        return {"CUDA_MPS_PIPE_DIRECTORY": str(root / "pipe"), "CUDA_MPS_LOG_DIRECTORY": str(root / "log")}


class CudaEdge(CudaEdgeBuilder, CudaEdgeRunner, Backend):
    """This machine's GPU under the share, built for and run on here."""

    def __init__(self, arch: str | None = None, host: dict | None = None, limits: dict | None = None):
        CudaEdgeBuilder.__init__(self, arch, host, limits)
        CudaEdgeRunner.__init__(self)
