"""The leaderboard's side of the portal's signals (``portal.signals``), connected in
``LeaderboardConfig.ready``: landed results and measured peaks keep the boards current, and a
submission's page and API record get its board rows from here."""

from __future__ import annotations

from evaluator import suite
from evaluator.vocabulary import Baseline
from leaderboard import aggregates
from leaderboard.models import BoardEntry
from leaderboard.ranking import BASELINES, NO_GENERALISATION, BoardQuery, board
from leaderboard.slices import Slice
from portal import signals
from portal.models import Result, Submission


def on_result_landed(sender, result, **_) -> None:
    aggregates.result_landed(result)


def on_results_landed(sender, results, **_) -> None:
    aggregates.results_landed(results)


def on_peak_measured(sender, backend: str, device: str, peak: dict, **_) -> None:
    aggregates.record_peak(backend, device, peak)


def board_summaries(sender, submission: Submission, **_) -> list[dict]:
    """This submission's stored board entries (the ranking function's output): per board and
    track, the whole board and each level and domain."""
    wanted = {"": None} | {Slice(level=lv).key: ("level", lv) for lv in suite.LEVELS} | \
             {Slice(domain=d).key: ("domain", d) for d in suite.DOMAINS}
    out: dict[tuple, dict] = {}
    for e in (BoardEntry.objects.filter(submission=submission, slice__in=list(wanted)).select_related("board")
              .order_by("board__backend", "board__device", "track")):
        g = out.setdefault((e.board_id, e.track), {"board": e.board, "track": e.track, "all": None, "parts": []})
        if e.slice == "":
            g["all"] = e.metrics
            g["baselines"] = [(b, e.metrics["baselines"][b]) for b in BASELINES
                              if b == Baseline.TVM_DEFAULT or e.metrics["baselines"][b]["geomean_correct"] is not None]
        else:
            kind, value = wanted[e.slice]
            g["parts"].append({"kind": kind, "value": value, "m": e.metrics})
    for g in out.values():
        g["parts"].sort(key=lambda p: (p["kind"] != "level", p["value"]))
    groups = [g for g in out.values() if g["all"] is not None]
    _attach_generalisation(submission, groups)
    for g in groups:
        g["rank"], g["ranked"] = _rank(submission, g["board"], g["track"])
    return groups


def _rank(submission: Submission, b, track: str) -> tuple[int | None, int]:
    """The submission's place on the whole board's default view (the page's and the API's
    ranking function), and how many rows it ranks; None where it has no row there (private, or
    not finished)."""
    rows = board(query=BoardQuery(backend=b.backend, device=b.device, track=track)).rows
    mine = next((r.rank for r in rows if r.kind == "submission" and r.submission_id == submission.pk), None)
    return mine, len(rows)


def _attach_generalisation(sub: Submission, groups: list[dict]) -> None:
    """Each board's generalisation (shares and a count only): a verified summary's own, and on
    the public summary of the same board that of the finished verified run (none before one)."""
    verified = {g["board"].pk: g["all"].get("generalisation") or NO_GENERALISATION
                for g in groups if g["track"] == Result.VERIFIED}
    finished = sub.verification == Submission.Verification.FINISHED
    for g in groups:
        if g["track"] == Result.VERIFIED:
            g["generalisation"] = verified[g["board"].pk]
        else:
            g["generalisation"] = verified.get(g["board"].pk, NO_GENERALISATION) if finished else NO_GENERALISATION


def generalisation(sender, submission: Submission, **_) -> list[dict]:
    """Per board, the generalisation of the submission's verified run: shares and a count, read
    from the stored whole-board rows (only that key, not their metrics)."""
    rows = (BoardEntry.objects.filter(submission=submission, track=Result.VERIFIED, slice="")
            .order_by("board__backend", "board__device")
            .values_list("board__backend", "board__device", "metrics__generalisation"))
    return [{"backend": b, "device": d, **(g or NO_GENERALISATION)} for b, d, g in rows]


def connect() -> None:
    """Listen to the portal (idempotent: each receiver once, however often it is called)."""
    for signal, receiver in ((signals.result_landed, on_result_landed),
                             (signals.results_landed, on_results_landed),
                             (signals.peak_measured, on_peak_measured),
                             (signals.submission_boards, board_summaries),
                             (signals.submission_generalisation, generalisation)):
        signal.connect(receiver, dispatch_uid=f"leaderboard.{receiver.__name__}")
