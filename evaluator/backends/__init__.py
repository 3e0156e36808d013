"""Backend registry. A backend that is not present on this machine is reported unavailable
with its reason — never silently skipped. ``get_backend`` gives both halves (a machine with the
device); ``get_builder`` the build half alone (a compile farm's build worker)."""

from __future__ import annotations

from evaluator.backends import rpc
from evaluator.backends.base import Backend, BackendInfo, BackendUnavailable, Kernel, TargetBuilder
from evaluator.backends.cpu_edge import CpuEdge, CpuEdgeBuilder
from evaluator.backends.cpu_llvm import CpuLlvm, CpuLlvmBuilder
from evaluator.backends.cuda import Cuda, CudaBuilder
from evaluator.backends.cuda_edge import CudaEdge, CudaEdgeBuilder
from evaluator.backends.opencl import OpenCL, OpenCLBuilder
from evaluator.backends.rpc import KEY_RE as RPC_KEY_RE
from evaluator.backends.rpc import RpcBackend, RpcBuilder
from evaluator.vocabulary import BackendKind

__all__ = ["Backend", "BackendInfo", "BackendUnavailable", "Kernel", "BACKENDS", "BUILDERS", "get_backend",
           "get_builder", "infos", "name_problem"]

BACKENDS: dict[str, type[Backend]] = {BackendKind.CPU_LLVM: CpuLlvm, BackendKind.CPU_EDGE: CpuEdge,
                                      BackendKind.OPENCL: OpenCL, BackendKind.CUDA: Cuda,
                                      BackendKind.CUDA_EDGE: CudaEdge}
# each backend's build half alone (a base of its backend), for ``get_builder``
BUILDERS: dict[str, type[TargetBuilder]] = {BackendKind.CPU_LLVM: CpuLlvmBuilder, BackendKind.CPU_EDGE: CpuEdgeBuilder,
                                            BackendKind.OPENCL: OpenCLBuilder, BackendKind.CUDA: CudaBuilder,
                                            BackendKind.CUDA_EDGE: CudaEdgeBuilder}
# Known names that later backends will implement; listed so `backends` reports them honestly.
PLANNED: dict[str, str] = {}


def name_problem(name: str) -> str:
    """Why ``name`` is not a backend name ("" when it is one): a registered backend, or
    ``rpc:<key>`` for a remote board. Says nothing about whether it is available here."""
    if name in BACKENDS:
        return ""
    if name.startswith("rpc:") and RPC_KEY_RE.fullmatch(name.removeprefix("rpc:")):
        return ""
    return (f"unknown backend {name!r} (expected {', '.join(repr(b) for b in BACKENDS)} or 'rpc:<key>' with a "
            "key of 1-64 characters of A-Z a-z 0-9 . _ -)")


def get_backend(name: str) -> Backend:
    """Both halves of backend ``name``, whose device is here (a remote board's is reached from here)."""
    if name in BACKENDS:
        backend = BACKENDS[name]()
        why = backend.unavailable()
        if why:
            raise BackendUnavailable(f"backend {name!r} is unavailable: {why}")
        return backend
    if name.startswith("rpc:"):  # a remote board, by its key with the RPC tracker
        return RpcBackend(name.removeprefix("rpc:"))
    raise _not_a_backend(name)


def get_builder(name: str, target: dict | None = None) -> TargetBuilder:
    """A backend's build half alone (its target and compiler), on a machine that need not have
    its device: a compile farm's build worker. ``target``: the device's TVM target, when it is
    not here (cuda: ``{"arch": "sm_90", "host": {...}}``)."""
    if name in BUILDERS:
        return BUILDERS[name].for_target(target)
    if name.startswith("rpc:"):  # a remote board's target is configured here (EKB_RPC_TARGETS)
        return RpcBuilder(name.removeprefix("rpc:"))
    raise _not_a_backend(name)


def _not_a_backend(name: str) -> BackendUnavailable:
    if name in PLANNED:
        return BackendUnavailable(f"backend {name!r} is unavailable: {PLANNED[name]}")
    return BackendUnavailable(f"unknown backend {name!r}; known: {sorted(BACKENDS) + sorted(PLANNED)} "
                              "and rpc:<key> for a remote board")


def infos() -> list[BackendInfo]:
    out = [cls().info() for cls in BACKENDS.values()]
    out += [BackendInfo(name, False, why, "", "") for name, why in PLANNED.items()]
    out += rpc.infos()
    return out
