"""Optimization traces: JSON Lines, one object per optimisation step.

Each non-blank line is a JSON object::

    {"step": 0, "layer": "schedule", "change": "tile i by 32", "ir": "...",
     "latency_ms": 1.25, "correct": true, "note": "...", "prompt": "...", "reply": "..."}

``step`` (integer ≥ 0, strictly increasing), ``layer`` (one of :data:`LAYERS`) and ``change``
are required; everything else is optional; no other keys are allowed. :func:`parse_trace`
collects every problem it can find and raises one :class:`TraceError` naming each line.
"""

from __future__ import annotations

import json
import math
from typing import Any

from evaluator.formats.strict_json import DuplicateKey, pairs_hook, reject_constant, type_name

__all__ = ["LAYERS", "MAX_LINES", "TraceError", "parse_trace"]

LAYERS = ("compute", "schedule", "memory", "other")
MAX_LINES = 500
MAX_ERRORS = 100

REQUIRED = ("step", "layer", "change")
# Optional string fields and their length limits (in characters).
_STR_LIMITS = {"change": 2000, "ir": 200_000, "note": 2000, "prompt": 100_000, "reply": 100_000}
ALLOWED_KEYS = frozenset({"step", "layer", "change", "ir", "latency_ms", "correct", "note", "prompt", "reply"})


class TraceError(ValueError):
    """An invalid trace. ``errors`` lists every problem found, each naming its line."""

    def __init__(self, errors: list[str]):
        self.errors = list(errors)
        super().__init__("\n".join(self.errors))

    def __str__(self) -> str:
        return "\n".join(self.errors)


def _fmt_bytes(n: int) -> str:
    mib = 1024 * 1024
    if n < mib:
        return f"{n} bytes"
    return f"{n // mib} MiB" if n % mib == 0 else f"{n / mib:.1f} MiB"


def _check_record(lineno: int, obj: Any, errors: list[str]) -> int | None:
    """Validate one record; return its step when that is valid, else None."""
    where = f"line {lineno}"
    if not isinstance(obj, dict):
        errors.append(f"{where}: each line must be a JSON object, got {type_name(obj)}")
        return None
    for key in obj:
        if key not in ALLOWED_KEYS:
            errors.append(f"{where}: unknown key {key!r} (allowed: {', '.join(sorted(ALLOWED_KEYS))})")
    for key in REQUIRED:
        if key not in obj:
            errors.append(f"{where}: missing {key!r}")

    step = None
    if "step" in obj:
        v = obj["step"]
        if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
            step = v
        else:
            errors.append(f"{where}: 'step' must be an integer ≥ 0")
    if "layer" in obj and obj["layer"] not in LAYERS:
        v = obj["layer"]
        got = repr(v) if isinstance(v, str) else type_name(v)
        errors.append(f"{where}: 'layer' must be one of {', '.join(map(repr, LAYERS))}; got {got}")
    for key, limit in _STR_LIMITS.items():
        if key not in obj:
            continue
        v = obj[key]
        if not isinstance(v, str):
            errors.append(f"{where}: {key!r} must be a string, got {type_name(v)}")
        elif len(v) > limit:
            errors.append(f"{where}: {key!r} is {len(v)} characters; the limit is {limit}")
    if "latency_ms" in obj:
        v = obj["latency_ms"]
        ok = v is None or (
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 0
        )
        if not ok:
            errors.append(f"{where}: 'latency_ms' must be a number ≥ 0 or null")
    if "correct" in obj and not (obj["correct"] is None or isinstance(obj["correct"], bool)):
        errors.append(f"{where}: 'correct' must be true, false or null")
    return step


def parse_trace(text: str, *, max_bytes: int) -> list[dict]:
    """Parse and validate a JSON Lines trace; return its records (blank lines skipped).

    Raises :class:`TraceError` listing every problem found.
    """
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise TraceError([f"trace is {_fmt_bytes(size)}; the limit is {_fmt_bytes(max_bytes)}"])

    # Split on "\n" only: str.splitlines() would also split inside JSON strings holding
    # raw U+2028 and similar characters.
    lines = [(i, line.rstrip("\r")) for i, line in enumerate(text.split("\n"), start=1)]
    lines = [(i, line) for i, line in lines if line.strip()]
    if len(lines) > MAX_LINES:
        raise TraceError([f"trace has {len(lines)} lines; the limit is {MAX_LINES}"])
    if not lines:
        raise TraceError(["trace has no steps (the file is empty)"])

    errors: list[str] = []
    records: list[dict] = []
    prev: tuple[int, int] | None = None  # (step, line) of the last valid step
    for lineno, line in lines:
        try:
            obj = json.loads(line, object_pairs_hook=pairs_hook, parse_constant=reject_constant)
        except json.JSONDecodeError as e:
            errors.append(f"line {lineno}: invalid JSON at column {e.colno}: {e.msg}")
            continue
        except DuplicateKey as e:
            errors.append(f"line {lineno}: duplicate key {e.args[0]!r}")
            continue
        except RecursionError:
            errors.append(f"line {lineno}: JSON nested too deeply")
            continue
        except ValueError as e:  # NaN / Infinity
            errors.append(f"line {lineno}: invalid JSON: {e}")
            continue
        step = _check_record(lineno, obj, errors)
        if step is not None:
            if prev is not None and step <= prev[0]:
                errors.append(
                    f"line {lineno}: 'step' {step} is not greater than the previous step "
                    f"{prev[0]} (line {prev[1]}); steps must be strictly increasing"
                )
            prev = (step, lineno)
        if isinstance(obj, dict):
            records.append(obj)

    if errors:
        if len(errors) > MAX_ERRORS:
            more = len(errors) - MAX_ERRORS
            errors = errors[:MAX_ERRORS] + [f"... and {more} more problems in this trace"]
        raise TraceError(errors)
    return records
