"""Reply → kernel: the fenced code block a reply must hold, checked statically.

Nothing here runs what the model wrote: a layered-trace is validated as data, TVMScript only
for its shape (it is parsed in the sandboxed build step, like any bundle entry).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from evaluator.ir import layered_trace, tvmscript

MAX_KERNEL_CHARS = 200_000
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+.-]*)[^\n]*\n(.*?)(?:```|\Z)", re.S)


class NoKernel(ValueError):
    """The reply holds nothing to measure; the message says what was wrong."""


@dataclass(frozen=True)
class Kernel:
    format: str  # "layered-trace" | "tvmscript"
    source: str


def _blocks(text: str) -> list[tuple[str, str]]:
    return [(m.group(1).lower(), m.group(2).strip()) for m in _FENCE.finditer(text)]


def _json(src: str):
    try:
        return json.loads(src)
    except (json.JSONDecodeError, RecursionError):
        return None


def kernel(text: str) -> Kernel:
    """The kernel of a full reply (direct and agent modes)."""
    if not text.strip():
        raise NoKernel("the reply is empty")
    blocks = _blocks(text)
    if not blocks and text.strip().startswith("{"):
        blocks = [("json", text.strip())]
    if not blocks:
        raise NoKernel("no fenced code block (```json … ``` or ```python … ```) found")
    problems = []
    for lang, src in blocks:
        if len(src) > MAX_KERNEL_CHARS:
            problems.append(f"a code block has {len(src)} characters; the limit is {MAX_KERNEL_CHARS}")
            continue
        doc = _json(src) if lang in ("json", "") or src.startswith("{") else None
        if isinstance(doc, dict):
            errors = layered_trace.check(src)
            if not errors:
                return Kernel("layered-trace", json.dumps(doc))
            problems.append("the JSON block is not a valid layered-trace document: " + "; ".join(errors[:8]))
            continue
        if "prim_func" in src:
            errors = tvmscript.check(src)
            if not errors:
                return Kernel("tvmscript", src)
            problems.append("the TVMScript block is not usable: " + "; ".join(errors))
            continue
        problems.append(f"a ```{lang or '(no language)'} block is neither a layered-trace JSON "
                        "document nor a TVMScript PrimFunc")
    raise NoKernel(problems[0] if len(problems) == 1 else "; ".join(dict.fromkeys(problems)))


@dataclass(frozen=True)
class LayerEdit:
    layer: str
    steps: list[dict]
    advance: bool
    note: str = ""


def layer_edit(text: str, layer: str) -> LayerEdit:
    """One layer's steps (layered mode): ``{"layer", "steps", "advance"}`` or a bare list."""
    blocks = _blocks(text) or ([("json", text.strip())] if text.strip()[:1] in "[{" else [])
    if not blocks:
        raise NoKernel("no fenced ```json block found")
    problems = []
    for _lang, src in blocks:
        doc = _json(src)
        if doc is None:
            problems.append("the code block is not valid JSON")
            continue
        if isinstance(doc, list):
            doc = {"layer": layer, "steps": doc}
        if not isinstance(doc, dict) or not isinstance(doc.get("steps", []), list):
            problems.append('the JSON must be {"layer": …, "steps": [...], "advance": …} or a list of steps')
            continue
        if doc.get("layer", layer) != layer:
            problems.append(f"the reply edits the {doc.get('layer')!r} layer; the {layer!r} layer was asked for")
            continue
        steps = doc.get("steps", [])
        errors = [f"step {i}: {m}" for i, s in enumerate(steps, 1) for m in layered_trace._check_step(layer, s)]  # noqa: SLF001 - the trace's own checker
        if len(steps) > layered_trace.MAX_STEPS:
            errors.append(f"{len(steps)} steps; the limit is {layered_trace.MAX_STEPS}")
        if errors:
            problems.append("invalid steps: " + "; ".join(errors[:8]))
            continue
        note = doc.get("note", "")
        return LayerEdit(layer, steps, bool(doc.get("advance", False)), note if isinstance(note, str) else "")
    raise NoKernel("; ".join(dict.fromkeys(problems)))
