"""Precomputed leaderboard aggregates: what pages and the API read instead of scanning results.

* :class:`Board` — one backend on one device (each device is its own board), with a version
  bumped on every refresh (a cache key for whoever caches a board's rows).
* :class:`BoardEntry` — the ranking function's output (``leaderboard.ranking.entry_metrics``) for
  one row of one board slice: a submission, or a baseline. Refreshed by
  ``leaderboard.aggregates`` when a result lands; ``manage.py rebuild_boards`` rebuilds them all.
* :class:`BaselineSample` — per task, the latest measured speedups of the candidate against every
  baseline, from which the baseline rows are derived (t_B / t_X = s_B / s_X).
* :class:`BackendPeak` — a backend's measured peak compute and bandwidth on a device, for
  roofline plots (``manage.py measure_peaks``; an evaluation records the peak it used).
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from evaluator.vocabulary import Baseline, Track, choices


class Board(models.Model):
    backend = models.CharField(max_length=80)
    device = models.CharField(max_length=200, blank=True)
    version = models.PositiveBigIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["backend", "device"]
        constraints = [models.UniqueConstraint(fields=["backend", "device"], name="one_board_per_device")]

    def __str__(self) -> str:
        return f"{self.backend} on {self.device or 'unknown device'}"


class BoardEntry(models.Model):
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="entries")
    track = models.CharField(max_length=10, choices=choices(Track))
    slice = models.CharField(max_length=200, blank=True)  # leaderboard.slices.Slice.key; "" = whole board
    submission = models.ForeignKey("portal.Submission", on_delete=models.CASCADE, null=True,
                                   related_name="board_entries")
    # the baseline this row is, when no submission
    baseline = models.CharField(max_length=40, blank=True, choices=choices(Baseline))
    metrics = models.JSONField()  # ranking.entry_metrics(...)
    histogram = models.JSONField(default=dict)  # baseline → {log2 bin: tasks}: the speedup distribution
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["board", "track", "slice", "submission"], name="one_entry_per_submission",
                                    condition=models.Q(submission__isnull=False)),
            models.UniqueConstraint(fields=["board", "track", "slice", "baseline"], name="one_entry_per_baseline",
                                    condition=models.Q(submission__isnull=True)),
        ]
        indexes = [models.Index(fields=["board", "track", "slice"], name="entry_board_slice")]

    def __str__(self) -> str:
        return f"{self.board} {self.track} [{self.slice or 'all'}] {self.submission_id or self.baseline}"


class BaselineSample(models.Model):
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="baseline_samples")
    workload = models.CharField(max_length=200)
    speedup = models.JSONField()  # the candidate's speedup against each baseline timed in that run
    roofline_fraction = models.FloatField(null=True)  # the candidate's, in that run
    time_s = models.FloatField(null=True)  # the candidate's median time in that run: t_X = time_s · s_X
    measured_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["board", "workload"], name="one_sample_per_task")]


class BackendPeak(models.Model):
    backend = models.CharField(max_length=80)
    device = models.CharField(max_length=200, blank=True)
    flops_per_s = models.FloatField()
    bytes_per_s = models.FloatField()
    detail = models.JSONField(default=dict)  # the measurement as evaluator.backends.peaks returns it
    measured_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["backend", "device"], name="one_peak_per_device")]

    def __str__(self) -> str:
        return (f"{self.backend} on {self.device}: {self.flops_per_s / 1e9:.1f} GFLOP/s, "
                f"{self.bytes_per_s / 1e9:.1f} GB/s")
