"""The task catalogue: what the ``/tasks/`` page lists and what a workload's page shows.

* :class:`CatalogueQuerySerializer` reads the list's filters (level, domain, family, pattern,
  dtype, backend, a text search, the page); each bad one is named.
* :func:`catalogue` filters the served public workloads (``EKB_TASKS``; a held-out workload is
  never among them), counts each facet's values and cuts one page.
* :func:`canonical_script` and :func:`model_prompt`: a workload's canonical TVMScript and the
  exact messages an endpoint's model is sent; they cost a TVM build and print, so they are
  cached. (Its NumPy reference as written: ``evaluator.suite.sources``.)
* :func:`baseline_times` (the median of the stored runs' baseline times per board) and
  :func:`top_entries` (each board's best entries on this one task, ranked by the boards' own
  ``scoring.rank`` over ``entry_metrics``: no second ranking).
"""

from __future__ import annotations

import hashlib
import json
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db.models import Count
from django.urls import NoReverseMatch, reverse
from rest_framework import serializers

from evaluator import suite
from evaluator.agents.budget import Budget
from evaluator.agents.modes import MODES
from evaluator.agents.prompts import CURRENT, PromptSet
from evaluator.backends.base import BackendInfo
from evaluator.backends.emulation import is_emulated
from evaluator.scoring import DEFAULT_BASELINE
from evaluator.vocabulary import Baseline, Status, Track
from leaderboard.models import BaselineSample, Board
from leaderboard.ranking import BASELINES, Entry, entry_metrics, known_backends, ranked_filter
from leaderboard.ranking.params import KnownValueField
from leaderboard.ranking.queries import SUBMISSION_COLUMNS, measured_anywhere
from leaderboard.ranking.scoring import baseline_records, measured_baselines, rank
from leaderboard.slices import choices
from portal import starter
from portal.models import Result, Submission

PAGE_SIZE = 50  # workloads a page of the list
MAX_PAGE = 1000
MAX_SEARCH_CHARS = 100
MAX_SEARCH_TERMS = 10
MAX_PARAM_CHARS = 200  # a longer value is cut before it is validated (and echoed in a message)
FACETS = ("level", "domain", "family", "dtype", "backend")
TOP_ENTRIES = 5  # submissions shown per board on a workload's page
MAX_BOARDS = 20  # boards a workload's page ranks
MAX_TIMED_RESULTS = 5000  # results read for the baseline medians of one call (the latest first)
MAX_RANKED_RESULTS = 2000  # correct results ranked per workload page, the latest first (~0.2 ms each)
CACHE_S = 24 * 3600  # a canonical script or prompt changes only with the code
BACKEND_INFO_CACHE_S = 300
MAX_SHOWN_SCRIPT_CHARS = 200_000
SPEEDUP_COLUMNS = {Baseline.TVM_DEFAULT: "speedup_tvm_default", Baseline.TVM_TUNED: "speedup_tvm_tuned",
                   Baseline.VENDOR: "speedup_vendor"}
PROMPT_BUDGET = Budget()  # an endpoint's default budget: what the task prompt states when none is given
STARTER_BUNDLE_ROUTE = "task-starter-bundle"
STARTER_BUNDLE_PATH = "/api/v1/tasks/starter-bundle/"  # when the route is not registered (yet)


# ----------------------------------------------------------------------------- the list's filters


class PatternField(KnownValueField):
    """A pattern id; there are hundreds, so a bad one is not answered with all of them."""

    default_error_messages = {"unknown": "unknown {name} {value!r}; a pattern id is family/name, as in the list's "
                                         "workload ids (e.g. matmul/matmul)"}


class CatalogueQuerySerializer(serializers.Serializer):
    """The ``/tasks/`` page's query parameters, all optional: the facets (``level``, ``domain``,
    ``family``, ``pattern``, ``dtype``, and ``backend``: measured on it), ``q`` (words that must
    all occur in a workload's id, computation, domains or source) and ``page``."""

    level = KnownValueField((), required=False)
    domain = KnownValueField((), required=False)
    family = KnownValueField((), required=False)
    pattern = PatternField((), required=False)
    dtype = KnownValueField((), required=False)
    backend = KnownValueField((), required=False, help_text="workloads with a stored baseline time on this backend")
    q = serializers.CharField(required=False, allow_blank=True, max_length=MAX_SEARCH_CHARS)
    page = serializers.IntegerField(required=False, min_value=1, max_value=MAX_PAGE)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # the values the whole public suite has (a hidden workload adds none)
        for f, values in choices().items():
            self.fields[f].choices = values
        self.fields["pattern"].choices = tuple(sorted(p.id for p in suite.patterns()))
        self.fields["backend"].choices = tuple(self.context.get("backends") or known_backends())

    @classmethod
    def parse(cls, params) -> tuple[dict, dict[str, str]]:
        """The valid parameters of ``params`` and {parameter: problem} for each bad one (which is
        then left out: the list is shown without it)."""
        names = list(cls._declared_fields)
        data = {n: str(params.get(n))[:MAX_PARAM_CHARS + 1] for n in names if params.get(n) is not None}
        context = {"backends": known_backends()}
        errors: dict[str, str] = {}
        while not (s := cls(data=data, context=context)).is_valid():
            bad = [n for n in s.errors if n in data]
            if not bad:
                raise ValueError(f"catalogue query left unparsed: {s.errors}")
            for n in bad:
                errors[n] = f"{n}: {s.errors[n][0]}" if n in ("q", "page") else str(s.errors[n][0])
                del data[n]
        return dict(s.validated_data), {n: errors[n] for n in names if n in errors}


# ----------------------------------------------------------------------------- the list


@dataclass
class Catalogue:
    filters: dict  # the valid filters applied (facets, pattern, q; not the page)
    errors: dict[str, str]
    served: int  # public workloads this deployment serves
    matched: int
    counts: dict[str, list[tuple[str, int]]]  # facet → (value, workloads) with the other filters applied
    page: Page
    rows: list[dict] = field(default_factory=list)
    board: Board | None = None  # the board whose tvm-default times the rows show (filter backend)

    def url(self, **change) -> str:
        """The list's query string with filters changed ("" drops one), on the first page unless
        ``page`` is changed."""
        params = {**self.filters, **change}
        return "?" + urlencode({k: v for k, v in params.items() if v not in (None, "")})

    @property
    def facets(self) -> list[dict]:
        """Each facet for the page: its values with counts and links, and the link clearing it."""
        out = []
        for f in FACETS:
            chosen = self.filters.get(f)
            out.append({"name": f, "label": "measured on" if f == "backend" else f, "chosen": chosen,
                        "clear": self.url(**{f: ""}),
                        "values": [{"value": v, "n": n, "chosen": v == chosen, "url": self.url(**{f: v})}
                                   for v, n in self.counts[f]]})
        return out

    @property
    def pages(self) -> dict:
        p = self.page
        return {"prev": self.url(page=p.previous_page_number()) if p.has_previous() else "",
                "next": self.url(page=p.next_page_number()) if p.has_next() else "",
                "clear_pattern": self.url(pattern="")}


def _measured() -> dict[str, set[str]]:
    """Workload id → the backends with a stored baseline sample of it (any device)."""
    out: dict[str, set[str]] = defaultdict(set)
    for workload, backend in BaselineSample.objects.order_by().values_list("workload", "board__backend").distinct():
        out[workload].add(backend)
    return out


def _values(w, facet: str, measured: dict[str, set[str]]) -> tuple[str, ...]:
    if facet == "domain":
        return w.domains
    if facet == "backend":
        return tuple(measured.get(w.id, ()))
    return (getattr(w, facet),)


def _haystack(w) -> str:
    return " ".join([w.id, w.pattern.summary, w.level, w.dtype, w.source, *w.domains]).lower()


def _keep(w, filters: dict, measured: dict[str, set[str]], skip: str = "") -> bool:
    for f in FACETS:
        if f != skip and filters.get(f) and filters[f] not in _values(w, f, measured):
            return False
    if filters.get("pattern") and w.pattern.id != filters["pattern"]:
        return False
    terms = (filters.get("q") or "").lower().split()[:MAX_SEARCH_TERMS]
    return not terms or all(t in _haystack(w) for t in terms)


def _order(facet: str, values) -> list[str]:
    known = {"level": suite.LEVELS, "domain": suite.DOMAINS}.get(facet)
    return [v for v in known if v in values] if known else sorted(values)


def catalogue(filters: dict, errors: dict[str, str] | None = None, page_size: int = PAGE_SIZE) -> Catalogue:
    """The served public workloads matching ``filters`` (from :class:`CatalogueQuerySerializer`),
    each facet's counts (over the workloads the *other* filters keep, so a chosen value still
    shows its alternatives) and the requested page."""
    served = suite.served(settings.EKB_TASKS)
    measured = _measured()
    matched = [w for w in served if _keep(w, filters, measured)]
    counts = {}
    for f in FACETS:
        c = Counter(v for w in served if _keep(w, filters, measured, skip=f) for v in _values(w, f, measured))
        chosen = filters.get(f)
        counts[f] = [(v, c[v]) for v in _order(f, set(c) | ({chosen} if chosen else set()))]
    page = Paginator(matched, page_size).get_page(filters.get("page") or 1)
    board = Board.objects.filter(backend=filters["backend"]).order_by("-updated_at").first() \
        if filters.get("backend") else None
    times = baseline_times([w.id for w in page], board) if board else {}
    shown = {k: v for k, v in filters.items() if k != "page"}
    rows = [_row(w, times.get((board.backend, board.device), {}).get(w.id) if board else None) for w in page]
    return Catalogue(shown, errors or {}, len(served), len(matched), counts, page, rows, board)


def _row(w, times: dict | None) -> dict:
    return {"id": w.id, "summary": w.pattern.summary, "pattern": w.pattern.id, "level": w.level,
            "family": w.family, "domains": w.domains, "dtype": w.dtype, "flops": human(w.flops, "FLOP"),
            "inputs": ", ".join(f"{t.name} {'×'.join(map(str, t.shape))}" for t in w.inputs),
            "vendor": w.has_vendor, "tvm_default": (times or {}).get(Baseline.TVM_DEFAULT)}


def human(n: int | float, unit: str) -> str:
    """``33554432, "FLOP"`` → ``33.6 MFLOP``."""
    for scale, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(n) >= scale:
            return f"{n / scale:.1f} {prefix}{unit}"
    return f"{n:g} {unit}"


# ----------------------------------------------------------------------------- baseline times


@dataclass
class Timed:
    median_s: float
    runs: int


def _baseline_time(b: str, time_s, speedup, times: dict | None) -> float | None:
    t = ((times or {}).get(b) or {}).get("median_s")
    if t:
        return t
    # t_B = t_candidate · (t_B / t_candidate)
    return time_s * speedup if time_s and speedup else None


def baseline_times(workloads: list[str], board: Board | None = None) -> dict[tuple[str, str], dict[str, dict]]:
    """(backend, device) → workload → baseline → :class:`Timed`: the median of the baseline's
    time over the latest correct public results of ranked submissions (each run times the
    baselines beside the candidate); only ``board``'s when given."""
    qs = (Result.objects.filter(track=Track.PUBLIC, status=Status.CORRECT, workload__in=workloads)
          .filter(ranked_filter(Track.PUBLIC)))
    if board is not None:
        qs = qs.filter(backend=board.backend, device=board.device)
    found: dict[tuple[str, str], dict[str, dict[str, list[float]]]] = {}
    for backend, device, workload, time_s, *speedups, times in (
            qs.order_by("-created_at").values_list("backend", "device", "workload", "time_s",
                                                   *SPEEDUP_COLUMNS.values(), "record__times")[:MAX_TIMED_RESULTS]):
        per = found.setdefault((backend, device), {}).setdefault(workload, {})
        for b, s in zip(SPEEDUP_COLUMNS, speedups):
            t = _baseline_time(b, time_s, s, times)
            if t:
                per.setdefault(b, []).append(t)
    return {k: {w: {b: Timed(statistics.median(ts), len(ts)) for b, ts in per.items()} for w, per in ws.items()}
            for k, ws in found.items()}


def baseline_rows(w, timed: dict) -> list[dict]:
    """Per board in ``timed`` (:func:`baseline_times` of ``w``): the :class:`Timed` of each
    baseline, in BASELINES order (None where no run timed it)."""
    return [{"backend": b, "device": d, "times": [per.get(w.id, {}).get(name) for name in BASELINES]}
            for (b, d), per in sorted(timed.items())]


# ----------------------------------------------------------------------------- top entries


@dataclass
class BoardTop:
    board: Board
    rows: list  # ranking.Row: the best submissions, and the baseline rows, in rank order
    correct: int  # ranked submissions correct on this task
    attempted: int  # ranked submissions with a result for it
    emulated: bool
    times: dict[int, float]  # submission id → its time on the task
    baseline_times: dict[str, Timed]  # baseline → its median time on this board (:func:`baseline_times`)


def top_entries(w, timed: dict, limit: int = TOP_ENTRIES) -> list[BoardTop]:
    """Each board's best entries on ``w`` alone (public track, ranked submissions), with the
    baseline rows: the entries are scored by the boards' ``entry_metrics`` over this one task
    and ranked by their ``scoring.rank`` (Fast@1.0 against tvm-default, then Correct@1, then the
    geomean). Only correct results are read: a wrong or missing one ranks below every correct
    one, so the top rows are the same. ``timed``: :func:`baseline_times` of ``w``, for the
    baseline rows' times."""
    boards = list(Board.objects.all()[:MAX_BOARDS])
    on_task = Result.objects.filter(workload=w.id, track=Track.PUBLIC).filter(ranked_filter(Track.PUBLIC))
    attempted = {(r["backend"], r["device"]): r["n"]
                 for r in on_task.order_by().values("backend", "device").annotate(n=Count("id"))}
    results: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in (on_task.filter(status=Status.CORRECT).order_by("-created_at")
              .values("backend", "device", "submission_id", "status", "record__speedup", "record__speedup_ci",
                      "roofline_fraction", "time_s", *SUBMISSION_COLUMNS)[:MAX_RANKED_RESULTS]):
        results[(r["backend"], r["device"])].append(r)
    samples = {s["board_id"]: (s["speedup"], s["roofline_fraction"])
               for s in BaselineSample.objects.filter(workload=w.id).values("board_id", "speedup", "roofline_fraction")}
    out = []
    for b in boards:
        mine = results.get((b.backend, b.device), [])
        if not mine and b.pk not in samples:
            continue
        entries = []
        for r in mine:
            metrics, _ = entry_metrics({w.id: {"status": r["status"], "speedup": r["record__speedup"] or {},
                                               "speedup_ci": r["record__speedup_ci"] or {},
                                               "roofline_fraction": r["roofline_fraction"]}}, [w])
            created = r["submission__created_at"]
            entries.append(Entry(metrics, None, submission_id=r["submission_id"], name=r["submission__name"],
                                 owner=r["submission__owner__username"] or "",
                                 created_at=created.isoformat() if created else "",
                                 verified=r["submission__verification"] == Submission.Verification.FINISHED))
        sample = {w.id: samples[b.pk]} if b.pk in samples else {}
        for name in BASELINES:
            metrics, _ = entry_metrics(baseline_records(name, sample, [w]), [w])
            entries.append(Entry(metrics, None, baseline=name))
        emulated = is_emulated(b.backend, b.device)
        rows, _ = rank(entries, baseline=DEFAULT_BASELINE, p=1.0,
                       measured=measured_baselines(entries, measured_anywhere(b)), emulated=emulated)
        kept, n = [], 0
        for row in rows:
            if row.kind == "submission":
                n += 1
                if n > limit:
                    continue
            kept.append(row)
        out.append(BoardTop(b, kept, len(mine), attempted.get((b.backend, b.device), 0), emulated,
                            {r["submission_id"]: r["time_s"] for r in mine},
                            timed.get((b.backend, b.device), {}).get(w.id, {})))
    return out


# ----------------------------------------------------------------------------- TVMScript and prompts


def _key(*parts) -> str:
    return "ekb:catalogue:" + hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def canonical_script(w) -> tuple[str, str]:
    """(the canonical IRModule as TVMScript, a note: truncated, or why there is none); cached."""
    key = _key("script", w.id)
    hit = cache.get(key)
    if hit is None:
        try:
            text, note = w.canonical_module().script(), ""
        except Exception as e:  # noqa: BLE001 - a pattern that does not build is shown, not a 500
            text, note = "", f"the canonical module could not be printed: {type(e).__name__}: {e}"[:500]
        if len(text) > MAX_SHOWN_SCRIPT_CHARS:
            text, note = text[:MAX_SHOWN_SCRIPT_CHARS], f"truncated to its first {MAX_SHOWN_SCRIPT_CHARS} characters"
        hit = (text, note)
        cache.set(key, hit, CACHE_S)
    return hit


def backend_info(backend: str) -> BackendInfo:
    """The backend as the model is told of it: ``portal.starter.backend_info`` (a live worker's
    advertisement, else this machine's view, else the name), the same the API's task detail
    uses; kept a few minutes, since a local probe may load a driver."""
    key = _key("backend-info", backend)
    hit = cache.get(key)
    if hit is None:
        hit = starter.backend_info(backend).to_json()
        cache.set(key, hit, BACKEND_INFO_CACHE_S)
    return BackendInfo(**hit)


def model_prompt(w, info: BackendInfo, mode: str, version: str = CURRENT) -> list[dict]:
    """The messages an endpoint submission's model gets first for ``w`` (``run_task``): the
    system prompt and the task, with the default budget; cached."""
    budget = PROMPT_BUDGET
    prompts = PromptSet(version)
    key = _key("prompt", w.id, prompts.digest(), mode, info.to_json(), budget.to_json())
    hit = cache.get(key)
    if hit is None:
        try:
            hit = [{"role": "system", "content": prompts.system(w, mode)},
                   {"role": "user", "content": prompts.task(w, info, mode, budget)}]
        except Exception as e:  # noqa: BLE001 - shown on the page rather than a 500
            hit = [{"role": "error", "content": f"the prompt could not be built: {type(e).__name__}: {e}"[:500]}]
        cache.set(key, hit, CACHE_S)
    return hit


class PromptModeSerializer(serializers.Serializer):
    """The prompt a workload's page shows: which mode's."""

    mode = KnownValueField(MODES, default=MODES[0])

    @classmethod
    def parse(cls, params) -> tuple[str, dict[str, str]]:
        """The mode (the default where ``params`` name a bad one) and {"mode": problem}."""
        s = cls(data={"mode": str(params["mode"])[:MAX_PARAM_CHARS]} if params.get("mode") is not None else {})
        if s.is_valid():
            return s.validated_data["mode"], {}
        return MODES[0], {"mode": str(s.errors["mode"][0])}


def starter_bundle_url(w, backend: str) -> str:
    """The API's starter bundle (the tvm-default entries) of ``w`` on ``backend``."""
    try:
        base = reverse(STARTER_BUNDLE_ROUTE)
    except NoReverseMatch:
        base = STARTER_BUNDLE_PATH
    return base + "?" + urlencode({"tasks": w.id, "backend": backend})


def starter_links(w) -> list[tuple[str, str]]:
    """(backend, starter bundle URL) for each backend served here that has tvm-default entries."""
    return [(b, starter_bundle_url(w, b)) for b in settings.EKB_BACKENDS if b in starter.STARTER_BACKENDS]
