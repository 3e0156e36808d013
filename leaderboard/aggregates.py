"""Keeping the precomputed boards current: ``result_landed`` is called for every stored result
(``portal.evaluation.store`` announces it: ``portal.signals.result_landed``, received in
``leaderboard.receivers``); ``rebuild`` recomputes everything (``manage.py rebuild_boards``).

A refresh rescores one submission on one board and track with ``ranking.entry_metrics`` — the
ranking function's own scoring — in the precomputed slices that hold the landed task (every
slice for a submission's first result), and replaces those entries; a result that brings newer
baseline timings also rescores the board's baseline rows of those slices. A rebuild reads each
board's results in bulk and scores every row with the same functions.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from evaluator.vocabulary import Baseline, Status
from leaderboard.models import BackendPeak, BaselineSample, Board, BoardEntry
from leaderboard.ranking import BASELINES, TRACKS, baseline_records, baseline_samples, entry_metrics
from leaderboard.slices import precomputed_tasks, slices_with
from portal.models import Result

log = logging.getLogger(__name__)


def board_for(backend: str, device: str) -> Board:
    b, _ = Board.objects.get_or_create(backend=backend, device=device or "")
    return b


def _bump(board: Board) -> None:
    Board.objects.filter(pk=board.pk).update(version=F("version") + 1, updated_at=timezone.now())


def submission_records(submission_id: int, board: Board, track: str) -> dict[str, dict]:
    # speedup_ci: the record's per-baseline 95 % intervals, which decide significant Fast@p
    return {r["workload"]: {"status": r["status"], "speedup": r["record__speedup"] or {},
                            "speedup_ci": r["record__speedup_ci"] or {}, "roofline_fraction": r["roofline_fraction"]}
            for r in Result.objects.filter(submission_id=submission_id, backend=board.backend, device=board.device,
                                           track=track)
            .values("workload", "status", "record__speedup", "record__speedup_ci", "roofline_fraction")}


def score_submission(submission_id: int, board: Board, track: str, by_task: dict[str, dict],
                     only: frozenset[str] | None = None) -> list[BoardEntry]:
    """The submission's rows of every precomputed slice (``only``: of the slices with these keys)."""
    now = timezone.now()
    out = []
    for sl, tasks in precomputed_tasks(track):
        if only is not None and sl.key not in only:
            continue
        metrics, hist = entry_metrics(by_task, tasks)
        out.append(BoardEntry(board=board, track=track, slice=sl.key, submission_id=submission_id,
                              metrics=metrics, histogram=hist, updated_at=now))
    return out


def _touched(stored: set[str], track: str, workload: str | None) -> frozenset[str] | None:
    """Keys of the slices a result for ``workload`` can change, given the slices a row already
    has there (``stored``); None (rescore every slice) unless the row is in every slice already."""
    if workload is None or stored != {sl.key for sl, _ in precomputed_tasks(track)}:
        return None
    return slices_with(track).get(workload, frozenset())


def refresh_submission(submission_id: int, board: Board, track: str, workload: str | None = None) -> None:
    """Rescore the submission's rows on ``board`` and ``track``: every slice, or with ``workload``
    (the task whose result landed) only the slices that hold that task — the others' scores
    cannot have moved, and their stored rows (and each reader's decoded copy) stay as they are."""
    entries = BoardEntry.objects.filter(board=board, track=track, submission_id=submission_id)
    with transaction.atomic():
        Board.objects.select_for_update().filter(pk=board.pk).first()  # one refresh of a board at a time
        # Read under the lock: a refresh that waited for another one sees that one's result too.
        by_task = submission_records(submission_id, board, track)
        only = _touched(set(entries.values_list("slice", flat=True)), track, workload) if by_task else None
        if only is not None and not only:
            return  # a task no precomputed slice holds (not served on this track)
        (entries.filter(slice__in=only) if only is not None else entries).delete()
        BoardEntry.objects.bulk_create(score_submission(submission_id, board, track, by_task, only) if by_task else [])
        _bump(board)


def score_baselines(board: Board, samples: dict, only: dict[str, frozenset[str]] | None = None) -> list[BoardEntry]:
    """The baseline rows of every precomputed slice (``only``: track → the slice keys to score)."""
    now = timezone.now()
    out = []
    for track in TRACKS:
        for sl, tasks in precomputed_tasks(track):
            if only is not None and sl.key not in only[track]:
                continue
            for name in BASELINES:
                metrics, hist = entry_metrics(baseline_records(name, samples, tasks), tasks)
                out.append(BoardEntry(board=board, track=track, slice=sl.key, baseline=name, metrics=metrics,
                                      histogram=hist, updated_at=now))
    return out


def refresh_baselines(board: Board, workload: str | None = None) -> None:
    """Rescore the baseline rows: every slice, or with ``workload`` (whose sample changed) only
    the slices that hold it."""
    rows = BoardEntry.objects.filter(board=board, submission__isnull=True)
    with transaction.atomic():
        Board.objects.select_for_update().filter(pk=board.pk).first()
        stored = set(rows.values_list("track", "slice", "baseline"))
        only = None
        if workload is not None and stored == {(t, sl.key, b) for t in TRACKS for sl, _ in precomputed_tasks(t)
                                               for b in BASELINES}:
            only = {t: slices_with(t).get(workload, frozenset()) for t in TRACKS}
        if only is None:
            rows.delete()
        else:
            for t, keys in only.items():
                rows.filter(track=t, slice__in=keys).delete()
        BoardEntry.objects.bulk_create(score_baselines(board, baseline_samples(board), only))
        _bump(board)


def _timed(speedup: dict | None) -> dict:
    return {k: v for k, v in (speedup or {}).items() if k in BASELINES and v}


def _better_sample(speedup: dict, at, than: BaselineSample | None) -> bool:
    """The latest run that timed the most baselines wins (a run without the vendor call's
    timing never hides one with it)."""
    return than is None or (len(speedup), at) >= (len(than.speedup), than.measured_at)


def note_sample(board: Board, result) -> bool:
    """Keep the result's baseline timings when they are the best sample of its task; True if kept."""
    speedup = _timed((result.record or {}).get("speedup"))
    if result.status != Status.CORRECT or Baseline.TVM_DEFAULT not in speedup:
        return False
    if not _better_sample(speedup, result.created_at,
                          BaselineSample.objects.filter(board=board, workload=result.workload).first()):
        return False
    BaselineSample.objects.update_or_create(
        board=board, workload=result.workload,
        defaults={"speedup": speedup, "roofline_fraction": result.roofline_fraction, "time_s": result.time_s,
                  "measured_at": result.created_at})
    return True


def result_landed(result) -> None:
    """Refresh what one stored result changes: its submission's rows and, when it carries newer
    baseline timings, the baseline rows."""
    board = board_for(result.backend, result.device)
    if note_sample(board, result):
        refresh_baselines(board, result.workload)
    refresh_submission(result.submission_id, board, result.track, result.workload)


def results_landed(results) -> None:
    """Refresh what a batch of stored results changes (a measurement job's, announced at once):
    each board's baseline rows when a result carries newer baseline timings, and each
    submission's rows, rescored once per board and track."""
    touched, samples = set(), set()
    for r in results:
        board = board_for(r.backend, r.device)
        if note_sample(board, r):
            samples.add(board.pk)
        touched.add((r.submission_id, board.pk, r.track))
    boards = {b.pk: b for b in Board.objects.filter(pk__in={pk for _, pk, _ in touched})}
    for pk in samples:
        refresh_baselines(boards[pk])
    for submission_id, pk, track in sorted(touched):
        refresh_submission(submission_id, boards[pk], track)


def record_peak(backend: str, device: str, peak: dict, *, replace: bool = False) -> BackendPeak:
    """Store a backend's measured peak on a device (the first measurement unless ``replace``)."""
    values = {"flops_per_s": peak["flops_per_s"], "bytes_per_s": peak["bytes_per_s"], "detail": peak,
              "measured_at": timezone.now()}
    if replace:
        p, _ = BackendPeak.objects.update_or_create(backend=backend, device=device or "", defaults=values)
    else:
        p, _ = BackendPeak.objects.get_or_create(backend=backend, device=device or "", defaults=values)
    return p


REBUILD_SUBMISSIONS_PER_READ = 50  # one query reads these submissions' results on a board (~65k rows at 647 tasks)
REBUILD_ENTRIES_PER_WRITE = 5000


def _sample_key(speedup: dict, at, result_id: int) -> tuple:
    """What ``_better_sample`` compares, with the landing order (result id) breaking ties the way
    landing the results one by one does: of equal runs, the later one is kept."""
    return len(speedup), at, result_id


def rebuild(stdout=None) -> dict:
    """Recompute every board from the stored results (samples, baseline rows, submission rows).

    Reads each board's results in bulk (a few submissions per query, only the columns scoring
    needs) and scores every submission row with the same ``score_submission`` a landing result
    calls, so a rebuild equals landing the same results one by one."""
    say = stdout.write if stdout else (lambda m: None)
    pairs = set(Result.objects.order_by().values_list("backend", "device").distinct())
    counts = {"boards": 0, "entries": 0}
    for backend, device in sorted(pairs):
        board = board_for(backend, device)
        on_board = Result.objects.filter(backend=backend, device=device).order_by()
        sids = sorted(set(on_board.values_list("submission_id", flat=True)))
        best: dict[str, tuple[tuple, BaselineSample]] = {}
        groups = 0
        # One transaction per board: readers see the old rows until the new ones are all in.
        with transaction.atomic():
            BaselineSample.objects.filter(board=board).delete()
            BoardEntry.objects.filter(board=board).delete()
            entries: list[BoardEntry] = []
            for i in range(0, len(sids), REBUILD_SUBMISSIONS_PER_READ):
                by_group: dict[tuple[int, str], dict[str, dict]] = {}
                for rid, sid, track, workload, status, speedup, ci, roof, time_s, at in (
                        on_board.filter(submission_id__in=sids[i:i + REBUILD_SUBMISSIONS_PER_READ])
                        .values_list("id", "submission_id", "track", "workload", "status", "record__speedup",
                                     "record__speedup_ci", "roofline_fraction", "time_s", "created_at")):
                    by_group.setdefault((sid, track), {})[workload] = {
                        "status": status, "speedup": speedup or {}, "speedup_ci": ci or {}, "roofline_fraction": roof}
                    timed = _timed(speedup)
                    if status == Status.CORRECT and Baseline.TVM_DEFAULT in timed:
                        key = _sample_key(timed, at, rid)
                        if workload not in best or key >= best[workload][0]:
                            best[workload] = (key, BaselineSample(
                                board=board, workload=workload, speedup=timed, roofline_fraction=roof,
                                time_s=time_s, measured_at=at))
                for sid, track in sorted(by_group):
                    entries += score_submission(sid, board, track, by_group[(sid, track)])
                groups += len(by_group)
                if len(entries) >= REBUILD_ENTRIES_PER_WRITE:
                    BoardEntry.objects.bulk_create(entries, batch_size=1000)
                    counts["entries"] += len(entries)
                    entries = []
            BaselineSample.objects.bulk_create([s for _, s in best.values()], batch_size=1000)
            entries += score_baselines(board, baseline_samples(board))
            BoardEntry.objects.bulk_create(entries, batch_size=1000)
            counts["entries"] += len(entries)
            _bump(board)
        counts["boards"] += 1
        say(f"{board}: {groups} submission rows rebuilt")
    # Boards with no result any more keep no entries.
    BoardEntry.objects.exclude(board__in=[board_for(b, d) for b, d in pairs]).delete()
    return counts
