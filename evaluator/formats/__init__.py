"""Submission formats, one :class:`Format` record each: its static check (safe to run in the
server), its launch schema, how it lowers, the backends that take it, and whether one entry may
stand for a whole pattern. Adding a format is one record here and its lowering (a TensorIR
format: a function in ``evaluator.ir.lower``; a raw source: ``Backend.build_source``).

Turning an entry into IR (:func:`lower`) happens in the build step's child process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from evaluator.formats import raw_source
from evaluator.ir import layered_trace, tvmscript
from evaluator.ir import lower as lowering
from evaluator.vocabulary import BackendKind

# Backend kinds (``rpc:<key>`` boards are all "rpc"); the backend registry names the backends.
EVERY_BACKEND = frozenset({*BackendKind, "rpc"})
# the backends that build C with the system compiler and call it on the host (c_source.py)
HOST_C = frozenset({BackendKind.CPU_LLVM, BackendKind.CPU_EDGE})


def backend_kind(backend: str) -> str:
    return "rpc" if backend.startswith("rpc:") else backend


@dataclass(frozen=True)
class Format:
    name: str
    check: Callable[[str], list[str]]
    summary: str
    backends: frozenset[str]  # the backend kinds that build it
    # TensorIR formats: (source, canonical module, default layers) → scheduled module. None: a
    # raw source (kernel code written directly), which the backend builds itself
    # (``Backend.build_source``) from the file and the manifest's "launch" object.
    lower: Callable[..., Any] | None = None
    check_launch: Callable[[Any], list[str]] | None = None
    # "" where one entry may stand for every shape of a pattern; else why it may not (yet)
    not_pattern_level: str = ""

    @property
    def raw(self) -> bool:
        return self.lower is None

    def takes(self, backend: str) -> bool:
        return backend_kind(backend) in self.backends

    @property
    def pattern_level(self) -> bool:
        return not self.not_pattern_level


FORMATS: dict[str, Format] = {
    f.name: f
    for f in [
        Format("layered-trace", layered_trace.check,
               "TensorIR schedule primitives grouped into compute/schedule/memory layers (JSON)",
               EVERY_BACKEND, lower=lowering.layered_trace_lowering),
        Format("tvmscript", tvmscript.check, "a TensorIR PrimFunc in TVMScript", EVERY_BACKEND,
               lower=lowering.tvmscript_lowering),
        Format("opencl-source", raw_source.check_text("OpenCL C"), "OpenCL C kernel source + launch sizes",
               frozenset({"opencl"}), check_launch=raw_source.check_launch_for("opencl-source")),
        Format("cuda-source", raw_source.check_text("CUDA C"), "CUDA C kernel source + grid/block",
               frozenset({BackendKind.CUDA, BackendKind.CUDA_EDGE}),
               check_launch=raw_source.check_launch_for("cuda-source")),
        Format("c-source", raw_source.check_text("C"), "a C function over dense row-major arrays",
               HOST_C, check_launch=raw_source.check_launch_for("c-source")),
    ]
}


def lower(fmt: str, source: str, canonical, default_layers: Callable | None = None):
    """A TensorIR-format entry's text applied to the canonical module: the scheduled module."""
    f = FORMATS.get(fmt)
    if f is None or f.lower is None:
        raise ValueError(f"{fmt!r} is not a TensorIR format (known: "
                         f"{', '.join(n for n, g in FORMATS.items() if not g.raw)})")
    return f.lower(source, canonical, default_layers)
