"""The backend interface: what the harness needs from a compile target and its device.

A backend has two halves. The *build* half (``target``, ``build``) runs where TVM's compiler is;
the *run* half (``device``, ``load``) runs where the kernel is measured — for ``rpc:<key>`` those
are different machines. The harness only ever talks to this interface, so adding ``opencl``,
``cuda`` or a remote board means adding one module here and registering it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Sequence


@dataclass(frozen=True)
class BackendInfo:
    name: str
    available: bool
    reason: str  # why unavailable, empty when available
    device: str  # human-readable device identity (CPU model, GPU name, board)
    arch: str  # ISA/arch the code is built for
    target: dict = field(default_factory=dict)  # the TVM target, as JSON
    queue: str = ""

    def to_json(self) -> dict:
        return asdict(self)


class BackendUnavailable(RuntimeError):
    pass


class Kernel(ABC):
    """A loaded, callable kernel on the measurement device (used inside the run step)."""

    @abstractmethod
    def __call__(self, inputs: Sequence[Any], outputs: Sequence[Any]) -> list[Any]:
        """Run once; returns the output tensors (``outputs`` when preallocated)."""

    @abstractmethod
    def timer(self, inputs: Sequence[Any], outputs: Sequence[Any], number: int) -> Callable[[], float]:
        """A function timing ``number`` back-to-back calls; returns seconds per call.
        The clock is the runtime's (host clock on CPU, device events on GPU)."""


class Backend(ABC):
    name: str

    @abstractmethod
    def info(self) -> BackendInfo: ...

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

    @abstractmethod
    def device(self):
        """The TVM device kernels run on (run half)."""

    @abstractmethod
    def load(self, path: str, graph: bool) -> Kernel:
        """Load an artifact written by ``build`` (run half)."""

    def tensor(self, array):
        import tvm

        return tvm.runtime.tensor(array, self.device())
