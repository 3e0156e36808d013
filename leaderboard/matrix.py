"""The backend × domain matrix of Fast@1.0 (against tvm-default): what works on one stack and
fails on another. Every cell comes from the ranking function's stored output."""

from __future__ import annotations

from statistics import mean

from evaluator.vocabulary import Baseline, Track
from leaderboard.models import Board, BoardEntry
from leaderboard.ranking import FAST_P, BoardQuery, board

P_INDEX = FAST_P.index(1.0)
BASELINE = Baseline.TVM_DEFAULT


def _label(b: Board) -> str:
    return f"{b.backend} · {b.device}" if b.device else b.backend


def _cells(metrics: dict, domains: list[str]) -> list[float | None]:
    cells = []
    for d in domains:
        dm = metrics["domains"].get(d)
        cells.append(dm["fast"][BASELINE][P_INDEX] / dm["tasks"] if dm and dm["tasks"] else None)
    return cells + [metrics["baselines"][BASELINE]["fast@1.0"]]


def for_submission(submission_id: int, track: str = Track.PUBLIC) -> dict:
    """One submission on every board it ran on."""
    entries = {e.board_id: e for e in BoardEntry.objects.filter(submission_id=submission_id, track=track, slice="")}
    boards = [b for b in Board.objects.all() if b.pk in entries]
    domains = sorted({d for e in entries.values() for d in e.metrics["domains"]})
    z = [_cells(entries[b.pk].metrics, domains) for b in boards]
    hover = [[f"{entries[b.pk].metrics['domains'].get(d, {}).get('tasks', 0)} tasks" for d in domains]
             + [f"{entries[b.pk].metrics['tasks']} tasks"] for b in boards]
    return {"mode": "submission", "submission_id": submission_id, "track": track,
            "boards": [{"backend": b.backend, "device": b.device, "label": _label(b)} for b in boards],
            "domains": domains + ["all"], "z": z, "hover": hover}


def across_top(top: int = 10, track: str = Track.PUBLIC) -> dict:
    """For each board, the mean Fast@1.0 per domain over its top ``top`` ranked submissions."""
    boards, z, hover, entries = [], [], [], []
    rankings = []
    for b in Board.objects.all():
        r = board(query=BoardQuery(backend=b.backend, device=b.device, track=track))
        best = sorted((x for x in r.rows if x.kind == "submission"), key=lambda x: x.rank)[:top]
        if best:
            rankings.append((b, best))
    domains = sorted({d for _, best in rankings for x in best for d in x.domains})
    for b, best in rankings:
        boards.append({"backend": b.backend, "device": b.device, "label": _label(b)})
        row, tips = [], []
        for d in domains:
            vals = [x.domains[d] for x in best if x.domains.get(d) is not None]
            row.append(mean(vals) if vals else None)
            lead = max(best, key=lambda x: x.domains.get(d) or 0)
            tips.append(f"best: {lead.name} ({lead.domains.get(d) or 0:.2f})")
        row.append(mean(x.summary["fast@1.0"] for x in best))
        tips.append(f"best: {best[0].name} ({best[0].summary['fast@1.0']:.2f})")
        z.append(row)
        hover.append(tips)
        entries.append([{"rank": x.rank, "name": x.name, "submission_id": x.submission_id} for x in best])
    return {"mode": "top", "top": top, "track": track, "boards": boards, "domains": domains + ["all"], "z": z,
            "hover": hover, "entries": entries}
