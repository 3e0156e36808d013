"""Scoring: Correct@1, Fast@p and the two geometric means — the one function every board,
page, API and export calls.

Definitions (docs/leaderboards.md): over *all* tasks of a board (missing and failed count as wrong),
``correct@1`` = correct / tasks, ``fast@p`` = (correct and speedup ≥ p) / tasks (the paper's),
``fast_sig@p`` = (correct and the lower bound of the speedup's 95 % confidence interval ≥ p) /
tasks — a task without an interval for the baseline is not significantly fast —, ``ties@1.0``
= (correct and the interval contains 1.0) / tasks (no faster nor slower than the baseline within
the noise), ``geomean_correct`` = geometric mean speedup over the correct tasks only, and
``geomean_deployable`` = geometric mean over all tasks where a failed or missing task falls back
to the baseline (speedup 1.0) — what a deployment that keeps the baseline on failure would see.

Only ``correct`` is correct: ``suspect`` (a timing the harness cannot stand behind, awaiting
review) and ``hacked`` (staff's verdict) count as wrong everywhere, like any failure.

``generalisation`` (over a verified run's results, public and held-out workloads): of the patterns
correct on every public workload with a result, the share also correct on every held-out workload
of that pattern with a result (patterns without a held-out result are not counted);
``generalisation_fast`` the share whose held-out results are also fast as Fast@1.0 counts fast.
Only counts and shares come out: never which workloads.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Iterable, Mapping, Sequence

from evaluator.harness.protocol import FAST_P
from evaluator.records import CORRECT
from evaluator.vocabulary import Baseline

__all__ = ["FAST_P"]
DEFAULT_BASELINE = Baseline.TVM_DEFAULT
GENERALISATION_P = 1.0  # "fast" on a held-out workload: what Fast@1.0 counts
PATTERN_SEP = "@"  # a workload id is <pattern id>@<tag>


def _geomean(xs: Sequence[float]) -> float | None:
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


_EMPTY: dict = {}  # shared, never written: no allocation per task


def _task_view(t, baseline: str) -> tuple[bool, float | None, list | None]:
    """(correct, speedup vs ``baseline``, its [low, high] 95 % CI or None) from a TaskResult or
    its JSON form. Only a correct task's CI is looked up: the others never count."""
    if type(t) is dict or isinstance(t, Mapping):  # the plain-dict test first: boards score millions of these
        if t.get("status") != CORRECT:
            return False, None, None
        # ``or``: a record stored before intervals existed may hold None, or no key at all
        return True, (t.get("speedup") or _EMPTY).get(baseline), (t.get("speedup_ci") or _EMPTY).get(baseline)
    if t.status != CORRECT:
        return False, None, None
    return True, t.speedup.get(baseline), (t.speedup_ci or _EMPTY).get(baseline)


def summarize(tasks: Iterable, baseline: str = DEFAULT_BASELINE) -> dict:
    """Aggregate metrics over a board's tasks (TaskResult objects or their JSON)."""
    views = [_task_view(t, baseline) for t in tasks]
    n = len(views)
    correct = [v for v in views if v[0]]
    with_speed = [s for _, s, _ in correct if s is not None]
    lows, ties = [], 0
    for _, _, ci in correct:
        # a malformed interval proves nothing: neither significantly fast nor a tie
        if ci and len(ci) == 2 and ci[0] is not None and ci[1] is not None:
            lows.append(ci[0])
            ties += ci[0] <= 1.0 <= ci[1]
    out = {
        "tasks": n,
        "correct": len(correct),
        "correct@1": len(correct) / n if n else 0.0,
    }
    for p in FAST_P:
        out[f"fast@{p}"] = sum(1 for s in with_speed if s >= p) / n if n else 0.0
    for p in FAST_P:
        out[f"fast_sig@{p}"] = sum(1 for lo in lows if lo >= p) / n if n else 0.0
    out["ties@1.0"] = ties / n if n else 0.0
    out["geomean_correct"] = _geomean(with_speed)
    out["geomean_deployable"] = _geomean(
        [(s if ok and s is not None and s > 0 else 1.0) for ok, s, _ in views]) if n else None
    out["baseline"] = baseline
    return out


def _attr(t, name):
    return t.get(name) if isinstance(t, Mapping) else getattr(t, name)


def breakdown(tasks: Iterable, baseline: str = DEFAULT_BASELINE) -> dict:
    """``summarize`` overall and grouped by level and by domain (a task counts in each of its
    domains)."""
    tasks = list(tasks)
    by_level: dict[str, list] = defaultdict(list)
    by_domain: dict[str, list] = defaultdict(list)
    for t in tasks:
        by_level[_attr(t, "level")].append(t)
        for d in _attr(t, "domains") or []:
            by_domain[d].append(t)
    return {
        **summarize(tasks, baseline),
        "by_level": {k: summarize(v, baseline) for k, v in sorted(by_level.items())},
        "by_domain": {k: summarize(v, baseline) for k, v in sorted(by_domain.items())},
    }


def pattern_of(workload_id: str) -> str:
    """The pattern id of a workload id (the part before ``@``; a held-out tag is opaque)."""
    return workload_id.split(PATTERN_SEP, 1)[0]


def _correct_fast(r) -> tuple[bool, bool]:
    """(correct, fast) of one result-like record; ``speedup`` is {baseline: x} (a TaskResult or
    its JSON) or the number against the default baseline (``Result.speedup_tvm_default``)."""
    if _attr(r, "status") != CORRECT:
        return False, False
    s = _attr(r, "speedup")
    if s is None or isinstance(s, Mapping):
        s = (s or _EMPTY).get(DEFAULT_BASELINE)
    return True, s is not None and s >= GENERALISATION_P


def generalisation(results: Iterable) -> dict:
    """``generalisation``, ``generalisation_fast`` (shares; None without a counted pattern) and
    ``generalisation_patterns`` (the patterns counted) over one submission's verified results on
    one backend: records with ``workload``, ``hidden``, ``status`` and ``speedup`` (mappings or
    objects). A workload without a result is not counted (unlike Correct@1): the question is
    whether what the submission got right on the public shapes holds on unseen ones."""
    public_ok: dict[str, bool] = {}  # pattern → correct on every public result
    held: dict[str, tuple[bool, bool]] = {}  # pattern → (correct, fast) on every held-out result
    for r in results:
        pattern = pattern_of(_attr(r, "workload"))
        ok, fast = _correct_fast(r)
        if _attr(r, "hidden"):
            was_ok, was_fast = held.get(pattern, (True, True))
            held[pattern] = (was_ok and ok, was_fast and fast)
        else:
            public_ok[pattern] = public_ok.get(pattern, True) and ok
    counted = [held[p] for p, ok in public_ok.items() if ok and p in held]
    n = len(counted)
    return {
        "generalisation": sum(1 for ok, _ in counted if ok) / n if n else None,
        "generalisation_fast": sum(1 for _, fast in counted if fast) / n if n else None,
        "generalisation_patterns": n,
    }
