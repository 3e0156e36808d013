"""The one ranking function: every leaderboard page, API response, export and plot calls ``board``.

Two halves, one source of numbers:

* :func:`entry_metrics` scores one row of one board slice — ``evaluator.scoring.summarize``
  against every baseline over the slice's tasks (a task without a result counts as missing,
  i.e. wrong; so do ``suspect`` and ``hacked`` results), Fast@p and its significant form
  (``fast_sig@p``: the lower bound of the speedup's 95 % CI ≥ p) alike, plus the median
  roofline fraction, the tasks attempted, per-domain Fast@p counts, the speedup histogram and
  ``scoring.generalisation`` over the slice's workloads (held-out ones on the verified track).
  ``leaderboard.aggregates`` stores its output (``BoardEntry``) whenever a result lands.
* :func:`board` reads those stored outputs for one board (backend × device), track (public or
  verified) and slice, adds the baseline rows, keeps all submissions or the best / latest per
  team, ranks (Fast@p, then Correct@1, then the deployable geomean, all against the chosen
  baseline) and sorts for display. A slice that is not precomputed is scored on request from the
  results by the same :func:`entry_metrics`. Each submission row carries its generalisation from
  its finished verified run on that board and slice, on the public board too (None without one).

Baseline rows are always present and marked: ``tvm-default`` (the reference compiler), ``vendor``
(the library call a user would make) and ``tvm-tuned`` once any result timed it. A baseline X
against the chosen baseline B on one task is t_B / t_X = s_B / s_X, from the latest run that
timed both (``BaselineSample``).
"""

from __future__ import annotations

import math
import statistics
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace

from django.db.models import Q

from evaluator import scoring
from leaderboard.slices import FILTERS, Slice, choices

BASELINES = ("tvm-default", "tvm-tuned", "vendor")
ALWAYS_SHOWN = ("tvm-default", "vendor")  # rows even before anything timed them
TRACKS = ("public", "verified")
VIEWS = ("all", "best", "latest")
FAST_P = scoring.FAST_P
# Display sorts: column → (key on a row, the direction in which it is better)
SORTS = {
    "rank": "asc", "correct": "desc", "fast": "desc", "fast_sig": "desc", "geomean_correct": "desc",
    "geomean_deployable": "desc", "roofline": "desc", "attempted": "desc", "name": "asc", "submitted": "desc",
    "generalisation": "desc", "generalisation_fast": "desc",
}
HIST_BINS_PER_OCTAVE = 4  # speedup histogram bins: 2^(k/4) … 2^((k+1)/4)
HIST_RANGE = 8 * HIST_BINS_PER_OCTAVE  # clamp to 1/256× … 256×


# ----------------------------------------------------------------------------- one row


def _median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def hist_bin(speedup: float) -> int:
    k = math.floor(math.log2(speedup) * HIST_BINS_PER_OCTAVE)
    return max(-HIST_RANGE, min(HIST_RANGE - 1, k))


def generalisation_of(by_task: dict[str, dict], tasks) -> dict:
    """``scoring.generalisation`` over the ``tasks`` that have a record in ``by_task`` (whether a
    task is held out comes from its suite definition)."""
    return scoring.generalisation(
        {"workload": w.id, "hidden": w.hidden, "status": r.get("status"), "speedup": r.get("speedup")}
        for w in tasks if (r := by_task.get(w.id)) is not None)


def entry_metrics(by_task: dict[str, dict], tasks) -> tuple[dict, dict]:
    """(metrics, histogram) of one row over ``tasks`` (WorkloadDefs); ``by_task`` maps a workload
    id to its record (``status``, ``speedup`` {baseline: x}, ``speedup_ci`` {baseline: [low,
    high]}, ``roofline_fraction``)."""
    records = [by_task.get(w.id) or {"status": "missing", "speedup": {}} for w in tasks]
    correct = [r for r in records if r.get("status") == "correct"]
    metrics = {
        "tasks": len(tasks),
        "attempted": sum(1 for r in records if r.get("status") != "missing"),
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


def baseline_records(name: str, samples: dict[str, tuple[dict, float | None]], tasks) -> dict[str, dict]:
    """The per-task records of baseline ``name`` from the samples (workload → (the candidate's
    speedups against each baseline, its roofline fraction) in the latest run that timed them).

    ``tvm-default`` is correct on every task (it is the reference build; its speedup against
    itself is 1 by definition); another baseline covers the tasks where it was timed."""
    out: dict[str, dict] = {}
    for w in tasks:
        s, roof = samples.get(w.id, ({}, None))
        own = s.get(name)
        if name == "tvm-default":
            own = own or 1.0  # s_default is on every sample; unsampled tasks still have t_default/t_default
        elif not own:
            continue
        spd = {b: s[b] / own for b in BASELINES if s.get(b)}
        spd[name] = 1.0
        # Against itself a baseline is exactly 1x; against another one no interval is known
        # (``board`` shows those significant columns as –).
        out[w.id] = {"status": "correct", "speedup": spd, "speedup_ci": {name: [1.0, 1.0]},
                     "roofline_fraction": roof / own if roof is not None and s.get(name) else None}
    return out


# ----------------------------------------------------------------------------- the board


@dataclass(frozen=True)
class BoardQuery:
    backend: str = "cpu-llvm"
    device: str | None = None  # None: the backend's most recently updated board
    track: str = "public"
    level: str | None = None
    domain: str | None = None
    family: str | None = None
    dtype: str | None = None
    baseline: str = scoring.DEFAULT_BASELINE
    p: float = 1.0
    view: str = "all"
    sort: str = "rank"
    order: str | None = None  # None: the direction in which the column is better

    @property
    def slice(self) -> Slice:
        return Slice(self.level, self.domain, self.family, self.dtype)

    @property
    def fast_key(self) -> str:
        return f"fast@{self.p}"

    @property
    def sig_key(self) -> str:
        return f"fast_sig@{self.p}"

    def params(self, **change) -> dict[str, str]:
        """Query parameters that reproduce this board (for links; ``change`` overrides)."""
        q = replace(self, **change) if change else self
        out = {"backend": q.backend, "device": q.device, "track": q.track, "level": q.level,
               "domain": q.domain, "family": q.family, "dtype": q.dtype, "baseline": q.baseline,
               "p": f"{q.p:g}", "view": q.view, "sort": q.sort, "order": q.order}
        defaults = {"track": "public", "baseline": scoring.DEFAULT_BASELINE, "p": "1", "view": "all",
                    "sort": "rank"}
        return {k: str(v) for k, v in out.items() if v is not None and v != "" and defaults.get(k) != str(v)}


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


@dataclass
class Ranking:
    query: BoardQuery  # with the device resolved
    tasks: int
    rows: list[Row]  # ranked, with the view applied, in display order
    baseline_available: bool
    precomputed: bool
    baselines_measured: list[str]
    notices: list[str]
    histogram: dict[int, int]  # speedup bin → tasks, over the ranked submissions (chosen baseline)

    def page(self, offset: int = 0, limit: int | None = None) -> list[Row]:
        """One page of submission rows, with every baseline row (baselines are always shown, in
        their sorted place)."""
        subs = [r for r in self.rows if r.kind == "submission"]
        keep = {id(r) for r in subs[offset: None if limit is None else offset + limit]}
        return [r for r in self.rows if r.kind == "baseline" or id(r) in keep]

    @property
    def submissions(self) -> int:
        return sum(1 for r in self.rows if r.kind == "submission")

    def meta(self) -> dict:
        q = self.query
        return {"backend": q.backend, "device": q.device, "track": q.track,
                "filters": {f: getattr(q, f) for f in FILTERS}, "baseline": q.baseline, "p": q.p,
                "view": q.view, "sort": q.sort, "order": q.order, "tasks": self.tasks,
                "baseline_available": self.baseline_available, "baselines_measured": self.baselines_measured,
                "precomputed": self.precomputed, "notices": self.notices, "submissions": self.submissions}


class BoardQueryError(ValueError):
    def __init__(self, errors: dict[str, str]):
        self.errors = errors
        super().__init__("; ".join(errors.values()))


def known_backends() -> list[str]:
    from django.conf import settings

    from leaderboard.models import Board

    return list(dict.fromkeys(list(settings.EKB_BACKENDS) + list(
        Board.objects.order_by("backend").values_list("backend", flat=True).distinct())))


def parse_query(params, strict: bool = True) -> tuple[BoardQuery, dict[str, str]]:
    """A BoardQuery from request parameters and {parameter: problem} for each bad one (a bad
    value falls back to its default)."""
    errors: dict[str, str] = {}
    kw: dict = {}

    def one(name: str, allowed, default=None):
        v = (params.get(name) or "").strip()
        if not v:
            return default
        if v not in allowed:
            errors[name] = f"unknown {name} {v!r}; known: {', '.join(map(str, allowed)) or 'none'}"
            return default
        return v

    backends = known_backends()
    kw["backend"] = one("backend", backends, backends[0] if backends else "cpu-llvm")
    device = params.get("device")
    if device:
        from leaderboard.models import Board

        if len(device) > 200 or not Board.objects.filter(backend=kw["backend"], device=device).exists():
            errors["device"] = f"no board for device {device[:80]!r} on {kw['backend']}"
        else:
            kw["device"] = device
    kw["track"] = one("track", TRACKS, "public")
    for f, allowed in choices().items():
        kw[f] = one(f, allowed)
    kw["baseline"] = one("baseline", BASELINES, scoring.DEFAULT_BASELINE)
    p = (params.get("p") or "").strip()
    if p:
        try:
            kw["p"] = float(p)
            if kw["p"] not in FAST_P:
                raise ValueError
        except ValueError:
            errors["p"] = f"p must be one of {', '.join(f'{x:g}' for x in FAST_P)}; got {p[:20]!r}"
            kw.pop("p", None)
    kw["view"] = one("view", VIEWS, "all")
    kw["sort"] = one("sort", tuple(SORTS), "rank")
    kw["order"] = one("order", ("asc", "desc"))
    return BoardQuery(**kw), errors


def _resolve_board(q: BoardQuery):
    from leaderboard.models import Board

    boards = Board.objects.filter(backend=q.backend)
    if q.device is not None:
        return boards.filter(device=q.device).first(), q
    b = boards.order_by("-updated_at").first()
    return b, replace(q, device=b.device if b else "")


def ranked_filter(track: str, prefix: str = "submission__") -> Q:
    from portal.models import Submission

    q = Q(**{f"{prefix}public": True, f"{prefix}state": Submission.State.FINISHED})
    if track == "verified":
        q &= Q(**{f"{prefix}verification": Submission.Verification.FINISHED})
    return q


# Decoded stored entries of recently read slices, per process: (board, track, slice) → {entry id:
# (its updated_at, metrics, histogram)}. A stored entry never changes: a refresh deletes the rows
# it rescored and stores new ones (new ids), so a reader decodes only the entries it has not seen
# — after a result lands, the one new row of the touched submission (and the baseline rows, when
# they moved), not the whole slice again. Which entries a slice has and which submissions rank is
# read from the database on every request, so nothing stale is shown; the updated_at check
# catches an id used again after the table was emptied.
_DECODED: OrderedDict = OrderedDict()
_DECODED_LOCK = threading.Lock()
DECODED_CACHE_SLICES = 64
ENTRY_READ_ATTEMPTS = 3  # a refresh may replace rows between the two reads: read again, this often


def _decoded(board_obj, track: str, key: str, rows: list[dict]) -> dict[int, tuple] | None:
    """{entry id: (updated_at, metrics, histogram)} for ``rows`` of one slice, decoding only the
    entries this process has not read before; None if one of them is gone (replaced meanwhile)."""
    from leaderboard.models import BoardEntry

    ck = (board_obj.pk, track, key)
    with _DECODED_LOCK:
        cached = _DECODED.get(ck) or {}
        if ck in _DECODED:
            _DECODED.move_to_end(ck)
    missing = [r["id"] for r in rows if (c := cached.get(r["id"])) is None or c[0] != r["updated_at"]]
    fresh = {i: (at, m, h) for i, at, m, h in BoardEntry.objects.filter(id__in=missing)
             .values_list("id", "updated_at", "metrics", "histogram")} if missing else {}
    out = {}
    for r in rows:
        hit = fresh.get(r["id"]) or cached.get(r["id"])
        if hit is None or hit[0] != r["updated_at"]:
            return None
        out[r["id"]] = hit
    with _DECODED_LOCK:  # what the slice holds now; rows gone from it are dropped
        _DECODED[ck] = out
        _DECODED.move_to_end(ck)
        while len(_DECODED) > DECODED_CACHE_SLICES:
            _DECODED.popitem(last=False)
    return out


def _stored_entries(board_obj, q: BoardQuery, with_histogram: bool) -> list[dict]:
    from leaderboard.models import BoardEntry

    for _ in range(ENTRY_READ_ATTEMPTS):
        rows = list(BoardEntry.objects.filter(board=board_obj, track=q.track, slice=q.slice.key)
                    .filter(Q(submission__isnull=True) | ranked_filter(q.track))
                    .values("id", "updated_at", "submission_id", "baseline", "submission__name",
                            "submission__owner__username", "submission__created_at", "submission__verification"))
        decoded = _decoded(board_obj, q.track, q.slice.key, rows)
        if decoded is not None:
            break
    else:
        raise RuntimeError(f"{board_obj} [{q.slice.key or 'all'}] kept changing while being read")
    for r in rows:
        _, r["metrics"], hist = decoded[r["id"]]
        r["histogram"] = hist if with_histogram else None
    return rows


_MEASURED: dict[int, tuple] = {}  # board → (its version, updated_at, baselines measured)


def _measured_anywhere(board_obj) -> set[str]:
    """Baselines some run on this board timed (cached per board version)."""
    from leaderboard.models import BaselineSample

    stamp = (board_obj.version, board_obj.updated_at)
    hit = _MEASURED.get(board_obj.pk)
    if hit is None or hit[:2] != stamp:
        hit = (*stamp, {name for name in BASELINES[1:]
                        if BaselineSample.objects.filter(board=board_obj, speedup__has_key=name).exists()})
        _MEASURED[board_obj.pk] = hit
    return hit[2]


def _computed_entries(board_obj, q: BoardQuery, with_histogram: bool) -> list[dict]:
    """A slice nobody precomputes, scored now from the results by the same entry_metrics."""
    from portal.models import Result

    tasks = q.slice.tasks(q.track)
    ids = [w.id for w in tasks]
    on_board = Result.objects.filter(backend=q.backend, device=q.device, track=q.track).filter(ranked_filter(q.track))
    # Every ranked submission on the board has a row, even with no result in this slice (missing = wrong).
    info = {r["submission_id"]: r for r in on_board.order_by().values(
        "submission_id", "submission__name", "submission__owner__username", "submission__created_at",
        "submission__verification").distinct()}
    per_sub: dict[int, dict[str, dict]] = {sid: {} for sid in info}
    for r in on_board.filter(workload__in=ids).values("submission_id", "workload", "status", "record__speedup",
                                                      "record__speedup_ci", "roofline_fraction"):
        per_sub[r["submission_id"]][r["workload"]] = {
            "status": r["status"], "speedup": r["record__speedup"] or {},
            "speedup_ci": r["record__speedup_ci"] or {}, "roofline_fraction": r["roofline_fraction"]}
    out = []
    for sid, by_task in per_sub.items():
        metrics, hist = entry_metrics(by_task, tasks)
        out.append({**{k: info[sid][k] for k in ("submission__name", "submission__owner__username",
                                                 "submission__created_at", "submission__verification")},
                    "submission_id": sid, "baseline": "", "metrics": metrics, "histogram": hist})
    samples = baseline_samples(board_obj) if board_obj else {}
    for name in BASELINES:
        metrics, hist = entry_metrics(baseline_records(name, samples, tasks), tasks)
        out.append({"submission_id": None, "baseline": name, "metrics": metrics, "histogram": hist,
                    "submission__name": None, "submission__owner__username": None,
                    "submission__created_at": None, "submission__verification": ""})
    return out


def baseline_samples(board_obj) -> dict[str, tuple[dict, float | None]]:
    from leaderboard.models import BaselineSample

    return {s["workload"]: (s["speedup"], s["roofline_fraction"])
            for s in BaselineSample.objects.filter(board=board_obj).values("workload", "speedup", "roofline_fraction")}


def _rank_key(r: Row, fast_key: str):
    s = r.summary

    def v(k):
        x = s.get(k)
        return -x if x is not None else math.inf

    # ties: baselines first (in BASELINES order, not in whatever order the database returned
    # their rows), then whoever got there first
    baseline_order = BASELINES.index(r.name) if r.kind == "baseline" and r.name in BASELINES else 0
    return (v(fast_key), v("correct@1"), v("geomean_deployable"), r.kind != "baseline", baseline_order,
            r.created_at or "", r.submission_id or 0)


def _sort_value(r: Row, sort: str, fast_key: str):
    return {
        "generalisation": r.summary.get("generalisation"),
        "generalisation_fast": r.summary.get("generalisation_fast"),
        "rank": r.rank, "correct": r.summary.get("correct@1"), "fast": r.summary.get(fast_key),
        "fast_sig": r.summary.get(fast_key.replace("fast@", "fast_sig@")),
        "geomean_correct": r.summary.get("geomean_correct"), "geomean_deployable": r.summary.get("geomean_deployable"),
        "roofline": r.summary.get("roofline_median"), "attempted": r.summary.get("attempted"),
        "name": r.name.lower(), "submitted": r.created_at or None,
    }[sort]


def _display_sort(rows: list[Row], q: BoardQuery, fast_key: str) -> list[Row]:
    order = q.order or SORTS[q.sort]
    present = [r for r in rows if _sort_value(r, q.sort, fast_key) is not None]
    absent = [r for r in rows if _sort_value(r, q.sort, fast_key) is None]  # always last
    present.sort(key=lambda r: r.rank)
    present.sort(key=lambda r: _sort_value(r, q.sort, fast_key), reverse=(order == "desc"))
    return present + sorted(absent, key=lambda r: r.rank)


SIG_KEYS = tuple(f"fast_sig@{p}" for p in FAST_P) + ("ties@1.0",)
SPEED_KEYS = tuple(f"fast@{p}" for p in FAST_P) + SIG_KEYS + ("geomean_correct", "geomean_deployable")
NO_GENERALISATION = scoring.generalisation(())  # no verified run (and every baseline row)


def _verified_generalisation(board_obj, q: BoardQuery, sids: list[int], from_results: bool) -> dict[int, dict]:
    """Submission → its generalisation on this board slice from its finished verified run: what
    a public board's row shows. Read from the stored verified rows (only that key of their
    metrics) or, where the slice is scored on request, from the verified results."""
    from leaderboard.models import BoardEntry
    from portal.models import Result

    if board_obj is None or not sids:
        return {}
    verified = ranked_filter(Result.VERIFIED)
    if q.slice.precomputed and not from_results:
        return {sid: g for sid, g in BoardEntry.objects.filter(
            board=board_obj, track=Result.VERIFIED, slice=q.slice.key, submission_id__in=sids)
            .filter(verified).values_list("submission_id", "metrics__generalisation") if g}
    tasks = q.slice.tasks(Result.VERIFIED)
    per_sub: dict[int, dict[str, dict]] = {}
    for r in (Result.objects.filter(backend=q.backend, device=q.device, track=Result.VERIFIED, submission_id__in=sids,
                                    workload__in=[w.id for w in tasks]).filter(verified)
              .values("submission_id", "workload", "status", "record__speedup")):
        per_sub.setdefault(r["submission_id"], {})[r["workload"]] = {"status": r["status"],
                                                                     "speedup": r["record__speedup"] or {}}
    return {sid: generalisation_of(by_task, tasks) for sid, by_task in per_sub.items()}


def _generalisations(board_obj, q: BoardQuery, entries: list[dict], from_results: bool) -> dict[int, dict]:
    """Submission → generalisation for the rows of ``entries``: a verified board's own rows hold
    it; a public board's rows take it from the same submission's verified run."""
    from portal.models import Result, Submission

    subs = [e for e in entries if e["submission_id"] is not None]
    if q.track == Result.VERIFIED:
        # a row stored before the metric existed has none until ``manage.py rebuild_boards``
        return {e["submission_id"]: e["metrics"].get("generalisation") or NO_GENERALISATION for e in subs}
    # only finished verified runs count: no query at all on a board without one
    verified = [e["submission_id"] for e in subs if e["submission__verification"] == Submission.Verification.FINISHED]
    return _verified_generalisation(board_obj, q, verified, from_results)


def board(backend: str = "cpu-llvm", level: str | None = None, domain: str | None = None, *,
          query: BoardQuery | None = None, with_histogram: bool = False, from_results: bool = False,
          **options) -> Ranking:
    """The ranked rows of one board slice. ``board("cpu-llvm", "L1", "vision", baseline="vendor",
    p=1.5, view="best")`` or ``board(query=BoardQuery(...))``. ``from_results`` scores the rows
    from the stored results even where the slice is precomputed (what the aggregates must equal)."""
    q = query or BoardQuery(backend=backend, level=level, domain=domain, **options)
    board_obj, q = _resolve_board(q)
    sl = q.slice
    tasks = sl.tasks(q.track)
    if board_obj is None:
        entries = _computed_entries(None, q, with_histogram) if tasks else []
    elif sl.precomputed and not from_results:
        entries = _stored_entries(board_obj, q, with_histogram)
    else:
        entries = _computed_entries(board_obj, q, with_histogram)

    notices: list[str] = []
    measured = ["tvm-default"]
    base_metrics = {e["baseline"]: e["metrics"] for e in entries if e["submission_id"] is None}
    for name in BASELINES[1:]:
        if base_metrics.get(name, {}).get("attempted"):
            measured.append(name)
    if board_obj is not None:
        # Measured anywhere on this board, not only in this slice (a slice may just lack the call).
        measured += [b for b in _measured_anywhere(board_obj) if b not in measured]
    measured = [b for b in BASELINES if b in measured]
    available = q.baseline in measured
    if not available:
        notices.append(f"no {q.baseline} results on this board: speedups against {q.baseline} are not "
                       "available, so Fast@p and the geomeans are shown as –; rows rank by Correct@1")
    for name in BASELINES:
        if name not in measured and name not in ALWAYS_SHOWN:
            notices.append(f"no {name} results on this board yet: it has no row")
    if not tasks:
        notices.append(f"no tasks match {sl.label()} on the {q.track} track")

    fast_idx = FAST_P.index(q.p)
    generalisations = _generalisations(board_obj, q, entries, from_results)
    rows: list[Row] = []
    hist: dict[int, int] = {}
    for e in entries:
        m = e["metrics"]
        if e["submission_id"] is None and e["baseline"] not in measured + list(ALWAYS_SHOWN):
            continue  # tvm-tuned gets a row once anything timed it; until then a notice says so
        summary = dict(m["baselines"][q.baseline])
        summary["roofline_median"] = m.get("roofline_median")
        summary["attempted"] = m.get("attempted", 0)
        # against tvm-default whatever the chosen baseline (as scoring defines it): never blanked
        summary.update(generalisations.get(e["submission_id"], NO_GENERALISATION)
                       if e["submission_id"] is not None else NO_GENERALISATION)
        if not available:
            summary.update({k: None for k in SPEED_KEYS})
        elif (e["submission_id"] is None and e["baseline"] != q.baseline) or SIG_KEYS[0] not in summary:
            # A baseline against another has no measured interval (0 would claim "never
            # significantly faster"); an entry stored before intervals existed has none either
            # until ``manage.py rebuild_boards``.
            summary.update({k: None for k in SIG_KEYS})
        domains = {d: (dm["fast"][q.baseline][fast_idx] / dm["tasks"] if available and dm["tasks"] else None)
                   for d, dm in m.get("domains", {}).items()}
        if e["submission_id"] is None:
            rows.append(Row(0, "baseline", e["baseline"], summary, domains))
        else:
            created = e["submission__created_at"]
            rows.append(Row(0, "submission", e["submission__name"], summary, domains,
                            submission_id=e["submission_id"], owner=e["submission__owner__username"] or "",
                            created_at=created.isoformat() if created else "",
                            verified=e["submission__verification"] == "finished"))
            if with_histogram and available:
                for k, n in (e.get("histogram") or {}).get(q.baseline, {}).items():
                    hist[int(k)] = hist.get(int(k), 0) + n

    rows.sort(key=lambda r: _rank_key(r, q.fast_key))
    if q.view != "all":
        chosen: dict[str, Row] = {}
        for r in rows:  # in rank order: the first seen is the best
            if r.kind != "submission":
                continue
            cur = chosen.get(r.owner)
            if cur is None or (q.view == "latest" and r.created_at > cur.created_at):
                chosen[r.owner] = r
        keep = {id(r) for r in chosen.values()}
        rows = [r for r in rows if r.kind == "baseline" or id(r) in keep]
    for i, r in enumerate(rows, 1):
        r.rank = i
    rows = _display_sort(rows, q, q.fast_key)
    return Ranking(q, len(tasks), rows, available, board_obj is not None and sl.precomputed and not from_results,
                   measured, notices,
                   dict(sorted(hist.items())))


def boards() -> list[dict]:
    """Every board (backend × device) with its ranked submissions per track and measured peak."""
    from django.db.models import Count

    from leaderboard.models import BackendPeak, Board, BoardEntry

    peaks = {(p.backend, p.device): p for p in BackendPeak.objects.all()}
    counts: dict[tuple[int, str], int] = {}
    for track in TRACKS:
        for c in (BoardEntry.objects.filter(slice="", track=track, submission__isnull=False)
                  .filter(ranked_filter(track)).values("board_id").annotate(n=Count("id"))):
            counts[(c["board_id"], track)] = c["n"]
    out = []
    for b in Board.objects.all():
        p = peaks.get((b.backend, b.device))
        out.append({"backend": b.backend, "device": b.device, "updated_at": b.updated_at,
                    "submissions": {t: counts.get((b.pk, t), 0) for t in TRACKS},
                    "peak": {"flops_per_s": p.flops_per_s, "bytes_per_s": p.bytes_per_s,
                             "measured_at": p.measured_at} if p else None})
    return out
