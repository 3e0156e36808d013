"""Held-out workloads, drawn from the deployment's secret: never listed, never in the repository.

Each pattern has a *shape space* (:class:`ShapeSpace`): which of its parameters may change, the
values they may take, their divisibility, and the constraints that keep a shape realistic. A
deployment draws its held-out workloads from that space deterministically with
HMAC(secret, pattern id), so two servers sharing a secret agree on them, a different secret
gives different shapes, and nothing but the secret needs keeping. A held-out workload's tag is
opaque (an HMAC of its parameters): its id names no shape, even where an id is logged.

The default space, derived from a pattern's public workloads, fits most patterns: a size-like
integer (≥ :data:`MIN_SIZE`; elements of a shape tuple too) is scaled by one of
:data:`FACTORS` and rounded to the divisibility of the public value (its power-of-two factor, at
most 16: channel counts stay multiples of 8 or 16, odd image sizes stay free); small integers
(kernel sizes, strides, paddings, batch 1, group counts) and everything else keep a public
workload's value. A pattern file narrows or widens this with ``shape_space=ShapeSpace(...)``.

A drawn shape is kept only if it is new (no public workload has it), its tensors and canonical
module build, and its cost stays within :data:`MAX_GROWTH` of the public workload it was drawn
from (and under absolute caps): the work a held-out shape causes is bounded like any other.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from evaluator.suite.base import Pattern, Workload, WorkloadDef

SECRET_ENV = "EKB_HELDOUT_SECRET"
SECRET_FILE_ENV = "EKB_HELDOUT_SECRET_FILE"

MIN_SIZE = 8  # integers below this are structural (kernel 3, stride 2, padding 1): kept
FACTORS = (0.5, 0.625, 0.75, 0.875, 1.25, 1.5, 1.75, 2.0)
MAX_MULTIPLE = 16
MAX_GROWTH = 4.0  # bytes and FLOPs at most this many times the public workload drawn from
MAX_BYTES = 256 << 20
MAX_FLOPS = 20e9
HELD_OUT_SHARE = 0.25  # per pattern: ceil(share × public workloads), at least one
ATTEMPTS = 48  # draws tried per held-out workload before the pattern is reported as unable


class HeldOutSecretMissing(RuntimeError):
    def __str__(self) -> str:
        return (f"held-out workloads are drawn from the deployment's secret: set {SECRET_ENV} "
                f"(or {SECRET_FILE_ENV}, a file holding it)")


class NoHeldOutShape(RuntimeError):
    """A pattern's shape space yields no valid new shape (a pattern-file bug, caught by tests)."""


@dataclass(frozen=True)
class ShapeSpace:
    """Where a pattern's held-out shapes come from.

    ``choices``: parameter → the values it may take (replaces the default rule for it).
    ``fixed``: parameters always kept at a public workload's value (beyond the small integers).
    ``multiple``: parameter → the divisibility its values keep (instead of the public value's).
    ``tied``: pairs drawn together where a public workload has them equal (square images stay
    square). ``valid``: extra constraint on a drawn parameter dict (e.g. heads divisible by groups).
    """

    choices: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    fixed: frozenset[str] = frozenset()
    multiple: Mapping[str, int] = field(default_factory=dict)
    tied: tuple[tuple[str, str], ...] = (("h", "w"), ("oh", "ow"))
    valid: Callable[[dict], bool] | None = None


DEFAULT_SPACE = ShapeSpace()
# Parameters that name a rate or a count set by the data, not a size: kept everywhere.
ALWAYS_FIXED = frozenset({"dtype", "sr"})
# Sizes that are powers of two by nature (transform lengths): halved, kept or doubled.
POWERS_OF_TWO = frozenset({"nfft"})


# --- the secret ----------------------------------------------------------------------------------
def configured_secret() -> str:
    """The held-out secret from the environment (``EKB_HELDOUT_SECRET``, or the file named by
    ``EKB_HELDOUT_SECRET_FILE``); :class:`HeldOutSecretMissing` when neither is set."""
    value = os.environ.get(SECRET_ENV, "").strip()
    if not value and os.environ.get(SECRET_FILE_ENV):
        try:
            value = Path(os.environ[SECRET_FILE_ENV]).read_text().strip()
        except OSError as e:
            raise RuntimeError(f"{SECRET_FILE_ENV}: cannot read the held-out secret: {e.strerror}") from None
    if not value:
        raise HeldOutSecretMissing()
    return value


def _digest(secret: str, *parts: Any) -> bytes:
    return hmac.new(secret.encode(), json.dumps(parts, sort_keys=True, default=str).encode(),
                    hashlib.sha256).digest()


def _pick(secret: str, options: Sequence, *where: Any):
    return options[int.from_bytes(_digest(secret, "pick", *where)[:8], "little") % len(options)]


# --- drawing -------------------------------------------------------------------------------------
def _multiple(v: int) -> int:
    if v < 2 * MIN_SIZE:
        return 1
    return min(MAX_MULTIPLE, v & -v)


def _scaled(v: int, factor: float, multiple: int) -> int:
    return max(multiple, int(round(v * factor / multiple)) * multiple)


def _draw_value(secret: str, pid: str, k: int, attempt: int, name: str, value: Any, space: ShapeSpace):
    where = (pid, k, attempt, name)
    if name in space.choices:
        return _pick(secret, list(space.choices[name]), *where)
    if name in space.fixed or name in ALWAYS_FIXED:
        return value
    if isinstance(value, bool) or not isinstance(value, (int, tuple)):
        return value
    if isinstance(value, tuple):
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in value):
            return value
        # equal extents of a shape (the H and W of an NCHW tensor) stay equal
        return tuple(_draw_int(secret, (*where, x), x, space.multiple.get(name)) for x in value)
    if name in POWERS_OF_TWO and value >= MIN_SIZE and value & (value - 1) == 0:
        return value * _pick(secret, (1, 2), *where) // _pick(secret, (1, 2), *where, "down")
    return _draw_int(secret, where, value, space.multiple.get(name))


def _draw_int(secret: str, where: tuple, v: int, multiple: int | None) -> int:
    if v < MIN_SIZE:
        return v
    return _scaled(v, _pick(secret, FACTORS, *where), multiple or _multiple(v))


def opaque_tag(secret: str, pid: str, params: dict) -> str:
    """A held-out workload's tag: names no shape (ids reach logs and staff pages)."""
    return "x" + _digest(secret, "tag", pid, params).hex()[:12]


def _acceptable(p: Pattern, w: WorkloadDef, base: WorkloadDef) -> bool:
    """The shape builds (tensors, canonical module, outputs) and costs what its base costs, about."""
    try:
        if any(d <= 0 for t in w.inputs for d in t.shape):
            return False
        w.canonical_module()
        if any(d <= 0 for t in w.outputs for d in t.shape):
            return False
        nbytes, flops = w.bytes, w.flops
    except Exception:  # noqa: BLE001 - any failure to build means the drawn shape is not one
        return False
    return (nbytes <= min(MAX_BYTES, max(MAX_GROWTH * base.bytes, 1 << 20))
            and flops <= min(MAX_FLOPS, max(MAX_GROWTH * base.flops, 1e6)))


def count_for(p: Pattern) -> int:
    return max(1, math.ceil(HELD_OUT_SHARE * len(p.workloads)))


def draw(p: Pattern, secret: str) -> list[Workload]:
    """The pattern's held-out workloads under ``secret`` (:func:`count_for` of them)."""
    space = p.shape_space or DEFAULT_SPACE
    public = [dict(s.params) for s in p.workloads]
    bases = [WorkloadDef(p, s) for s in p.workloads]
    out: list[Workload] = []
    taken: list[dict] = []
    for k in range(count_for(p)):
        for attempt in range(ATTEMPTS):
            base = _pick(secret, bases, p.id, k, attempt, "base")
            params = {name: _draw_value(secret, p.id, k, attempt, name, value, space)
                      for name, value in base.spec.params.items()}
            for a, b in space.tied:
                if a in params and b in params and base.spec.params[a] == base.spec.params[b]:
                    params[b] = params[a]
            if params in public or params in taken:
                continue
            if space.valid is not None and not space.valid(params):
                continue
            spec = Workload(opaque_tag(secret, p.id, params), params, hidden=True, domains=base.spec.domains)
            if _acceptable(p, WorkloadDef(p, spec), base):
                out.append(spec)
                taken.append(params)
                break
        else:
            raise NoHeldOutShape(f"{p.id}: no held-out shape found in {ATTEMPTS} draws; "
                                 "give the pattern a shape_space")
    return out


def shapes_digest(workloads: Sequence[WorkloadDef]) -> str:
    """One digest of a set of held-out shapes: two deployments compare sets without listing them."""
    items = sorted(json.dumps([w.pattern.id, w.params], sort_keys=True, default=str) for w in workloads)
    return hashlib.sha256("\n".join(items).encode()).hexdigest()
