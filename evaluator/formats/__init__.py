"""Submission formats: the static check of an entry's file (safe to run in the server).

Turning an entry into IR (``evaluator.ir.lower``) happens in the build step's child process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from evaluator.ir import layered_trace, tvmscript


@dataclass(frozen=True)
class Format:
    name: str
    check: Callable[[str], list[str]]
    summary: str


FORMATS: dict[str, Format] = {
    f.name: f
    for f in [
        Format("layered-trace", layered_trace.check,
               "TensorIR schedule primitives grouped into compute/schedule/memory layers (JSON)"),
        Format("tvmscript", tvmscript.check, "a TensorIR PrimFunc in TVMScript"),
    ]
}
