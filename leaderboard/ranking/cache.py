"""Process-wide caches of what the boards read: each saves work, none decides what is shown.

* :data:`decoded_entries` — the decoded stored entries (``BoardEntry`` metrics and histogram)
  of recently read slices. Never invalidated explicitly: a stored entry never changes (a refresh
  deletes the rows it rescored and stores new ones, under new ids), and every read first asks
  the database which entries the slice has now (ids and ``updated_at``), decoding only those
  this process has not seen; the slice's cached entries are then replaced by exactly those, so
  rows gone from it are dropped. The ``updated_at`` check catches an id used again after the
  table was emptied. Least recently read slices go first, beyond ``DECODED_CACHE_SLICES``.
* :data:`measured_baselines` — per board, the baselines some run on it timed. Stale as soon as
  the board's ``version`` or ``updated_at`` moves, which every refresh of the board bumps
  (``leaderboard.aggregates``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

DECODED_CACHE_SLICES = 64

SliceKey = tuple[int, str, str]  # (board pk, track, slice key)
Decoded = dict[int, tuple]  # entry id → (its updated_at, metrics, histogram)


class DecodedEntries:
    """Decoded stored entries per board slice, least recently read dropped first."""

    def __init__(self, max_slices: int):
        self.max_slices = max_slices
        self._slices: OrderedDict[SliceKey, Decoded] = OrderedDict()
        self._lock = threading.Lock()  # pages are served from several threads

    def get(self, key: SliceKey) -> Decoded:
        """What this process decoded of the slice (empty if nothing); never written after it was
        kept, so it is read without the lock."""
        with self._lock:
            hit = self._slices.get(key)
            if hit is not None:
                self._slices.move_to_end(key)
        return hit or {}

    def keep(self, key: SliceKey, decoded: Decoded) -> None:
        """The slice's entries now: replaces what was kept of it."""
        with self._lock:
            self._slices[key] = decoded
            self._slices.move_to_end(key)
            while len(self._slices) > self.max_slices:
                self._slices.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._slices.clear()

    def __len__(self) -> int:
        return len(self._slices)


class MeasuredBaselines:
    """Per board, the baselines timed on it, valid while its version and updated_at are."""

    def __init__(self):
        # board pk → (version, updated_at, baselines); a whole tuple is swapped in at once, so
        # a reader on another thread sees the old one or the new one
        self._boards: dict[int, tuple] = {}

    def get(self, board) -> set[str] | None:
        hit = self._boards.get(board.pk)
        return hit[2] if hit is not None and hit[:2] == (board.version, board.updated_at) else None

    def keep(self, board, baselines: set[str]) -> None:
        self._boards[board.pk] = (board.version, board.updated_at, baselines)

    def clear(self) -> None:
        self._boards.clear()


decoded_entries = DecodedEntries(DECODED_CACHE_SLICES)
measured_baselines = MeasuredBaselines()
