"""The lower stage: a submission's text + the workload's canonical IR → a scheduled IRModule."""

from __future__ import annotations

import json
from typing import Callable

from evaluator.ir import layered_trace, tvmscript
from evaluator.ir.layered_trace import Step


def lower(fmt: str, source: str, canonical, default_layers: Callable | None = None):
    if fmt == "layered-trace":
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
    if fmt == "tvmscript":
        return tvmscript.lower(source, canonical)
    raise ValueError(f"unknown format {fmt!r}")
