"""Submission formats: the static check of an entry's file (safe to run in the server).

Turning an entry into IR (``evaluator.ir.lower``) happens in the build step's child process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from evaluator.formats import raw_source
from evaluator.ir import layered_trace, tvmscript


@dataclass(frozen=True)
class Format:
    name: str
    check: Callable[[str], list[str]]
    summary: str
    # Raw-source formats (kernel source written directly, not TensorIR) also need the manifest's
    # "launch" object — entry point, argument order, launch sizes — checked by this function.
    # They skip the lower stage: the backend builds them itself (Backend.build_source).
    check_launch: Callable[[Any], list[str]] | None = None

    @property
    def raw(self) -> bool:
        return self.check_launch is not None


FORMATS: dict[str, Format] = {
    f.name: f
    for f in [
        Format("layered-trace", layered_trace.check,
               "TensorIR schedule primitives grouped into compute/schedule/memory layers (JSON)"),
        Format("tvmscript", tvmscript.check, "a TensorIR PrimFunc in TVMScript"),
        Format("opencl-source", raw_source.check_text("OpenCL C"), "OpenCL C kernel source + launch sizes",
               raw_source.check_launch_for("opencl-source")),
        Format("cuda-source", raw_source.check_text("CUDA C"), "CUDA C kernel source + grid/block",
               raw_source.check_launch_for("cuda-source")),
        Format("c-source", raw_source.check_text("C"), "a C function over dense row-major arrays",
               raw_source.check_launch_for("c-source")),
    ]
}
