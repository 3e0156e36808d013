"""Keeping the precomputed boards current: ``result_landed`` is called for every stored result
(``portal.evaluation.store``); ``rebuild`` recomputes everything (``manage.py rebuild_boards``).

A refresh rescores one submission on one board and track for every precomputed slice with
``ranking.entry_metrics`` — the ranking function's own scoring — and replaces its entries; a
result that brings newer baseline timings also rescores the board's baseline rows.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from leaderboard.models import BackendPeak, BaselineSample, Board, BoardEntry
from leaderboard.ranking import BASELINES, TRACKS, baseline_records, baseline_samples, entry_metrics
from leaderboard.slices import precomputed_tasks

log = logging.getLogger(__name__)


def board_for(backend: str, device: str) -> Board:
    b, _ = Board.objects.get_or_create(backend=backend, device=device or "")
    return b


def _bump(board: Board) -> None:
    Board.objects.filter(pk=board.pk).update(version=F("version") + 1, updated_at=timezone.now())


def submission_records(submission_id: int, board: Board, track: str) -> dict[str, dict]:
    from portal.models import Result

    return {r["workload"]: {"status": r["status"], "speedup": r["record__speedup"] or {},
                            "roofline_fraction": r["roofline_fraction"]}
            for r in Result.objects.filter(submission_id=submission_id, backend=board.backend, device=board.device,
                                           track=track)
            .values("workload", "status", "record__speedup", "roofline_fraction")}


def score_submission(submission_id: int, board: Board, track: str, by_task: dict[str, dict]) -> list[BoardEntry]:
    now = timezone.now()
    out = []
    for sl, tasks in precomputed_tasks(track):
        metrics, hist = entry_metrics(by_task, tasks)
        out.append(BoardEntry(board=board, track=track, slice=sl.key, submission_id=submission_id,
                              metrics=metrics, histogram=hist, updated_at=now))
    return out


def refresh_submission(submission_id: int, board: Board, track: str) -> None:
    by_task = submission_records(submission_id, board, track)
    entries = score_submission(submission_id, board, track, by_task) if by_task else []
    with transaction.atomic():
        Board.objects.select_for_update().filter(pk=board.pk).first()  # one refresh of a board at a time
        BoardEntry.objects.filter(board=board, track=track, submission_id=submission_id).delete()
        BoardEntry.objects.bulk_create(entries)
        _bump(board)


def score_baselines(board: Board, samples: dict) -> list[BoardEntry]:
    now = timezone.now()
    out = []
    for track in TRACKS:
        for sl, tasks in precomputed_tasks(track):
            for name in BASELINES:
                metrics, hist = entry_metrics(baseline_records(name, samples, tasks), tasks)
                out.append(BoardEntry(board=board, track=track, slice=sl.key, baseline=name, metrics=metrics,
                                      histogram=hist, updated_at=now))
    return out


def refresh_baselines(board: Board) -> None:
    entries = score_baselines(board, baseline_samples(board))
    with transaction.atomic():
        Board.objects.select_for_update().filter(pk=board.pk).first()
        BoardEntry.objects.filter(board=board, submission__isnull=True).delete()
        BoardEntry.objects.bulk_create(entries)
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
    if result.status != "correct" or "tvm-default" not in speedup:
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
        refresh_baselines(board)
    refresh_submission(result.submission_id, board, result.track)


def record_peak(backend: str, device: str, peak: dict, *, replace: bool = False) -> BackendPeak:
    """Store a backend's measured peak on a device (the first measurement unless ``replace``)."""
    values = {"flops_per_s": peak["flops_per_s"], "bytes_per_s": peak["bytes_per_s"], "detail": peak,
              "measured_at": timezone.now()}
    if replace:
        p, _ = BackendPeak.objects.update_or_create(backend=backend, device=device or "", defaults=values)
    else:
        p, _ = BackendPeak.objects.get_or_create(backend=backend, device=device or "", defaults=values)
    return p


def rebuild(stdout=None) -> dict:
    """Recompute every board from the stored results (samples, baseline rows, submission rows)."""
    from portal.models import Result

    say = stdout.write if stdout else (lambda m: None)
    pairs = set(Result.objects.order_by().values_list("backend", "device").distinct())
    counts = {"boards": 0, "entries": 0}
    for backend, device in sorted(pairs):
        board = board_for(backend, device)
        BaselineSample.objects.filter(board=board).delete()
        best: dict[str, BaselineSample] = {}
        for r in (Result.objects.filter(backend=backend, device=device, status="correct")
                  .values("workload", "record__speedup", "roofline_fraction", "time_s", "created_at").iterator()):
            speedup = _timed(r["record__speedup"])
            if "tvm-default" in speedup and _better_sample(speedup, r["created_at"], best.get(r["workload"])):
                best[r["workload"]] = BaselineSample(board=board, workload=r["workload"], speedup=speedup,
                                                     roofline_fraction=r["roofline_fraction"],
                                                     time_s=r["time_s"], measured_at=r["created_at"])
        BaselineSample.objects.bulk_create(best.values())
        groups = sorted(Result.objects.filter(backend=backend, device=device).order_by()
                        .values_list("submission_id", "track").distinct())
        # One transaction per board: readers see the old rows until the new ones are all in.
        with transaction.atomic():
            BoardEntry.objects.filter(board=board).delete()
            entries = score_baselines(board, baseline_samples(board))
            for sid, track in groups:
                entries += score_submission(sid, board, track, submission_records(sid, board, track))
                if len(entries) >= 5000:
                    BoardEntry.objects.bulk_create(entries, batch_size=1000)
                    counts["entries"] += len(entries)
                    entries = []
            BoardEntry.objects.bulk_create(entries, batch_size=1000)
            counts["entries"] += len(entries)
            _bump(board)
        counts["boards"] += 1
        say(f"{board}: {len(groups)} submission rows rebuilt")
    # Boards with no result any more keep no entries.
    BoardEntry.objects.exclude(board__in=[board_for(b, d) for b, d in pairs]).delete()
    return counts

