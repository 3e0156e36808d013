"""The one ranking function: every leaderboard page, API response, export and plot calls
:func:`board`.

:func:`board` reads the stored entries of one board (backend × device), track (public or
verified) and slice, with the baseline rows, and ranks them by :func:`scoring.rank` (Fast@p,
then Correct@1, then the deployable geomean, all against the chosen baseline), keeping all
submissions or the best / latest per team, sorted for display. A slice that is not precomputed
is scored on request from the results by the same :func:`scoring.entry_metrics` that stored the
others. Each submission row carries its generalisation from its finished verified run on that
board and slice, on the public board too (None without one).

Baseline rows are always present and marked: ``tvm-default`` (the reference compiler), ``vendor``
(the library call a user would make) and ``tvm-tuned`` once any result timed it.

The parts:

An emulated board (``evaluator.backends.emulation.is_emulated``: qemu-user) never ranks by time: its
rows rank by Correct@1 alone, with no speed column, and the page says "times emulated".

* :mod:`.scoring` — scoring and ranking plain rows (no database, no Django);
* :mod:`.params` — :class:`BoardQuery` and the serializer that reads it from query parameters;
* :mod:`.queries` — the database reads;
* :mod:`.cache` — process-wide caches of those reads, and what makes them stale.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from evaluator.backends.emulation import is_emulated
from evaluator.vocabulary import BackendKind, Track
from leaderboard.ranking import queries, scoring
from leaderboard.ranking.params import BoardQuery, BoardQuerySerializer, parse_query
from leaderboard.ranking.queries import baseline_samples, boards, known_backends, ranked_filter
from leaderboard.ranking.scoring import (ALWAYS_SHOWN, BASELINES, FAST_P, HIST_BINS_PER_OCTAVE, HIST_RANGE,
                                         NO_GENERALISATION, SORTS, TRACKS, VIEWS, Entry, Row, baseline_records,
                                         entry_metrics, generalisation_of, hist_bin)
from leaderboard.slices import FILTERS

__all__ = [
    "ALWAYS_SHOWN", "BASELINES", "FAST_P", "HIST_BINS_PER_OCTAVE", "HIST_RANGE", "NO_GENERALISATION", "SORTS",
    "TRACKS", "VIEWS", "BoardQuery", "BoardQuerySerializer", "Entry", "Ranking", "Row", "baseline_records",
    "baseline_samples", "board", "boards", "entry_metrics", "generalisation_of", "hist_bin", "known_backends",
    "parse_query", "ranked_filter",
]


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
    emulated: bool = False  # the board's device is emulated: its times are shown nowhere and never rank

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
                "precomputed": self.precomputed, "notices": self.notices, "submissions": self.submissions,
                "emulated": self.emulated}


def board(backend: str = BackendKind.CPU_LLVM, level: str | None = None, domain: str | None = None, *,
          query: BoardQuery | None = None, with_histogram: bool = False, from_results: bool = False,
          **options) -> Ranking:
    """The ranked rows of one board slice. ``board("cpu-llvm", "L1", "vision", baseline="vendor",
    p=1.5, view="best")`` or ``board(query=BoardQuery(...))``. ``from_results`` scores the rows
    from the stored results even where the slice is precomputed (what the aggregates must equal)."""
    q = query or BoardQuery(backend=backend, level=level, domain=domain, **options)
    board_obj = queries.find_board(q.backend, q.device)
    if q.device is None:
        q = replace(q, device=board_obj.device if board_obj else "")
    sl = q.slice
    tasks = sl.tasks(q.track)
    precomputed = board_obj is not None and sl.precomputed and not from_results
    if precomputed:
        entries = queries.stored_entries(board_obj, q.track, sl.key, with_histogram)
    elif board_obj is None and not tasks:
        entries = []
    else:
        entries = queries.computed_entries(board_obj, q.backend, q.device, q.track, tasks)

    measured = scoring.measured_baselines(entries, queries.measured_anywhere(board_obj) if board_obj else ())
    # from the backend's settings and the board's device, not a stored flag: see is_emulated
    emulated = is_emulated(q.backend, q.device)
    notices = scoring.baseline_notices(q.baseline, measured, emulated)
    if not tasks:
        notices.append(f"no tasks match {sl.label()} on the {q.track} track")

    if q.track == Track.VERIFIED:
        generalisations = scoring.own_generalisations(entries)
    else:
        # only finished verified runs count: no query at all on a board without one
        verified = [e.submission_id for e in entries if not e.is_baseline and e.verified]
        generalisations = queries.verified_generalisations(board_obj, q.backend, q.device, sl, verified,
                                                           stored=precomputed)
    rows, histogram = scoring.rank(entries, baseline=q.baseline, p=q.p, measured=measured, view=q.view,
                                   sort=q.sort, order=q.order, generalisations=generalisations,
                                   with_histogram=with_histogram, emulated=emulated)
    return Ranking(q, len(tasks), rows, q.baseline in measured and not emulated, precomputed, measured, notices,
                   histogram, emulated)
