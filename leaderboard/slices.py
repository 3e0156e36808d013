"""Board slices: the part of the suite a board is narrowed to (level, domain, family, dtype).

A slice's tasks depend on the track: the public board ranks the public workloads, the verified
board every workload, hidden ones included (whose ids never leave this module's callers'
aggregates). Which slices are precomputed is decided here, in one place: the whole board, every
single filter, and level × domain; any other combination is computed on request from the
results by the same ranking function.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from evaluator import suite
from evaluator.vocabulary import Track

# What each track evaluates is the portal's to decide (its jobs run those tasks); the boards rank
# the same tasks. Also read from here by the board pages and the tests.
from portal.tracks import track_tasks

FILTERS = ("level", "domain", "family", "dtype")


@dataclass(frozen=True)
class Slice:
    level: str | None = None
    domain: str | None = None
    family: str | None = None
    dtype: str | None = None

    @property
    def key(self) -> str:
        """Canonical text form, "" for the whole board (stored in ``BoardEntry.slice``)."""
        return "&".join(f"{f}={getattr(self, f)}" for f in FILTERS if getattr(self, f))

    @classmethod
    def from_key(cls, key: str) -> "Slice":
        return cls(**dict(part.split("=", 1) for part in key.split("&") if part))

    def set_filters(self) -> frozenset[str]:
        return frozenset(f for f in FILTERS if getattr(self, f))

    @property
    def precomputed(self) -> bool:
        return len(self.set_filters()) <= 1 or self.set_filters() == {"level", "domain"}

    def matches(self, w) -> bool:
        return ((not self.level or w.level == self.level) and (not self.domain or self.domain in w.domains)
                and (not self.family or w.family == self.family) and (not self.dtype or w.dtype == self.dtype))

    def tasks(self, track: str = Track.PUBLIC) -> list:
        return [w for w in track_tasks(track) if self.matches(w)]

    def label(self) -> str:
        return ", ".join(f"{f} {getattr(self, f)}" for f in FILTERS if getattr(self, f)) or "all tasks"


@functools.cache
def choices() -> dict[str, tuple[str, ...]]:
    """The values each filter may take (from the public suite: a hidden workload adds none)."""
    ws = suite.workloads()
    return {
        "level": suite.LEVELS,
        "domain": suite.DOMAINS,
        "family": tuple(sorted({w.family for w in ws})),
        "dtype": tuple(sorted({w.dtype for w in ws})),
    }


def precomputed_slices(track: str = Track.PUBLIC) -> list[Slice]:
    """Every precomputed slice with at least one task on this track."""
    c = choices()
    out = [Slice()]
    for f in FILTERS:
        out += [Slice(**{f: v}) for v in c[f]]
    out += [Slice(level=lv, domain=d) for lv in c["level"] for d in c["domain"]]
    tasks = track_tasks(track)
    return [s for s in out if any(s.matches(w) for w in tasks)]


@functools.cache
def precomputed_tasks(track: str = Track.PUBLIC) -> tuple[tuple[Slice, tuple], ...]:
    """(slice, its tasks) for every precomputed slice: what a refresh scores."""
    return tuple((s, tuple(s.tasks(track))) for s in precomputed_slices(track))


@functools.cache
def slices_with(track: str = Track.PUBLIC) -> dict[str, frozenset[str]]:
    """Workload id → the keys of the precomputed slices holding it: what a result for that
    task can change."""
    out: dict[str, set[str]] = {}
    for s, tasks in precomputed_tasks(track):
        for w in tasks:
            out.setdefault(w.id, set()).add(s.key)
    return {k: frozenset(v) for k, v in out.items()}
