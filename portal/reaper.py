"""Stuck submissions: a submission always reaches a final state (docs/operations.md#stuck-submissions).

The rule. A queued or running submission has *stalled* when nothing moved for
``EKB_REAP_AFTER_S``: no result landed (``progressed_at``), else since it started, else since it
was created. A stalled submission is *reaped* when a backend it still has tasks on has no live
worker (``portal.workers``: a worker silent for ``STALE_AFTER_S`` is gone) — its job died with
its worker, or waits where nothing takes it. A live worker of that backend protects it: a long
task on a live worker is slow, not stuck, and a job whose worker was killed is redelivered to a
live consumer by the broker once its visibility timeout passes. Only when nothing moved for the
visibility timeout on top of ``EKB_REAP_AFTER_S`` has redelivery not helped either (a hung
worker), and it is reaped all the same.

A queued submission whose job still waits in line is not stuck: it waits its turn (the API's
``waiting_for`` says when no live worker serves its backend). One whose job a worker took (the
job is not in line) is.

Reaping re-queues the jobs of its unfinished backends through the normal path
(``jobs.dispatch``; an evaluation skips the results already stored, so nothing is done twice)
and restarts its clock, at most ``EKB_MAX_REQUEUES`` times (``Submission.requeues``); then the
submission fails with the reason. Public track only: a verified run's state is staff's to see.
The embedded mode is left alone: its worker is a thread of the web process, which re-queues
what it left (``seed_demo``), and a command run beside it could not tell a dead thread from a
busy one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F
from django.db.models.functions import Coalesce
from django.utils import timezone

from evaluator.vocabulary import Track
from portal import endpoints, estimates, jobs, workers
from portal.evaluation import finish_if_complete
from portal.models import Result, Submission, Worker

BATCH = 500  # stalled submissions one run looks at, oldest first; the next run takes the rest
RECENT_WORKERS = 200  # worker records searched for the last one of a backend
ACTIVE = (Submission.State.QUEUED, Submission.State.RUNNING)

REQUEUED, FAILED, FINISHED = "requeued", "failed", "finished"


@dataclass(frozen=True)
class Reaped:
    """What the reaper did to one submission."""

    submission_id: int
    action: str  # REQUEUED, FAILED or FINISHED (every result was there; only the finish was missing)
    backends: tuple[str, ...]  # the backends it acted on
    detail: str  # in words: the reason it failed with, or what was re-queued


@dataclass(frozen=True)
class ReapReport:
    at: datetime
    stalled: int  # stalled submissions looked at
    reaped: tuple[Reaped, ...] = ()
    spared: tuple[tuple[int, str], ...] = ()  # (submission id, why it was left alone)
    note: str = ""  # why nothing was looked at, if so
    served: tuple[str, ...] = field(default=())  # the backends a live worker served at ``at``

    def ids(self, action: str) -> list[int]:
        return [r.submission_id for r in self.reaped if r.action == action]


def _now(now: datetime | None) -> datetime:
    return now or timezone.now()


def stalled(now: datetime | None = None, after_s: float | None = None):
    """Queued or running submissions nothing moved for ``after_s`` (``EKB_REAP_AFTER_S``),
    oldest first, annotated with ``last_moved``."""
    cutoff = _now(now) - timedelta(seconds=settings.EKB_REAP_AFTER_S if after_s is None else after_s)
    return (Submission.objects.filter(state__in=ACTIVE)
            .annotate(last_moved=Coalesce("progressed_at", "started_at", "created_at"))
            .filter(last_moved__lt=cutoff).order_by("last_moved"))


def live_workers(now: datetime | None = None) -> list[Worker]:
    """The workers heard from within ``STALE_AFTER_S`` of ``now`` (``workers.live`` at that time)."""
    since = _now(now) - timedelta(seconds=workers.STALE_AFTER_S)
    return list(Worker.objects.filter(last_seen__gte=since).order_by("hostname"))


def pending_backends(sub: Submission) -> list[str]:
    """Its backends with public tasks still lacking a result."""
    expected = {w.id for w in endpoints.expected_tasks(sub)}
    have: dict[str, set[str]] = {}
    for workload, backend in Result.objects.filter(submission=sub, track=Track.PUBLIC).values_list("workload",
                                                                                                   "backend"):
        have.setdefault(backend, set()).add(workload)
    return [b for b in sub.backends if not expected <= have.get(b, set())]


def last_worker_words(backend: str) -> str:
    """Who last served ``backend``, in words, for a failure's reason."""
    recent = Worker.objects.order_by("-last_seen")[:RECENT_WORKERS]
    w = next((w for w in recent if any(i.get("name") == backend for i in w.backends)), None)
    if w is None:
        return f"no worker of {backend} was ever seen"
    return f"the last worker seen on {backend} was {w.hostname} at {w.last_seen:%Y-%m-%d %H:%M:%S} UTC"


def requeue(sub: Submission, backends: list[str] | None = None, *, now: datetime | None = None,
            waiting: set[tuple[int, str]] | None = None) -> list[str]:
    """Queue the jobs of its unfinished ``backends`` again (default: every unfinished one) and
    restart its clock; counts one re-queue. A backend whose job already waits in line
    (``waiting``) gets no second one. Returns the backends queued; [] when the submission had
    ended or another reaper counted this re-queue first."""
    now = _now(now)
    moved = Submission.objects.filter(pk=sub.pk, state__in=ACTIVE, requeues=sub.requeues).update(
        requeues=F("requeues") + 1, progressed_at=now)
    if not moved:
        return []
    sub.requeues, sub.progressed_at = sub.requeues + 1, now
    queued = []
    for b in pending_backends(sub) if backends is None else backends:
        if waiting is not None and (sub.pk, b) in waiting:
            continue
        jobs.dispatch(sub.pk, b, kind=sub.kind)
        queued.append(b)
    return queued


def give_up(sub: Submission, backends: list[str]) -> str:
    """Fail it: no worker finished it. Returns the reason it failed with ('' if it had ended)."""
    who = "; ".join(last_worker_words(b) for b in backends) or "no backend was left"
    reason = (f"no worker finished it after {sub.requeues} re-queue{'s' if sub.requeues != 1 else ''}; {who}")
    return reason if sub.fail(reason) else ""


def reap(now: datetime | None = None) -> ReapReport:
    """Re-queue or fail the stuck submissions (the module's rule); ``now`` for the clock."""
    now = _now(now)
    if settings.EKB_INPROCESS_WORKER:
        return ReapReport(now, 0, note="the embedded worker: nothing to reap (its jobs live in the web process)")
    served = estimates.served_backends(live_workers(now))
    hung_after = settings.EKB_REAP_AFTER_S + settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout", 3600)
    candidates = list(stalled(now)[:BATCH])
    backends = sorted({b for s in candidates for b in s.backends})
    waiting = estimates.jobs_waiting(backends) if candidates else set()
    anywhere = estimates.jobs_anywhere(backends) if candidates else set()
    reaped, spared = [], []
    for sub in candidates:
        pending = pending_backends(sub)
        if not pending:  # every result stored: the job died between its last result and the finish
            finish_if_complete(sub.pk)
            reaped.append(Reaped(sub.pk, FINISHED, (), "every task had its result"))
            continue
        in_line = waiting is not None and all((sub.pk, b) in waiting for b in pending)
        if sub.state == Submission.State.QUEUED and (waiting is None or in_line):
            spared.append((sub.pk, "its job waits in line" if waiting is not None else "the queues cannot be read"))
            continue
        unserved = [b for b in pending if b not in served]
        hung = (now - sub.last_moved).total_seconds() > hung_after
        # queued, yet its job is neither in line nor held by a worker: nothing will ever run it
        lost = [b for b in pending if sub.state == Submission.State.QUEUED and anywhere is not None
                and (sub.pk, b) not in anywhere]
        if not unserved and not hung and not lost:
            spared.append((sub.pk, f"a live worker serves {', '.join(pending)}"))
            continue
        # a served backend's job is the live worker's (or the broker's to redeliver), unless hung
        targets = pending if hung else sorted(set(unserved) | set(lost), key=pending.index)
        if sub.requeues >= settings.EKB_MAX_REQUEUES:
            reason = give_up(sub, targets)
            if reason:
                reaped.append(Reaped(sub.pk, FAILED, tuple(targets), reason))
            continue
        before = sub.requeues
        queued = requeue(sub, targets, now=now, waiting=waiting)
        if sub.requeues > before:
            reaped.append(Reaped(sub.pk, REQUEUED, tuple(targets),
                                 f"re-queue {sub.requeues} of {settings.EKB_MAX_REQUEUES}: "
                                 + (f"queued {', '.join(queued)}" if queued else "its jobs already wait in line")))
    return ReapReport(now, len(candidates), tuple(reaped), tuple(spared), served=tuple(sorted(served)))
