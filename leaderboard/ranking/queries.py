"""The boards' database reads: which board, which rows rank, the stored entries of a slice (or
its entries scored now from the results), the baseline samples, generalisation from verified
runs, and the list of boards. Scoring itself is :mod:`leaderboard.ranking.scoring`'s."""

from __future__ import annotations

from django.conf import settings
from django.db.models import Count, Q

from evaluator.backends.emulation import is_emulated
from leaderboard.models import BackendPeak, BaselineSample, Board, BoardEntry
from leaderboard.ranking import cache
from leaderboard.ranking.scoring import BASELINES, TRACKS, Entry, baseline_records, entry_metrics, generalisation_of
from leaderboard.slices import Slice
from portal.models import Result, Submission

ENTRY_READ_ATTEMPTS = 3  # a refresh may replace rows between the two reads: read again, this often
MAX_DEVICE_LENGTH = 200
# What a row needs to know of its submission, read with the entries or the results
SUBMISSION_COLUMNS = ("submission__name", "submission__owner__username", "submission__created_at",
                      "submission__verification")


def known_backends() -> list[str]:
    """The backends a board may be asked for: those this deployment evaluates, then any other
    one with a board."""
    return list(dict.fromkeys(list(settings.EKB_BACKENDS) + list(
        Board.objects.order_by("backend").values_list("backend", flat=True).distinct())))


def board_exists(backend: str, device: str) -> bool:
    return len(device) <= MAX_DEVICE_LENGTH and Board.objects.filter(backend=backend, device=device).exists()


def find_board(backend: str, device: str | None) -> Board | None:
    """The board of ``backend`` on ``device``; with no device, the backend's most recently
    updated board."""
    boards = Board.objects.filter(backend=backend)
    if device is not None:
        return boards.filter(device=device).first()
    return boards.order_by("-updated_at").first()


def ranked_filter(track: str, prefix: str = "submission__") -> Q:
    """The rows of submissions that rank on ``track``: public and finished (and on the verified
    track, verified)."""
    q = Q(**{f"{prefix}public": True, f"{prefix}state": Submission.State.FINISHED})
    if track == Result.VERIFIED:
        q &= Q(**{f"{prefix}verification": Submission.Verification.FINISHED})
    return q


def _entry(row: dict, metrics: dict, histogram: dict | None) -> Entry:
    """An Entry from a row read with SUBMISSION_COLUMNS (and ``submission_id``, ``baseline``)."""
    if row["submission_id"] is None:
        return Entry(metrics, histogram, baseline=row["baseline"])
    created = row["submission__created_at"]
    return Entry(metrics, histogram, submission_id=row["submission_id"], name=row["submission__name"],
                 owner=row["submission__owner__username"] or "", created_at=created.isoformat() if created else "",
                 verified=row["submission__verification"] == Submission.Verification.FINISHED)


def _decoded(board: Board, track: str, key: str, rows: list[dict]) -> cache.Decoded | None:
    """{entry id: (updated_at, metrics, histogram)} for ``rows`` of one slice, decoding only the
    entries this process has not read before; None if one of them is gone (replaced meanwhile)."""
    ck = (board.pk, track, key)
    cached = cache.decoded_entries.get(ck)
    missing = [r["id"] for r in rows if (c := cached.get(r["id"])) is None or c[0] != r["updated_at"]]
    fresh = {i: (at, m, h) for i, at, m, h in BoardEntry.objects.filter(id__in=missing)
             .values_list("id", "updated_at", "metrics", "histogram")} if missing else {}
    out = {}
    for r in rows:
        hit = fresh.get(r["id"]) or cached.get(r["id"])
        if hit is None or hit[0] != r["updated_at"]:
            return None
        out[r["id"]] = hit
    cache.decoded_entries.keep(ck, out)
    return out


def stored_entries(board: Board, track: str, slice_key: str, with_histogram: bool) -> list[Entry]:
    """The precomputed entries of one slice: the baseline rows and those of ranked submissions.
    Which entries the slice has is read on every call (only their decoding is cached)."""
    for _ in range(ENTRY_READ_ATTEMPTS):
        rows = list(BoardEntry.objects.filter(board=board, track=track, slice=slice_key)
                    .filter(Q(submission__isnull=True) | ranked_filter(track))
                    .values("id", "updated_at", "submission_id", "baseline", *SUBMISSION_COLUMNS))
        decoded = _decoded(board, track, slice_key, rows)
        if decoded is not None:
            break
    else:
        raise RuntimeError(f"{board} [{slice_key or 'all'}] kept changing while being read")
    out = []
    for r in rows:
        _, metrics, hist = decoded[r["id"]]
        out.append(_entry(r, metrics, hist if with_histogram else None))
    return out


def baseline_samples(board: Board) -> dict[str, tuple[dict, float | None]]:
    """Workload → (speedups against each baseline, roofline fraction) of the run that timed the
    baselines on it (``BaselineSample``)."""
    return {s["workload"]: (s["speedup"], s["roofline_fraction"])
            for s in BaselineSample.objects.filter(board=board).values("workload", "speedup", "roofline_fraction")}


def computed_entries(board: Board | None, backend: str, device: str, track: str, tasks) -> list[Entry]:
    """A slice nobody precomputes (or that is to be checked against its stored entries), scored
    now from the results by the same ``entry_metrics``."""
    ids = [w.id for w in tasks]
    on_board = Result.objects.filter(backend=backend, device=device, track=track).filter(ranked_filter(track))
    # Every ranked submission on the board has a row, even with no result in this slice (missing = wrong).
    info = {r["submission_id"]: r for r in on_board.order_by().values("submission_id", *SUBMISSION_COLUMNS)
            .distinct()}
    per_sub: dict[int, dict[str, dict]] = {sid: {} for sid in info}
    for r in on_board.filter(workload__in=ids).values("submission_id", "workload", "status", "record__speedup",
                                                      "record__speedup_ci", "roofline_fraction"):
        per_sub[r["submission_id"]][r["workload"]] = {
            "status": r["status"], "speedup": r["record__speedup"] or {},
            "speedup_ci": r["record__speedup_ci"] or {}, "roofline_fraction": r["roofline_fraction"]}
    out = []
    for sid, by_task in per_sub.items():
        metrics, hist = entry_metrics(by_task, tasks)
        out.append(_entry({**info[sid], "baseline": ""}, metrics, hist))
    samples = baseline_samples(board) if board else {}
    for name in BASELINES:
        metrics, hist = entry_metrics(baseline_records(name, samples, tasks), tasks)
        out.append(Entry(metrics, hist, baseline=name))
    return out


def measured_anywhere(board: Board) -> set[str]:
    """Baselines other than tvm-default that some run on this board timed."""
    hit = cache.measured_baselines.get(board)
    if hit is None:
        hit = {name for name in BASELINES[1:]
               if BaselineSample.objects.filter(board=board, speedup__has_key=name).exists()}
        cache.measured_baselines.keep(board, hit)
    return hit


def verified_generalisations(board: Board | None, backend: str, device: str, sl: Slice, sids: list[int],
                             stored: bool) -> dict[int, dict]:
    """Submission → its generalisation on this board slice from its finished verified run: what
    a public board's row shows. Read from the stored verified entries (``stored``; only that key
    of their metrics) or scored from the verified results."""
    if board is None or not sids:
        return {}
    verified = ranked_filter(Result.VERIFIED)
    if stored:
        return {sid: g for sid, g in BoardEntry.objects.filter(
            board=board, track=Result.VERIFIED, slice=sl.key, submission_id__in=sids)
            .filter(verified).values_list("submission_id", "metrics__generalisation") if g}
    tasks = sl.tasks(Result.VERIFIED)
    per_sub: dict[int, dict[str, dict]] = {}
    for r in (Result.objects.filter(backend=backend, device=device, track=Result.VERIFIED, submission_id__in=sids,
                                    workload__in=[w.id for w in tasks]).filter(verified)
              .values("submission_id", "workload", "status", "record__speedup")):
        per_sub.setdefault(r["submission_id"], {})[r["workload"]] = {"status": r["status"],
                                                                     "speedup": r["record__speedup"] or {}}
    return {sid: generalisation_of(by_task, tasks) for sid, by_task in per_sub.items()}


def boards() -> list[dict]:
    """Every board (backend × device) with its ranked submissions per track and measured peak."""
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
                    "emulated": is_emulated(b.backend, b.device),
                    "submissions": {t: counts.get((b.pk, t), 0) for t in TRACKS},
                    "peak": {"flops_per_s": p.flops_per_s, "bytes_per_s": p.bytes_per_s,
                             "measured_at": p.measured_at} if p else None})
    return out
