"""The lower stage: a submission's text + the workload's canonical IR → a scheduled IRModule,
one function per TensorIR format (the format registry, ``evaluator.formats.FORMATS``, names it)."""

from __future__ import annotations

import json
from typing import Callable

from evaluator.ir import layered_trace, tvmscript
from evaluator.ir.layered_trace import Step


def layered_trace_lowering(source: str, canonical, default_layers: Callable | None = None):
    """A layered trace applied to the canonical module (missing layers from ``default_layers``)."""
    doc = json.loads(source)

    def defaults(sch, fname):
        layers = default_layers(sch, fname) if default_layers else {}
        return [Step(layer, i, s["op"], {k: v for k, v in s.items() if k != "op"})
                for layer in layered_trace.LAYERS for i, s in enumerate(layers.get(layer, []), 1)]

    try:
        return layered_trace.apply(canonical, doc, default_steps=defaults)
    except ValueError as e:
        if isinstance(e.args[0], list):
            raise ValueError("; ".join(e.args[0])) from None
        raise


def tvmscript_lowering(source: str, canonical, default_layers: Callable | None = None):
    """A TVMScript PrimFunc checked against the canonical module's signature (nothing is defaulted)."""
    return tvmscript.lower(source, canonical)
