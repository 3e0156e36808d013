"""Shorthands for pattern files: workload tags from parameters, and mixed-precision TE helpers.

A family module (``evaluator/suite/patterns/<family>.py``) builds its ``PATTERNS`` with these;
nothing here is needed to write a single ``PATTERN`` by hand.

Precision convention: a float16 workload stores its inputs and outputs in float16 and computes
in float32 (inputs are widened on load, the result is rounded once on store) — what edge GPU
and NPU kernels do with half-precision tensors, and what the reference models: it computes in
float64 and rounds to float16 once, so the float16 tolerance only has to absorb that rounding.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from evaluator.suite.base import Workload

_DTYPE_TAG = {"float16": "f16", "bfloat16": "bf16", "int8": "i8", "uint8": "u8", "int32": "i32"}


def tag_of(params: dict[str, Any]) -> str:
    """``{"m": 128, "n": 768, "dtype": "float16"}`` → ``m128n768-f16`` (keys in order)."""
    parts = []
    for key, value in params.items():
        if key == "dtype":
            continue
        if isinstance(value, bool):
            value = int(value)
        if isinstance(value, (tuple, list)):
            value = "x".join(_tag_number(v) for v in value)
        else:
            value = _tag_number(value)
        parts.append(f"{key}{value}")
    tag = "".join(parts)
    dtype = params.get("dtype", "float32")
    if dtype != "float32":
        tag += "-" + _DTYPE_TAG[dtype]
    return tag


def _tag_number(value: Any) -> str:
    """A tag's one separator is the '-' before a dtype suffix, so ``-100`` is written ``neg100``."""
    text = str(value)
    return "neg" + text[1:] if text.startswith("-") else text


def wl(*, domains: tuple[str, ...] = (), hidden: bool = False, tag: str | None = None, source: str = "",
       **params) -> Workload:
    """A workload whose tag is derived from its parameters (``tag=`` overrides); ``source`` names
    the benchmark the shape is taken from (it never changes the tag)."""
    return Workload(tag or tag_of(params), params, hidden=hidden, domains=tuple(domains), source=source)


def te_workload(config: str, index: int) -> str:
    """``source`` of a shape taken as given from TVM MetaSchedule's ``te_workload.CONFIGS``."""
    return f"TVM MetaSchedule te_workload {config}[{index}]"


def kernelbench(problem: str) -> str:
    """``source`` of an operator from KernelBench level 1 (its shapes scaled to the edge)."""
    return f"KernelBench level 1 {problem} (edge-sized shape)"


@dataclass(frozen=True)
class Layer:
    """One layer of a model graph (``GraphPattern.layers``): an L1/L2 pattern at parameters.

    The suite resolves it by (pattern, parameters) to a workload — a public one, or for a held-out
    graph a held-out one made from it — so a graph names shapes, never ids it cannot know.
    """

    pattern: str
    params: dict[str, Any]

    @property
    def id(self) -> str:
        """The id of a workload whose tag is derived from its parameters (:func:`wl`)."""
        return f"{self.pattern}@{tag_of(self.params)}"

    @property
    def key(self) -> tuple[str, str]:
        """What two layers (or a layer and a workload) are the same shape by."""
        return shape_key(self.pattern, self.params)

    def __hash__(self) -> int:  # params is a dict: hash by the shape instead
        return hash(self.key)


def shape_key(pattern: str, params: dict[str, Any]) -> tuple[str, str]:
    """(pattern, parameters) as a hashable key; a tuple and a list of the same values are one shape."""
    return pattern, json.dumps(params, sort_keys=True, default=str)


def dtype_of(p: dict) -> str:
    return p.get("dtype", "float32")


def widen(x):
    """TE: ``x`` as float32 (a cast block the default rules inline) — float16 inputs only."""
    from tvm import te  # heavy: TVM is imported on use, never with this module

    dtype = str(x.dtype)
    if dtype == "float32" or not dtype.startswith(("float", "bfloat")):
        return x
    return te.compute(x.shape, lambda *i: x(*i).astype("float32"), name=f"{x.op.name}_f32")


def narrow(y, dtype: str, name: str | None = None):
    """TE: the float32 result ``y`` stored as ``dtype`` (identity when it already is)."""
    from tvm import te  # heavy: TVM is imported on use, never with this module

    if str(y.dtype) == dtype:
        return y
    return te.compute(y.shape, lambda *i: y(*i).astype(dtype),
                      name=name or f"{y.op.name}_{_DTYPE_TAG.get(dtype, dtype)}")


def numel(shape) -> int:
    n = 1
    for d in shape:
        n *= int(d)
    return n
