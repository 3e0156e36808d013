"""``layered-trace``: TensorIR schedule primitives grouped by layer, applied to the canonical IR.

A layered trace is pure data — no submitted code runs when it is applied. It names loops and
blocks symbolically (``get_loops`` binds names, ``split``/``fuse``/``cache_*`` bind new ones), so
a trace is readable and portable between backends: the compute layer is shared, the schedule
and memory layers are per backend.

Document (version 1)::

    {"format": "layered-trace", "version": 1,
     "layers": {"compute": [step, ...], "schedule": [...], "memory": [...]}}

For an L3 model graph, ``"functions": {"<fused PrimFunc name>": {"compute": [...], ...}}``
instead of ``"layers"``; functions not named get the backend's ``tvm-default`` rule set.

A step is ``{"op": <primitive>, ...arguments}``; see ``OPS`` for each primitive's arguments.
Layers are applied in order compute → schedule → memory, steps in order within a layer.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

LAYERS = ("compute", "schedule", "memory")
MAX_STEPS = 400
MAX_FACTOR = 1 << 16
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]{0,127}$")
THREADS = ("blockIdx.x", "blockIdx.y", "blockIdx.z", "threadIdx.x", "threadIdx.y", "threadIdx.z",
           "vthread.x", "vthread.y", "vthread.z")
SCOPES = ("global", "local", "shared", "shared.dyn", "warp")
ANNOTATIONS = ("pragma_auto_unroll_max_step", "pragma_unroll_explicit")

# Argument kinds: block = block reference; loop/loops = loop names; into = new name(s).
OPS: dict[str, dict[str, str]] = {
    # compute layer: what is computed where
    "compute_inline": {"block": "block"},
    "reverse_compute_inline": {"block": "block"},
    "rfactor": {"loop": "loop", "factor_axis": "int", "into": "name"},
    "decompose_reduction": {"block": "block", "loop": "loop", "into": "name"},
    # schedule layer: loop structure and parallelism
    "get_loops": {"block": "block", "into": "names"},
    "split": {"loop": "loop", "factors": "factors", "into": "names"},
    "reorder": {"loops": "loops"},
    "fuse": {"loops": "loops", "into": "name"},
    "parallel": {"loop": "loop"},
    "vectorize": {"loop": "loop"},
    "unroll": {"loop": "loop"},
    "bind": {"loop": "loop", "thread": "thread"},
    "annotate": {"loop": "loop", "key": "annotation", "value": "int"},
    # memory layer: where data lives
    "cache_read": {"block": "block", "buffer_index": "int", "scope": "scope", "into": "name"},
    "cache_write": {"block": "block", "buffer_index": "int", "scope": "scope", "into": "name"},
    "set_scope": {"block": "block", "buffer_index": "int", "scope": "scope"},
    "compute_at": {"block": "block", "loop": "loop"},
    "reverse_compute_at": {"block": "block", "loop": "loop"},
    "storage_align": {"block": "block", "buffer_index": "int", "axis": "int", "factor": "int",
                      "offset": "int"},
}
OPTIONAL = {"compute_at": {"preserve_unit_loops"}, "reverse_compute_at": {"preserve_unit_loops"}}

_STRUCTURAL = {"get_loops", "split", "fuse", "reorder"}
_ANNOTATE = {"parallel", "vectorize", "unroll", "bind", "annotate"}
LAYER_OPS = {
    "compute": {"compute_inline", "reverse_compute_inline", "rfactor", "decompose_reduction"}
    | _STRUCTURAL,
    "schedule": _STRUCTURAL | _ANNOTATE,
    # a memory decision (compute_at, cache_*) usually needs its own loop work afterwards
    "memory": {"cache_read", "cache_write", "set_scope", "compute_at", "reverse_compute_at",
               "storage_align", "decompose_reduction"} | _STRUCTURAL | _ANNOTATE,
}


class TraceApplyError(ValueError):
    """A step could not be applied; the message names the step."""


@dataclass(frozen=True)
class Step:
    layer: str
    index: int  # 1-based within the layer
    op: str
    args: dict[str, Any]

    @property
    def label(self) -> str:
        return f"{self.layer} step {self.index} ({self.op})"


def check(text: str) -> list[str]:
    """Static validation of a layered-trace document; returns error messages (empty = valid)."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        return [f"invalid JSON at line {e.lineno} column {e.colno}: {e.msg}"]
    try:
        parse(doc)
    except ValueError as e:
        return [str(x) for x in e.args[0]] if isinstance(e.args[0], list) else [str(e)]
    return []


def parse(doc: Any) -> dict[str | None, list[Step]]:
    """Validate a document; return steps per function (``None`` = the single ``main``)."""
    errors: list[str] = []
    if not isinstance(doc, dict):
        raise ValueError(["the document must be a JSON object"])
    extra = set(doc) - {"format", "version", "layers", "functions", "description"}
    if extra:
        errors.append(f"unknown top-level keys: {sorted(extra)}")
    if doc.get("format") != "layered-trace":
        errors.append('"format" must be "layered-trace"')
    if doc.get("version") != 1:
        errors.append('"version" must be 1')
    if ("layers" in doc) == ("functions" in doc):
        errors.append('give exactly one of "layers" (one PrimFunc) or "functions" (model graph)')
        raise ValueError(errors)
    if "layers" in doc:
        groups = {None: doc["layers"]}
    else:
        fns = doc["functions"]
        if not isinstance(fns, dict) or not fns:
            raise ValueError(errors + ['"functions" must be a non-empty object'])
        groups = dict(fns)
    out: dict[str | None, list[Step]] = {}
    total = 0
    for fname, layers in groups.items():
        where = "" if fname is None else f"function {fname!r}: "
        if fname is not None and not NAME.match(fname):
            errors.append(f"{where}not a valid function name")
        if not isinstance(layers, dict):
            errors.append(f"{where}layers must be an object with keys {list(LAYERS)}")
            continue
        unknown = set(layers) - set(LAYERS)
        if unknown:
            errors.append(f"{where}unknown layers {sorted(unknown)}; layers are {list(LAYERS)}")
        steps: list[Step] = []
        for layer in LAYERS:
            items = layers.get(layer, [])
            if not isinstance(items, list):
                errors.append(f"{where}layer {layer!r} must be a list of steps")
                continue
            for i, raw in enumerate(items, 1):
                label = f"{where}{layer} step {i}"
                step_errors = _check_step(layer, raw)
                errors += [f"{label}: {m}" for m in step_errors]
                if not step_errors:
                    steps.append(Step(layer, i, raw["op"], {k: v for k, v in raw.items() if k != "op"}))
        total += len(steps)
        out[fname] = steps
    if total > MAX_STEPS:
        errors.append(f"{total} steps; the limit is {MAX_STEPS}")
    if errors:
        raise ValueError(errors)
    return out


def _check_step(layer: str, raw: Any) -> list[str]:
    if not isinstance(raw, dict) or not isinstance(raw.get("op"), str):
        return ['a step must be an object with a string "op"']
    op = raw["op"]
    if op not in OPS:
        return [f"unknown primitive {op!r}; known: {sorted(OPS)}"]
    if op not in LAYER_OPS[layer]:
        home = [name for name in LAYERS if op in LAYER_OPS[name]]
        return [f"{op!r} does not belong to the {layer} layer (allowed in: {', '.join(home)})"]
    spec = OPS[op]
    allowed = set(spec) | OPTIONAL.get(op, set()) | {"op"}
    errors = []
    if set(raw) - allowed:
        errors.append(f"unknown arguments {sorted(set(raw) - allowed)} for {op!r}")
    for arg, kind in spec.items():
        if arg not in raw:
            errors.append(f"missing argument {arg!r} for {op!r}")
            continue
        msg = _check_arg(kind, raw[arg])
        if msg:
            errors.append(f"argument {arg!r}: {msg}")
    if "preserve_unit_loops" in raw and not isinstance(raw["preserve_unit_loops"], bool):
        errors.append("argument 'preserve_unit_loops': must be true or false")
    if op == "split" and not errors and len(raw["factors"]) != len(raw["into"]):
        errors.append("'factors' and 'into' must have the same length")
    return errors


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_arg(kind: str, v: Any) -> str | None:
    if kind in ("block", "loop", "name"):
        return None if isinstance(v, str) and NAME.match(v) else "must be a name ([A-Za-z_][A-Za-z0-9_.]*, ≤ 128 chars)"
    if kind in ("loops", "names"):
        if not isinstance(v, list) or not 1 <= len(v) <= 16:
            return "must be a list of 1–16 names"
        return None if all(isinstance(x, str) and NAME.match(x) for x in v) else "every item must be a name"
    if kind == "int":
        return None if _is_int(v) and -MAX_FACTOR <= v <= MAX_FACTOR else f"must be an integer in ±{MAX_FACTOR}"
    if kind == "factors":
        if not isinstance(v, list) or not 2 <= len(v) <= 8:
            return "must be a list of 2–8 factors"
        if sum(x is None for x in v) > 1:
            return "at most one factor may be null (inferred)"
        if not all(x is None or (_is_int(x) and 1 <= x <= MAX_FACTOR) for x in v):
            return f"factors must be integers in 1..{MAX_FACTOR} or null"
        return None
    if kind == "thread":
        return None if v in THREADS else f"must be one of {list(THREADS)}"
    if kind == "scope":
        return None if v in SCOPES else f"must be one of {list(SCOPES)}"
    if kind == "annotation":
        return None if v in ANNOTATIONS else f"must be one of {list(ANNOTATIONS)}"
    raise AssertionError(kind)


# --- applying -------------------------------------------------------------------------------

class _Names:
    """Symbol table: trace names → schedule random variables."""

    def __init__(self, sch):
        self.sch = sch
        self.loops: dict[str, Any] = {}
        self.blocks: dict[str, Any] = {}

    def block(self, name: str):
        if name not in self.blocks:
            self.blocks[name] = self.sch.get_sblock(name)
        return self.blocks[name]

    def loop(self, name: str):
        if name not in self.loops:
            raise TraceApplyError(f"loop {name!r} is not defined (bind it with get_loops, split or fuse first)")
        return self.loops[name]

    def bind_loops(self, names: list[str], rvs) -> None:
        rvs = list(rvs)
        if len(names) != len(rvs):
            raise TraceApplyError(f"names {names} given for {len(rvs)} loops")
        self.loops.update(zip(names, rvs))


def _apply_step(sch, names: _Names, step: Step) -> None:
    a, op = step.args, step.op
    if op == "get_loops":
        names.bind_loops(a["into"], sch.get_loops(names.block(a["block"])))
    elif op == "split":
        names.bind_loops(a["into"], sch.split(names.loop(a["loop"]), factors=a["factors"]))
    elif op == "fuse":
        names.loops[a["into"]] = sch.fuse(*[names.loop(n) for n in a["loops"]])
    elif op == "reorder":
        sch.reorder(*[names.loop(n) for n in a["loops"]])
    elif op in ("parallel", "vectorize", "unroll"):
        getattr(sch, op)(names.loop(a["loop"]))
    elif op == "bind":
        sch.bind(names.loop(a["loop"]), a["thread"])
    elif op == "annotate":
        sch.annotate(names.loop(a["loop"]), a["key"], a["value"])
    elif op in ("compute_inline", "reverse_compute_inline"):
        getattr(sch, op)(names.block(a["block"]))
    elif op == "rfactor":
        names.blocks[a["into"]] = sch.rfactor(names.loop(a["loop"]), a["factor_axis"])
    elif op == "decompose_reduction":
        names.blocks[a["into"]] = sch.decompose_reduction(names.block(a["block"]), names.loop(a["loop"]))
    elif op in ("cache_read", "cache_write"):
        names.blocks[a["into"]] = getattr(sch, op)(names.block(a["block"]), a["buffer_index"], a["scope"])
    elif op == "set_scope":
        sch.set_scope(names.block(a["block"]), a["buffer_index"], a["scope"])
    elif op in ("compute_at", "reverse_compute_at"):
        getattr(sch, op)(names.block(a["block"]), names.loop(a["loop"]),
                         preserve_unit_loops=a.get("preserve_unit_loops", False))
    elif op == "storage_align":
        sch.storage_align(names.block(a["block"]), a["buffer_index"], a["axis"], a["factor"], a["offset"])
    else:  # parse() rejects unknown primitives
        raise AssertionError(op)


def _tvm_message(e: Exception) -> str:
    lines = [ln.strip() for ln in str(e).strip().splitlines() if ln.strip()]
    # TVM errors carry a C++ backtrace; the useful sentence is the last "Error" line or the first.
    for ln in reversed(lines):
        if "Error" in ln or "error" in ln:
            return ln[:500]
    return (lines[0] if lines else type(e).__name__)[:500]


def apply_steps(sch, steps: list[Step], where: str = "") -> None:
    names = _Names(sch)
    for step in steps:
        try:
            _apply_step(sch, names, step)
        except TraceApplyError as e:
            raise TraceApplyError(f"{where}{step.label}: {e}") from None
        except Exception as e:  # noqa: BLE001 - TVM raises its own error types for invalid schedules
            raise TraceApplyError(f"{where}{step.label}: {_tvm_message(e)}") from None


def apply(mod, doc: Any, default_steps=None):
    """Apply a layered-trace document to the canonical module; returns the scheduled module.

    ``default_steps(sch, func_name) -> list[Step]`` schedules the functions of a model graph
    that the document does not name.
    """
    from tvm import s_tir  # heavy: TVM is imported on use, never with this module

    groups = parse(doc)
    sch = s_tir.Schedule(mod)
    if None in groups:
        if "main" not in [gv.name_hint for gv in mod.functions] or _is_graph(mod):
            raise TraceApplyError('this workload is a model graph: use "functions", not "layers"')
        sch.work_on("main")
        apply_steps(sch, groups[None])
        return sch.mod
    if not _is_graph(mod):
        raise TraceApplyError('this workload is a single PrimFunc: use "layers", not "functions"')
    prims = schedulable_functions(mod)
    unknown = sorted(set(groups) - set(prims))
    if unknown:
        raise TraceApplyError(f"functions {unknown} are not in the model; it has {prims}")
    for fname in prims:
        sch.work_on(fname)
        if fname in groups:
            apply_steps(sch, groups[fname], where=f"function {fname!r}: ")
        elif default_steps is not None:
            apply_steps(sch, default_steps(sch, fname), where=f"default rules, function {fname!r}: ")
    return sch.mod


def _is_graph(mod) -> bool:
    from tvm import relax  # heavy: TVM is imported on use, never with this module

    return any(isinstance(f, relax.Function) for f in mod.functions.values())


def schedulable_functions(mod) -> list[str]:
    from tvm import tirx  # heavy: TVM is imported on use, never with this module

    return sorted(gv.name_hint for gv, f in mod.functions.items() if isinstance(f, tirx.PrimFunc))


def document(steps_by_layer: dict[str, list[dict]] | None = None, functions: dict | None = None) -> dict:
    """Build a layered-trace document (used by the default rule set and the example bundles)."""
    if functions is not None:
        return {"format": "layered-trace", "version": 1, "functions": functions}
    return {"format": "layered-trace", "version": 1, "layers": steps_by_layer or {}}
