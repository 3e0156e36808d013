"""Scoring and ranking a board from plain rows: no database and no Django, so every rule here is
tested with hand-made rows (``tests/leaderboard/test_ranking_pure.py``).

* :func:`entry_metrics` scores one row of one board slice — ``evaluator.scoring.summarize``
  against every baseline over the slice's tasks (a task without a result counts as missing,
  i.e. wrong; so do ``suspect`` and ``hacked`` results), Fast@p and its significant form
  (``fast_sig@p``: the lower bound of the speedup's 95 % CI ≥ p) alike, plus the median
  roofline fraction, the tasks attempted, per-domain Fast@p counts, the speedup histogram and
  ``scoring.generalisation`` over the slice's workloads (held-out ones on the verified track).
  ``leaderboard.aggregates`` stores its output (``BoardEntry``) whenever a result lands.
* :func:`baseline_records` turns the baseline timings of a board into per-task records, scored
  by the same :func:`entry_metrics`. A baseline X against the chosen baseline B on one task is
  t_B / t_X = s_B / s_X, from the latest run that timed both.
* :func:`rank` turns a slice's scored rows (:class:`Entry`) into the board's :class:`Row` s:
  numbers against the chosen baseline, ranked (Fast@p, then Correct@1, then the deployable
  geomean; ties: baselines first, then whoever got there first), one row per team for the
  ``best`` and ``latest`` views, sorted for display.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from evaluator import scoring
from evaluator.vocabulary import Baseline, Status, Track

BASELINES = tuple(Baseline)
ALWAYS_SHOWN = (Baseline.TVM_DEFAULT, Baseline.VENDOR)  # rows even before anything timed them
TRACKS = tuple(Track)
VIEWS = ("all", "best", "latest")
ORDERS = ("asc", "desc")
FAST_P = scoring.FAST_P
# Display sorts: column → the direction in which it is better
SORTS = {
    "rank": "asc", "correct": "desc", "fast": "desc", "fast_sig": "desc", "geomean_correct": "desc",
    "geomean_deployable": "desc", "roofline": "desc", "attempted": "desc", "name": "asc", "submitted": "desc",
    "generalisation": "desc", "generalisation_fast": "desc",
}
HIST_BINS_PER_OCTAVE = 4  # speedup histogram bins: 2^(k/4) … 2^((k+1)/4)
HIST_RANGE = 8 * HIST_BINS_PER_OCTAVE  # clamp to 1/256× … 256×
SIG_KEYS = tuple(f"fast_sig@{p}" for p in FAST_P) + ("ties@1.0",)
SPEED_KEYS = tuple(f"fast@{p}" for p in FAST_P) + SIG_KEYS + ("geomean_correct", "geomean_deployable")
NO_GENERALISATION = scoring.generalisation(())  # no verified run (and every baseline row)


# ----------------------------------------------------------------------------- one row


def _median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def hist_bin(speedup: float) -> int:
    k = math.floor(math.log2(speedup) * HIST_BINS_PER_OCTAVE)
    return max(-HIST_RANGE, min(HIST_RANGE - 1, k))


def generalisation_of(by_task: Mapping[str, dict], tasks) -> dict:
    """``scoring.generalisation`` over the ``tasks`` that have a record in ``by_task`` (whether a
    task is held out comes from its suite definition)."""
    return scoring.generalisation(
        {"workload": w.id, "hidden": w.hidden, "status": r.get("status"), "speedup": r.get("speedup")}
        for w in tasks if (r := by_task.get(w.id)) is not None)


def entry_metrics(by_task: Mapping[str, dict], tasks) -> tuple[dict, dict]:
    """(metrics, histogram) of one row over ``tasks`` (WorkloadDefs, or anything with ``id``,
    ``hidden`` and ``domains``); ``by_task`` maps a workload id to its record (``status``,
    ``speedup`` {baseline: x}, ``speedup_ci`` {baseline: [low, high]}, ``roofline_fraction``)."""
    records = [by_task.get(w.id) or {"status": Status.MISSING, "speedup": {}} for w in tasks]
    correct = [r for r in records if r.get("status") == Status.CORRECT]
    metrics = {
        "tasks": len(tasks),
        "attempted": sum(1 for r in records if r.get("status") != Status.MISSING),
        "roofline_median": _median([r.get("roofline_fraction") for r in correct]),
        "baselines": {b: scoring.summarize(records, baseline=b) for b in BASELINES},
        "domains": {},
        "generalisation": generalisation_of(by_task, tasks),
    }
    task_domains = [w.domains for w in tasks]  # a computed property: read once per task
    for d in sorted({d for ds in task_domains for d in ds}):
        sub = [r for r, ds in zip(records, task_domains) if d in ds]
        summaries = {b: scoring.summarize(sub, baseline=b) for b in BASELINES}
        metrics["domains"][d] = {
            "tasks": len(sub), "correct": summaries[BASELINES[0]]["correct"],
            # counts, not fractions: exact, and what a plot of several rows adds up
            "fast": {b: [round(s[f"fast@{p}"] * len(sub)) for p in FAST_P] for b, s in summaries.items()},
        }
    histogram: dict[str, dict[str, int]] = {}
    for b in BASELINES:
        h: dict[str, int] = {}
        for r in correct:
            s = (r.get("speedup") or {}).get(b)
            if s and s > 0:
                k = str(hist_bin(s))
                h[k] = h.get(k, 0) + 1
        if h:
            histogram[b] = h
    return metrics, histogram


def baseline_records(name: str, samples: Mapping[str, tuple[dict, float | None]], tasks) -> dict[str, dict]:
    """The per-task records of baseline ``name`` from the samples (workload → (the candidate's
    speedups against each baseline, its roofline fraction) in the latest run that timed them).

    ``tvm-default`` is correct on every task (it is the reference build; its speedup against
    itself is 1 by definition); another baseline covers the tasks where it was timed."""
    out: dict[str, dict] = {}
    for w in tasks:
        s, roof = samples.get(w.id, ({}, None))
        own = s.get(name)
        if name == Baseline.TVM_DEFAULT:
            own = own or 1.0  # s_default is on every sample; unsampled tasks still have t_default/t_default
        elif not own:
            continue
        spd = {b: s[b] / own for b in BASELINES if s.get(b)}
        spd[name] = 1.0
        # Against itself a baseline is exactly 1x; against another one no interval is known
        # (``rank`` shows those significant columns as –).
        out[w.id] = {"status": Status.CORRECT, "speedup": spd, "speedup_ci": {name: [1.0, 1.0]},
                     "roofline_fraction": roof / own if roof is not None and s.get(name) else None}
    return out


# ----------------------------------------------------------------------------- the board


@dataclass
class Entry:
    """One scored row of a board slice before ranking: a submission's or a baseline's
    :func:`entry_metrics` output (stored, or scored on request) and whose it is."""

    metrics: dict
    histogram: dict | None = None  # {baseline: {bin: tasks}}; None where it was not read
    submission_id: int | None = None  # None: a baseline row
    baseline: str = ""  # the baseline, on a baseline row
    name: str = ""
    owner: str = ""
    created_at: str = ""  # ISO 8601
    verified: bool = False  # the submission's verified run finished

    @property
    def is_baseline(self) -> bool:
        return self.submission_id is None


@dataclass
class Row:
    rank: int
    kind: str  # "submission" | "baseline"
    name: str
    summary: dict  # scoring.summarize against the chosen baseline + roofline_median, attempted, generalisation*
    domains: dict[str, float] = field(default_factory=dict)  # domain → Fast@p against the baseline
    submission_id: int | None = None
    owner: str = ""
    created_at: str = ""
    verified: bool = False

    @property
    def team(self) -> str:
        return self.owner

    def to_json(self) -> dict:
        return {"rank": self.rank, "kind": self.kind, "name": self.name, "summary": dict(self.summary),
                "domains": dict(self.domains), "submission_id": self.submission_id, "owner": self.owner,
                "created_at": self.created_at, "verified": self.verified}


def measured_baselines(entries: Iterable[Entry], measured_elsewhere: Iterable[str] = ()) -> list[str]:
    """The baselines with numbers on this board, in BASELINES order: tvm-default always (every
    speedup is against it), another once it attempted a task of this slice or was timed anywhere
    on the board (``measured_elsewhere``: a slice may just lack the call)."""
    measured = {Baseline.TVM_DEFAULT, *measured_elsewhere}
    measured |= {e.baseline for e in entries if e.is_baseline and e.metrics.get("attempted")}
    return [b for b in BASELINES if b in measured]


EMULATED_NOTICE = ("times emulated: this board's device is emulated (a board under qemu-user, or a server "
                   "GPU held to an edge share), so its results are real but its times are not the "
                   "device's; Fast@p, speedups and the geomeans are not shown, and rows rank by Correct@1")


def baseline_notices(baseline: str, measured: list[str], emulated: bool = False) -> list[str]:
    """What the page says about baselines without numbers: the chosen one, and each one that has
    no row yet; on an emulated board, that its times are not used."""
    if emulated:
        return [EMULATED_NOTICE]
    notices = []
    if baseline not in measured:
        notices.append(f"no {baseline} results on this board: speedups against {baseline} are not "
                       "available, so Fast@p and the geomeans are shown as –; rows rank by Correct@1")
    for name in BASELINES:
        if name not in measured and name not in ALWAYS_SHOWN:
            notices.append(f"no {name} results on this board yet: it has no row")
    return notices


def own_generalisations(entries: Iterable[Entry]) -> dict[int, dict]:
    """Submission → generalisation from the rows themselves: what a verified board shows (a row
    stored before the metric existed has none until ``manage.py rebuild_boards``)."""
    return {e.submission_id: e.metrics.get("generalisation") or NO_GENERALISATION
            for e in entries if not e.is_baseline}


def rank_key(r: Row, fast_key: str) -> tuple:
    """Fast@p, then Correct@1, then the deployable geomean, higher first; a missing value last."""
    s = r.summary

    def v(k):
        x = s.get(k)
        return -x if x is not None else math.inf

    # ties: baselines first (in BASELINES order, not in whatever order the database returned
    # their rows), then whoever got there first
    baseline_order = BASELINES.index(r.name) if r.kind == "baseline" and r.name in BASELINES else 0
    return (v(fast_key), v("correct@1"), v("geomean_deployable"), r.kind != "baseline", baseline_order,
            r.created_at or "", r.submission_id or 0)


def sort_value(r: Row, sort: str, fast_key: str):
    return {
        "generalisation": r.summary.get("generalisation"),
        "generalisation_fast": r.summary.get("generalisation_fast"),
        "rank": r.rank, "correct": r.summary.get("correct@1"), "fast": r.summary.get(fast_key),
        "fast_sig": r.summary.get(fast_key.replace("fast@", "fast_sig@")),
        "geomean_correct": r.summary.get("geomean_correct"), "geomean_deployable": r.summary.get("geomean_deployable"),
        "roofline": r.summary.get("roofline_median"), "attempted": r.summary.get("attempted"),
        "name": r.name.lower(), "submitted": r.created_at or None,
    }[sort]


def display_sort(rows: list[Row], sort: str, order: str | None, fast_key: str) -> list[Row]:
    """``rows`` by the ``sort`` column (``order``, or the direction in which it is better); rows
    without a value last, ties and those in rank order. Ranks are kept: they are the ranking's."""
    order = order or SORTS[sort]
    present = [r for r in rows if sort_value(r, sort, fast_key) is not None]
    absent = [r for r in rows if sort_value(r, sort, fast_key) is None]
    present.sort(key=lambda r: r.rank)
    present.sort(key=lambda r: sort_value(r, sort, fast_key), reverse=(order == "desc"))
    return present + sorted(absent, key=lambda r: r.rank)


def one_per_team(rows: list[Row], view: str) -> list[Row]:
    """Rows in rank order with only each team's best (``best``) or most recent (``latest``)
    submission; every baseline row stays."""
    if view == "all":
        return rows
    chosen: dict[str, Row] = {}
    for r in rows:  # in rank order: the first seen is the best
        if r.kind != "submission":
            continue
        cur = chosen.get(r.owner)
        if cur is None or (view == "latest" and r.created_at > cur.created_at):
            chosen[r.owner] = r
    keep = {id(r) for r in chosen.values()}
    return [r for r in rows if r.kind == "baseline" or id(r) in keep]


def _summary(e: Entry, baseline: str, available: bool, generalisation: dict, emulated: bool = False) -> dict:
    m = e.metrics
    summary = dict(m["baselines"][baseline])
    summary["roofline_median"] = m.get("roofline_median")
    summary["attempted"] = m.get("attempted", 0)
    # against tvm-default whatever the chosen baseline (as scoring defines it): never blanked
    summary.update(generalisation)
    if emulated:  # Correct@1 on the held-out workloads is real; being fast there is not
        summary["generalisation_fast"] = None
    if not available:
        summary.update({k: None for k in SPEED_KEYS})
    elif (e.is_baseline and e.baseline != baseline) or SIG_KEYS[0] not in summary:
        # A baseline against another has no measured interval (0 would claim "never
        # significantly faster"); an entry stored before intervals existed has none either
        # until ``manage.py rebuild_boards``.
        summary.update({k: None for k in SIG_KEYS})
    return summary


def rank(entries: Iterable[Entry], *, baseline: str, p: float, measured: list[str], view: str = "all",
         sort: str = "rank", order: str | None = None, generalisations: Mapping[int, dict] | None = None,
         with_histogram: bool = False, emulated: bool = False) -> tuple[list[Row], dict[int, int]]:
    """(the board's rows ranked and in display order, the speedup histogram of its ranked
    submissions) from a slice's entries, against ``baseline`` at Fast@``p``.

    ``measured``: :func:`measured_baselines`; against a baseline not in it no speedup is known,
    so the speed columns are None and rows rank by Correct@1. A baseline that is neither measured
    nor always shown has no row. ``generalisations``: submission → its generalisation (baseline
    rows and submissions without one show NO_GENERALISATION). The histogram (bin → tasks, against
    ``baseline``) is only added up ``with_histogram``, from the entries' histograms.

    ``emulated``: the board's times are an emulator's (``evaluator.backends.emulation.is_emulated``):
    as if no baseline were measured, no time-derived number is shown or used, rows rank by
    Correct@1 alone, and there is no histogram."""
    available = baseline in measured and not emulated
    fast_idx = FAST_P.index(p)
    shown = set(measured) | set(ALWAYS_SHOWN)
    generalisations = generalisations or {}
    rows: list[Row] = []
    hist: dict[int, int] = {}
    for e in entries:
        if e.is_baseline and e.baseline not in shown:
            continue  # tvm-tuned gets a row once anything timed it; until then a notice says so
        gen = NO_GENERALISATION if e.is_baseline else generalisations.get(e.submission_id, NO_GENERALISATION)
        summary = _summary(e, baseline, available, gen, emulated)
        domains = {d: (dm["fast"][baseline][fast_idx] / dm["tasks"] if available and dm["tasks"] else None)
                   for d, dm in e.metrics.get("domains", {}).items()}
        if e.is_baseline:
            rows.append(Row(0, "baseline", e.baseline, summary, domains))
            continue
        rows.append(Row(0, "submission", e.name, summary, domains, submission_id=e.submission_id, owner=e.owner,
                        created_at=e.created_at, verified=e.verified))
        if with_histogram and available:
            for k, n in (e.histogram or {}).get(baseline, {}).items():
                hist[int(k)] = hist.get(int(k), 0) + n

    fast_key = f"fast@{p}"
    rows.sort(key=lambda r: rank_key(r, fast_key))
    rows = one_per_team(rows, view)
    for i, r in enumerate(rows, 1):
        r.rank = i
    return display_sort(rows, sort, order, fast_key), dict(sorted(hist.items()))
