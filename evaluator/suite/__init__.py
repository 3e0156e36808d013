"""The task suite: every pattern file under ``evaluator/suite/patterns/`` is discovered here.

A pattern file exports ``PATTERN`` (one pattern) or ``PATTERNS`` (generated variants of one
family, each a distinct computation) with its public workloads. Held-out workloads are not
written anywhere: a deployment draws them from its secret (``suite.heldout``), and every
function here that can include them takes that secret (default: ``EKB_HELDOUT_SECRET``).
Workload ids are ``family/name@shape-tag``; a held-out tag is opaque. A held-out model graph's
layers that no public workload is are held-out workloads too (:func:`layers_of`).
"""

from __future__ import annotations

import fnmatch
import functools
import hashlib
import importlib
import pkgutil
from collections import Counter

from evaluator.suite import heldout as _heldout
from evaluator.suite.base import DOMAINS, LEVELS, GraphPattern, OpPattern, Pattern, Tensor, Workload, WorkloadDef
from evaluator.suite.declare import Layer, shape_key
from evaluator.suite.heldout import HeldOutSecretMissing, ShapeSpace
from evaluator.suite.retired import RENAMED, RETIRED, Retirement

__all__ = [
    "DOMAINS", "LEVELS", "GraphPattern", "OpPattern", "Pattern", "Tensor", "Workload",
    "WorkloadDef", "patterns", "workloads", "get_workload", "select", "sample", "served", "summary",
    "UnknownWorkload", "ShapeSpace", "HeldOutSecretMissing", "held_out", "layers_of",
    "Retirement", "retirement_of",
]


class UnknownWorkload(KeyError):
    def __str__(self) -> str:
        return f"unknown workload {self.args[0]!r}"


# Import the subpackage before defining patterns(): a first import of evaluator.suite.patterns
# would otherwise rebind this package's attribute ``patterns`` from the function to the module.
importlib.import_module("evaluator.suite.patterns")


@functools.cache
def patterns() -> tuple[Pattern, ...]:
    """The suite's patterns, the retired ones (``suite.retired``) left out."""
    return tuple(p for p in _every_pattern() if p.id not in RETIRED)


@functools.cache
def _every_pattern() -> tuple[Pattern, ...]:
    pkg = importlib.import_module("evaluator.suite.patterns")

    found: dict[str, Pattern] = {}
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{pkg.__name__}.{info.name}")
        items = getattr(module, "PATTERNS", None) or [getattr(module, "PATTERN", None)]
        for p in items:
            if p is None:
                raise ImportError(f"pattern file {info.name}.py defines neither PATTERN nor PATTERNS")
            if p.id in found:
                raise ImportError(f"duplicate pattern id {p.id!r} in {info.name}.py")
            found[p.id] = p
    unknown = (set(RETIRED) - set(found)) | {r.successor for r in RETIRED.values()} - set(found)
    if unknown:
        raise ImportError(f"suite.retired names patterns the suite lacks: {sorted(unknown)}")
    return tuple(found[k] for k in sorted(found))


@functools.cache
def _index() -> dict[str, WorkloadDef]:
    """The public workloads by id, the retired patterns' included (they stay resolvable)."""
    index: dict[str, WorkloadDef] = {}
    for p in _every_pattern():
        for spec in p.workloads:
            if spec.hidden:
                raise ImportError(f"{p.id}@{spec.tag}: a pattern file lists public workloads only "
                                  "(held-out ones are drawn from the deployment's secret)")
            w = WorkloadDef(p, spec)
            if w.id in index:
                raise ImportError(f"duplicate workload id {w.id!r}")
            index[w.id] = w
    return index


@functools.cache
def _public_by_shape() -> dict[tuple[str, str], WorkloadDef]:
    return {shape_key(w.pattern.id, w.params): w for w in _index().values()}


@functools.lru_cache(maxsize=4)
def _held_out(secret: str) -> tuple[WorkloadDef, ...]:
    """The drawn held-out workloads (``heldout.draw``, pattern by pattern), then the layers of the
    drawn graphs that no workload is yet."""
    # in this process's memory only: never written to disk, never sent to a step
    drawn = [WorkloadDef(p, spec) for p in patterns() for spec in _heldout.draw(p, secret)]
    return tuple(drawn + _layer_workloads(drawn, secret))


def _layer_workloads(drawn: list[WorkloadDef], secret: str) -> list[WorkloadDef]:
    """Each layer of a held-out graph that is neither public nor drawn, as a held-out workload of
    its own (once per shape): a held-out graph's breakdown then names workloads that exist, and
    each can be tuned and scored like any other. The graph's shape is secret, so its layers are."""
    known = set(_public_by_shape()) | {shape_key(w.pattern.id, w.params) for w in drawn}
    out: list[WorkloadDef] = []
    for graph in drawn:
        for layer, _ in _graph_layers(graph):
            if layer.key in known:
                continue
            known.add(layer.key)
            spec = Workload(_heldout.opaque_tag(secret, layer.pattern, layer.params), dict(layer.params),
                            hidden=True, domains=graph.domains)
            out.append(WorkloadDef(_pattern(layer), spec))
    return out


def _pattern(layer: Layer) -> Pattern:
    found = next((p for p in patterns() if p.id == layer.pattern), None)
    if found is None:
        raise UnknownWorkload(layer.id)
    return found


def _graph_layers(w: WorkloadDef) -> list[tuple[Layer, int]]:
    if isinstance(w.pattern, GraphPattern) and w.pattern.layers is not None:
        return w.pattern.layers(w.params)
    return []


def _held_out_by_shape(secret: str) -> dict[tuple[str, str], WorkloadDef]:
    # not cached apart from _held_out: the very workloads it holds, whenever it is made afresh
    return {shape_key(w.pattern.id, w.params): w for w in _held_out(secret)}


def layers_of(w: WorkloadDef, secret: str | None = None) -> list[tuple[WorkloadDef, int]]:
    """A model graph's layers as the workloads they are, each with how many times it occurs (none
    for an operator): public workloads, and for a held-out graph held-out ones under ``secret``
    (default: the configured one). :class:`UnknownWorkload` names a layer the suite lacks."""
    shapes = _public_by_shape()
    if w.hidden:
        shapes = {**shapes, **_held_out_by_shape(secret or _heldout.configured_secret())}
    found = []
    for layer, count in _graph_layers(w):
        if layer.key not in shapes:
            raise UnknownWorkload(layer.id)
        found.append((shapes[layer.key], count))
    return found


def held_out(secret: str | None = None) -> list[WorkloadDef]:
    """The held-out workloads under ``secret`` (default: the configured one): the drawn ones, then
    the layers of held-out graphs that are no other workload (:func:`layers_of`)."""
    return list(_held_out(secret or _heldout.configured_secret()))


@functools.cache
def _public() -> tuple[WorkloadDef, ...]:
    return tuple(w for w in _index().values() if w.pattern.id not in RETIRED)


def workloads(include_hidden: bool = False, secret: str | None = None) -> list[WorkloadDef]:
    """The public workloads, then (``include_hidden``) the held-out ones under ``secret``; a
    retired pattern's are never among them."""
    public = list(_public())
    return public + held_out(secret) if include_hidden else public


def retirement_of(target_id: str) -> Retirement | None:
    """Why a pattern, or a workload by its pattern, was retired; None when it is not."""
    return RETIRED.get(target_id.split("@", 1)[0])


def get_workload(workload_id: str, secret: str | None = None) -> WorkloadDef:
    """A public workload by id (a retired pattern's too, and a renamed one by its old id); a
    held-out one too when ``secret`` is given."""
    found = _index().get(RENAMED.get(workload_id, workload_id))
    if found is None and secret:
        found = next((w for w in _held_out(secret) if w.id == workload_id), None)
    if found is None:
        raise UnknownWorkload(workload_id)
    return found


def select(globs: list[str] | None, include_hidden: bool = False, secret: str | None = None) -> list[WorkloadDef]:
    """Workloads whose id matches any of the shell-style globs (all when none given)."""
    ws = workloads(include_hidden, secret)
    if not globs:
        return ws
    return [w for w in ws if any(fnmatch.fnmatchcase(w.id, g) for g in globs)]


def sample(size: int, include_hidden: bool = False, max_graphs: int = 1,
           secret: str | None = None) -> list[WorkloadDef]:
    """A deterministic, representative subset: the cheapest workload of every family, then the rest
    in the order of a hash of their ids, up to ``size``; at most ``max_graphs`` model graphs (they
    take seconds each to build). The same ``size`` always gives the same workloads."""
    every = workloads(include_hidden, secret)
    chosen: dict[str, WorkloadDef] = {}
    for family in sorted({w.family for w in every}):
        ws = [w for w in every if w.family == family]
        chosen_graphs = sum(c.level == "L3" for c in chosen.values())
        ws = [w for w in ws if w.level != "L3"] or (ws if chosen_graphs < max_graphs else [])
        if ws and len(chosen) < size:
            first = min(ws, key=lambda w: (w.bytes, w.flops, w.id))
            chosen[first.id] = first
    for w in sorted(every, key=lambda w: hashlib.sha256(w.id.encode()).hexdigest()):
        if len(chosen) >= size:
            break
        if w.level != "L3" or sum(c.level == "L3" for c in chosen.values()) < max_graphs:
            chosen.setdefault(w.id, w)
    return list(chosen.values())


@functools.lru_cache(maxsize=16)
def _served(spec: str) -> tuple[WorkloadDef, ...]:
    items = [s.strip() for s in spec.split(",") if s.strip()]
    ids: dict[str, WorkloadDef] = {}
    for item in items:
        if item.startswith("sample:"):
            ids.update((w.id, w) for w in sample(int(item.split(":", 1)[1]), include_hidden=False))
        else:
            found = select([item])
            if not found:
                raise ValueError(f"task selection {item!r} matches no public workload")
            ids.update((w.id, w) for w in found)
    order = {w.id: i for i, w in enumerate(workloads())}
    return tuple(sorted(ids.values(), key=lambda w: order[w.id]))


def served(spec: str | None) -> list[WorkloadDef]:
    """The public workloads a deployment serves: all of them for an empty ``spec``, else the
    union of its comma-separated items — globs over workload ids, or ``sample:N`` (see
    :func:`sample`), e.g. ``"sample:32,matmul/*"`` for a quick demo."""
    return workloads() if not spec else list(_served(spec))


def summary(include_hidden: bool = False, secret: str | None = None) -> dict:
    """The stable JSON shape of ``python -m evaluator suite --json``. With ``include_hidden``,
    the held-out workloads under ``secret`` are counted (never listed: a digest of their shapes
    lets two deployments compare sets)."""
    listed = workloads(include_hidden, secret)
    hidden = [w for w in listed if w.hidden]
    out = {
        "patterns": len({w.pattern.id for w in listed}),
        "workloads": len(listed),
        "hidden": len(hidden) if include_hidden else None,
        "levels": dict(sorted(Counter(w.level for w in listed).items())),
        "domains": dict(sorted(Counter(d for w in listed for d in w.domains).items())),
        "families": dict(sorted(Counter(w.family for w in listed).items())),
        # a workload counts once under each dtype its tensors (inputs and outputs) have
        "dtypes": dict(sorted(Counter(d for w in listed for d in tensor_dtypes(w)).items())),
        # the same breakdowns counted in patterns rather than workloads
        "pattern_levels": dict(sorted(Counter(p.level for p in _listed_patterns(listed)).items())),
        "pattern_families": dict(sorted(Counter(p.family for p in _listed_patterns(listed)).items())),
    }
    out["dtype_shares"] = {d: round(n / len(listed), 4) for d, n in out["dtypes"].items()} if listed else {}
    if include_hidden:
        per_pattern = Counter(w.pattern.id for w in hidden)
        out["hidden_share"] = round(len(hidden) / len(listed), 4) if listed else 0.0
        out["hidden_per_pattern_min"] = min((per_pattern[p.id] for p in patterns()), default=0)
        out["hidden_shapes_digest"] = _heldout.shapes_digest(hidden)
    return out


def tensor_dtypes(w: WorkloadDef) -> set[str]:
    """The dtypes of a workload's tensors, inputs and outputs."""
    return {t.dtype for t in w.inputs} | {t.dtype for t in w.outputs}


def _listed_patterns(listed: list[WorkloadDef]) -> list[Pattern]:
    return list({w.pattern.id: w.pattern for w in listed}.values())
