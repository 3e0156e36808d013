"""Leaderboard pages: the boards, the backend × domain matrix, the task catalogue and a
workload's page (with its roofline), comparing two submissions, and optimization traces. Numbers
come from ``leaderboard.ranking`` only."""

from __future__ import annotations

import difflib
import math
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from evaluator import suite
from evaluator.backends.emulation import is_emulated
from evaluator.suite import sources
from evaluator.vocabulary import BackendKind, Baseline, Status, Track
from leaderboard import catalogue
from leaderboard import matrix as matrix_data
from leaderboard import plots
from leaderboard.models import BackendPeak, BaselineSample, Board
from leaderboard.ranking import (BASELINES, FAST_P, SORTS, TRACKS, VIEWS, BoardQuery, BoardQuerySerializer, board,
                                 boards, ranked_filter)
from leaderboard.ranking.queries import find_board
from leaderboard.slices import choices, track_tasks
from portal.models import Result, Submission

PAGE_SIZE = 100
COLUMNS = [  # (sort key, label, tooltip)
    ("rank", "#", "rank: Fast@p, then Correct@1, then the deployable geomean"),
    ("name", "entry", ""),
    ("correct", "Correct@1", "correct tasks / all tasks of the board (missing and failed count as wrong)"),
    ("fast", "Fast@{p}", "tasks correct and at least p× as fast as the baseline / all tasks"),
    ("fast_sig", "Fast@{p} (sig.)", ("significant Fast@p: tasks correct and the lower bound of the 95 % CI of "
                                     "the speedup ≥ p / all tasks (a speedup within noise of p does not count)")),
    ("generalisation", "generalisation",
     ("verified run: of the patterns correct on every public workload, the share also correct on every "
      "held-out workload of the pattern (patterns without a held-out result not counted); – without one")),
    ("generalisation_fast", "generalisation, fast",
     "as generalisation, the held-out results also at least as fast as tvm-default (what Fast@1.0 counts)"),
    ("geomean_correct", "geomean, correct", "geometric-mean speedup over the correct tasks only"),
    ("geomean_deployable", "geomean, deployable",
     "geometric-mean speedup over all tasks; a failed or missing task counts 1.0 (the baseline is kept)"),
    ("roofline", "roofline median", "median over correct tasks of achieved / attainable performance at the "
                                    "backend's measured peaks"),
    ("attempted", "attempted", "tasks with an entry in the bundle (not missing)"),
]


def _page_number(request: HttpRequest) -> int:
    try:
        return max(1, min(int(request.GET.get("page", "1")), 10_000))
    except ValueError:
        return 1


def _headers(q: BoardQuery) -> list[dict]:
    out = []
    for key, label, tip in COLUMNS:
        better = SORTS[key]
        active = q.sort == key
        order = q.order or better
        nxt = ("asc" if order == "desc" else "desc") if active else better
        out.append({
            "key": key, "label": label.format(p=f"{q.p:.1f}"), "tip": tip,
            "better": "" if key in ("rank", "name") else ("↑" if better == "desc" else "↓"),
            "url": "?" + urlencode(q.params(sort=key, order=None if nxt == better else nxt)),
            "arrow": ("▼" if order == "desc" else "▲") if active else "",
        })
    return out


def board_page(request: HttpRequest) -> HttpResponse:
    # a bad parameter falls back to its default; the page names it above the board
    q, errors = BoardQuerySerializer.parse(request.GET)
    r = board(query=q, with_histogram=True)
    q = r.query
    n_subs = r.submissions
    pages = max(1, math.ceil(n_subs / PAGE_SIZE))
    page = min(_page_number(request), pages)
    rows = r.page((page - 1) * PAGE_SIZE, PAGE_SIZE)
    params = q.params()
    domains = sorted({d for x in rows for d in x.domains})
    return render(request, "leaderboard/board.html", {
        "r": r, "q": q, "rows": rows, "errors": list(errors.values()), "headers": _headers(q), "domains": domains,
        "boards": list(Board.objects.values("backend", "device")), "tracks": TRACKS, "views": VIEWS,
        "baselines": BASELINES, "fast_p": [f"{p:.1f}" for p in FAST_P], "choices": choices(),
        "page": page, "pages": pages, "page_size": PAGE_SIZE,
        "prev_url": "?" + urlencode({**params, "page": page - 1}) if page > 1 else "",
        "next_url": "?" + urlencode({**params, "page": page + 1}) if page < pages else "",
        "query_string": urlencode(params),
        "plot_speedups": plots.speedup_distribution(r) if r.baseline_available else "",
        "plot_scatter": plots.correct_vs_fast(r) if r.baseline_available else "",
        "plot_domains": plots.domain_bars(r) if r.baseline_available else "",
    })


def boards_page(request: HttpRequest) -> HttpResponse:
    return render(request, "leaderboard/boards.html", {"boards": boards()})


def matrix_page(request: HttpRequest) -> HttpResponse:
    track = request.GET.get("track") if request.GET.get("track") in TRACKS else Track.PUBLIC
    sub = None
    if request.GET.get("submission"):
        try:
            sub = Submission.objects.get(pk=int(request.GET["submission"]))
        except (ValueError, Submission.DoesNotExist):
            raise Http404("no such submission") from None
        if not sub.visible_to(request.user):
            raise Http404("no such submission")
        data = matrix_data.for_submission(sub.pk, track)
        title = f"Fast@1.0 of {sub.name} per backend and domain"
    else:
        try:
            top = max(1, min(int(request.GET.get("top", "10")), 100))
        except ValueError:
            top = 10
        data = matrix_data.across_top(top, track)
        title = f"Fast@1.0 per backend and domain: mean of each board's top {top}"
    plot = plots.heatmap([b["label"] for b in data["boards"]], data["domains"], data["z"], title,
                         data["hover"]) if data["boards"] else ""
    table = [{"label": b["label"], "cells": z} for b, z in zip(data["boards"], data["z"])]
    return render(request, "leaderboard/matrix.html", {"data": data, "table": table, "plot": plot, "sub": sub,
                                                       "title": title, "track": track, "tracks": TRACKS})


def tasks_page(request: HttpRequest) -> HttpResponse:
    """The task catalogue: the served public workloads, filtered, counted per facet, paginated.
    A bad parameter is named and left out (400)."""
    filters, errors = catalogue.CatalogueQuerySerializer.parse(request.GET)
    c = catalogue.catalogue(filters, errors)
    return render(request, "leaderboard/tasks.html", {"c": c, "facets": catalogue.FACETS},
                  status=400 if errors else 200)


def workload_page(request: HttpRequest, workload: str) -> HttpResponse:
    """A workload's catalogue entry: what it computes, shapes and work, the reference, the
    canonical TVMScript, the prompt a model gets, baseline times and the top entries per board,
    and a roofline on the chosen board."""
    try:
        w = suite.get_workload(workload)
    except KeyError:
        raise Http404("no such workload") from None
    if w.hidden:
        raise Http404("no such workload")  # held out: never shown, not even that it exists
    q, errors = BoardQuerySerializer.parse(request.GET)
    mode, mode_errors = catalogue.PromptModeSerializer.parse(request.GET)
    errors.update(mode_errors)
    board_obj = find_board(q.backend, q.device)
    q = BoardQuery(backend=q.backend, device=board_obj.device if board_obj else "")
    peak = BackendPeak.objects.filter(backend=q.backend, device=q.device).first()
    by_bytes = w.flops == 0
    work = w.bytes if by_bytes else w.flops
    points: list[dict] = []
    results = (Result.objects.filter(backend=q.backend, device=q.device, track=Track.PUBLIC, workload=w.id,
                                     status=Status.CORRECT, time_s__gt=0).filter(ranked_filter(Track.PUBLIC))
               .order_by("time_s").values("submission_id", "submission__name", "time_s", "roofline_fraction")[:50])
    results = list(results)
    for x in results:
        points.append({"name": x["submission__name"], "kind": "submission", "y": work / x["time_s"],
                       "roofline_fraction": x["roofline_fraction"], "submission_id": x["submission_id"],
                       "time_s": x["time_s"]})
    sample = BaselineSample.objects.filter(board=board_obj, workload=w.id).first() if board_obj else None
    if sample and sample.time_s:
        for name in BASELINES:
            s = sample.speedup.get(name)
            if s:
                t = sample.time_s * s  # t_X = t_candidate · (t_X / t_candidate)
                points.append({"name": name, "kind": "baseline", "y": work / t, "time_s": t,
                               "roofline_fraction": sample.roofline_fraction / s if sample.roofline_fraction else None})
    plot = ""
    if peak:
        plot = plots.roofline(ai=w.flops / max(w.bytes, 1), peak_flops=peak.flops_per_s, peak_bw=peak.bytes_per_s,
                              points=points, by_bytes=by_bytes)
    info = catalogue.backend_info(q.backend)
    script, script_note = catalogue.canonical_script(w)
    timed = catalogue.baseline_times([w.id])
    return render(request, "leaderboard/workload.html", {
        "w": w, "info": w.describe(), "q": q, "errors": list(errors.values()), "peak": peak, "plot": plot,
        "points": points, "by_bytes": by_bytes, "ai": w.flops / max(w.bytes, 1),
        "boards": list(Board.objects.values("backend", "device")),
        "flops": catalogue.human(w.flops, "FLOP"), "bytes": catalogue.human(w.bytes, "B"),
        "reference": sources.reference_source(w.pattern), "script": script, "script_note": script_note,
        "prompt": catalogue.model_prompt(w, info, mode), "prompt_backend": info, "mode": mode,
        "modes": catalogue.MODES, "prompt_version": catalogue.CURRENT, "budget": catalogue.PROMPT_BUDGET,
        "baselines": BASELINES, "baseline_times": catalogue.baseline_rows(w, timed),
        "tops": catalogue.top_entries(w, timed),
        "starter": catalogue.starter_links(w),
    })


# ----------------------------------------------------------------------------- comparison


def _visible_submission(request: HttpRequest, pk: int) -> Submission:
    sub = get_object_or_404(Submission.objects.select_related("owner"), pk=pk)
    if not sub.visible_to(request.user):
        raise Http404("no such submission")
    return sub


def _geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def compare_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Per-task speedup ratio of a submission against another submission or a baseline on one
    board: ratio = t_other / t_this (> 1: this one is faster)."""
    sub = _visible_submission(request, pk)
    against = (request.GET.get("against") or Baseline.TVM_DEFAULT).strip()
    backend = request.GET.get("backend") or (sub.backends[0] if sub.backends else BackendKind.CPU_LLVM)
    mine = {r.workload: r for r in sub.results.filter(backend=backend, track=Track.PUBLIC, hidden=False)}
    other_sub = None
    errors = []
    if against in BASELINES:
        others = None
        other_label = against
    else:
        try:
            other_sub = _visible_submission(request, int(against))
        except (ValueError, Http404):
            errors.append(f"no submission {against[:20]!r} to compare with; comparing with tvm-default")
            against, other_label, others = Baseline.TVM_DEFAULT, Baseline.TVM_DEFAULT, None
        else:
            others = {r.workload: r
                      for r in other_sub.results.filter(backend=backend, track=Track.PUBLIC, hidden=False)}
            other_label = other_sub.name
    # an emulated board's results are real and its times the emulator's: shown nowhere
    emulated = is_emulated(backend) or any(is_emulated(backend, r.device) for r in mine.values())
    rows = []
    for w in track_tasks(Track.PUBLIC):
        a = mine.get(w.id)
        a_ok = a is not None and a.status == Status.CORRECT
        a_s = (a.record.get("speedup") or {}) if a else {}
        if others is None:
            b_status = Status.CORRECT if against == Baseline.TVM_DEFAULT or a_s.get(against) else "–"
            ratio = a_s.get(against) if a_ok else None
            b_time = a.time_s * a_s[against] if a_ok and a.time_s and a_s.get(against) else None
        else:
            b = others.get(w.id)
            b_status = b.status if b else Status.MISSING
            b_s = (b.record.get("speedup") or {}) if b else {}
            b_time = b.time_s if b else None
            # Both against the same tvm-default build: s_a / s_b = t_b / t_a
            default = Baseline.TVM_DEFAULT
            ratio = (a_s[default] / b_s[default]
                     if a_ok and b and b.status == Status.CORRECT and a_s.get(default) and b_s.get(default) else None)
        if emulated:
            ratio = b_time = None
        rows.append({"workload": w.id, "a_status": a.status if a else Status.MISSING,
                     "a_time": a.time_s if a and not emulated else None,
                     "b_status": b_status, "b_time": b_time, "ratio": ratio})
    ratios = sorted((r["ratio"], r["workload"]) for r in rows if r["ratio"])
    summary = {"both": len(ratios), "faster": sum(1 for x, _ in ratios if x > 1),
               "slower": sum(1 for x, _ in ratios if x < 1), "geomean": _geomean([x for x, _ in ratios])}
    title = f"{sub.name} vs {other_label}: t({other_label}) / t({sub.name}) per task, on {backend}"
    candidates = (Submission.objects.filter(public=True, state=Submission.State.FINISHED).exclude(pk=sub.pk)
                  .order_by("-created_at").values("pk", "name")[:200])
    return render(request, "leaderboard/compare.html", {
        "sub": sub, "other_sub": other_sub, "other_label": other_label, "against": against, "backend": backend,
        "rows": rows, "summary": summary, "errors": errors, "baselines": BASELINES, "candidates": candidates,
        "emulated": emulated, "plot": None if emulated else plots.ratio_bars([w for _, w in ratios],
                                                                           [x for x, _ in ratios], title),
    })


# ----------------------------------------------------------------------------- traces

MAX_DIFF_LINES = 5000  # IR larger than this is shown but not diffed (difflib is quadratic at worst)


def trace_page(request: HttpRequest, pk: int, backend: str, workload: str) -> HttpResponse:
    sub = _visible_submission(request, pk)
    result = (sub.results.filter(backend=backend, workload=workload, track=Track.PUBLIC, hidden=False)
              .first())
    if result is None:
        raise Http404("no such task in this submission")
    steps = [s for s in (result.record.get("trace") or []) if isinstance(s, dict)]
    if not steps:
        raise Http404("this task has no optimization trace")
    try:
        chosen = int(request.GET.get("step", ""))
    except ValueError:
        chosen = None
    with_ir = [s for s in steps if isinstance(s.get("ir"), str)]
    if chosen is None or not any(s.get("step") == chosen for s in steps):
        chosen = (with_ir[-1] if with_ir else steps[-1]).get("step")
    current = next(s for s in steps if s.get("step") == chosen)
    previous = None
    for s in steps:
        if s.get("step") == chosen:
            break
        if isinstance(s.get("ir"), str):
            previous = s
    diff, diff_note = [], ""
    if isinstance(current.get("ir"), str):
        if previous is None:
            diff_note = "no earlier step carries IR: nothing to diff against"
        else:
            a, b = previous["ir"].splitlines(), current["ir"].splitlines()
            if max(len(a), len(b)) > MAX_DIFF_LINES:
                diff_note = f"IR over {MAX_DIFF_LINES} lines: not diffed"
            else:
                for line in difflib.unified_diff(a, b, f"step {previous.get('step')}", f"step {chosen}", lineterm=""):
                    kind = ("meta" if line.startswith(("---", "+++", "@@")) else
                            "add" if line.startswith("+") else "del" if line.startswith("-") else "ctx")
                    diff.append((kind, line))
                if not diff:
                    diff_note = f"the IR is unchanged from step {previous.get('step')}"
    return render(request, "leaderboard/trace.html", {
        "sub": sub, "result": result, "steps": steps, "current": current, "chosen": chosen, "previous": previous,
        "diff": diff, "diff_note": diff_note, "plot": plots.trace_latency(steps),
        "endpoint": any("prompt" in s or "reply" in s for s in steps),
    })
