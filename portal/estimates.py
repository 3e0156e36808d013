"""Where a submission's jobs are and how long they will take (docs/operations.md#where-is-my-job).

* **Queue position**: per backend, the jobs a worker will take before this submission's: those
  nearer the head of the backend's queue (Redis: kombu pushes on the left and workers pop on the
  right), plus the jobs workers have taken and not finished (the broker's unacknowledged ones),
  on ``eval.<backend>`` or ``build.<backend>``, whichever holds the job. The submission's position
  is the largest over its backends; None once it is running or has ended.
* **Time left** (``eta_s``): per backend, seconds per task × (the tasks of the jobs ahead ÷ the
  live workers serving the backend + this submission's tasks left there); the largest over its
  backends. Seconds per task are measured: the wall time of the last :data:`RECENT` finished
  submissions of the same kind on that backend over their tasks on it. None without such a
  history, or once the submission has ended.
* **Waiting for a worker** (``waiting_for``): the backends of an unfinished submission that no
  live worker serves (``workers.live``), so nothing will take its job there until one starts.
  Celery mode only: the embedded worker serves every backend.

Reading a queue costs one broker round trip and parsing its messages (at most :data:`SCAN`
per queue), so the API computes this for one submission at a time (retrieve, create), never
for a list.
"""

from __future__ import annotations

import base64
import dataclasses
import json
from dataclasses import dataclass

from celery import current_app
from django.conf import settings

from evaluator.vocabulary import Track
from portal import jobs, workers
from portal.models import Submission

RECENT = 50  # finished submissions the seconds per task are measured over
SCAN = 5000  # messages read from one queue at most, from its head


@dataclass(frozen=True)
class Job:
    task: str
    submission_id: int
    backend: str
    track: str


@dataclass(frozen=True)
class Whereabouts:
    queue_position: int | None  # jobs ahead of this one (the most over its backends)
    eta_s: int | None  # seconds until it finishes, estimated
    basis: str  # how the estimate was made, in words
    waiting_for: tuple[str, ...] = ()  # its backends no live worker serves


def _job(task: str, args) -> Job | None:
    if not isinstance(args, (list, tuple)) or len(args) < 2 or not isinstance(args[0], int):
        return None
    return Job(task, args[0], str(args[1]), str(args[2]) if len(args) > 2 else Track.PUBLIC)


def _decode(raw: bytes | str) -> Job | None:
    """The job in one kombu message (JSON envelope, base64 JSON body ``[args, kwargs, embed]``)."""
    try:
        msg = json.loads(raw)
        body = json.loads(base64.b64decode(msg["body"]))
        return _job(msg["headers"]["task"], body[0])
    except (ValueError, KeyError, TypeError, IndexError):
        return None


def _broker():
    """(the Redis client of the broker, its key of unacknowledged messages), or None (no broker,
    another transport, no answer)."""
    try:
        with current_app.connection_for_read() as conn:
            channel = conn.default_channel
            return channel.client, channel.unacked_key
    except Exception:  # noqa: BLE001 - a broker that does not answer: positions are unknown
        return None


def _queues(backends: list[str]) -> tuple[dict[str, list[Job]], dict[str, list[Job]]] | None:
    """(queue → the jobs waiting on it, head first; queue → the jobs workers hold), or None when
    the queues cannot be read."""
    names = [q for b in backends for q in (jobs.queue_for(b), jobs.build_queue_for(b))]
    if settings.EKB_INPROCESS_WORKER:
        # one worker thread for every backend: its backlog is every queue's
        pool = jobs._local  # noqa: SLF001 - the embedded worker's executor
        items = list(pool._work_queue.queue) if pool is not None else []  # noqa: SLF001
        waiting = [j for j in (_job(getattr(i.fn, "name", ""), i.args) for i in items if i is not None) if j]
        return {q: waiting for q in names}, {}
    broker = _broker()
    if broker is None:
        return None
    client, unacked_key = broker
    try:
        pipe = client.pipeline()
        for q in names:
            pipe.lrange(q, -SCAN, -1)
        pipe.hvals(unacked_key)
        *lists, unacked = pipe.execute()
    except Exception:  # noqa: BLE001 - as no broker
        return None
    waiting = {q: [j for j in map(_decode, reversed(raw)) if j] for q, raw in zip(names, lists)}
    taken: dict[str, list[Job]] = {}
    for raw in unacked:
        try:
            message, _exchange, routing_key = json.loads(raw)
            job = _decode(json.dumps(message))
        except (ValueError, TypeError):
            continue
        if job is not None:
            taken.setdefault(routing_key, []).append(job)
    return waiting, taken


def _seconds_per_task(kind: str) -> dict[str, tuple[float, int]]:
    """backend → (seconds per task, submissions measured) over the recent finished submissions of
    ``kind`` on it, else of any kind. One query."""
    rows = (Submission.objects.filter(state=Submission.State.FINISHED, started_at__isnull=False,
                                      finished_at__isnull=False, tasks_total__gt=0)
            .order_by("-finished_at").values("kind", "backends", "tasks_total", "started_at", "finished_at")[:RECENT])
    same: dict[str, list[float]] = {}
    any_kind: dict[str, list[float]] = {}
    for r in rows:
        backends = r["backends"] or []
        wall = max(0.0, (r["finished_at"] - r["started_at"]).total_seconds())
        for b in backends:
            for acc in (any_kind, same) if r["kind"] == kind else (any_kind,):
                s = acc.setdefault(b, [0.0, 0.0, 0])
                # the backends' jobs run side by side: each took the wall time for its share
                s[0], s[1], s[2] = s[0] + wall, s[1] + r["tasks_total"] / len(backends), s[2] + 1
    return {b: (wall / tasks, int(n)) for acc in (any_kind, same) for b, (wall, tasks, n) in acc.items()}


def _live(job: Job, s: dict | None) -> bool:
    """Whether a worker will evaluate this job rather than drop it."""
    if s is None:
        return False
    if job.track == Track.VERIFIED:
        return s["verification"] in (Submission.Verification.QUEUED, Submission.Verification.RUNNING)
    return s["state"] not in Submission.TERMINAL


def _tasks_left(s: dict, taken: bool) -> float:
    """One backend's share of a submission's tasks: all of them for a waiting job, those not yet
    done for a job a worker holds."""
    n = max(1, len(s["backends"] or []))
    return max(0, s["tasks_total"] - (s["tasks_done"] if taken else 0)) / n


def served_backends(live: list | None = None) -> set[str]:
    """The backends some live worker serves (``live``: those workers, else ``workers.live()``)."""
    return {info.get("name") for w in (workers.live() if live is None else live) for info in w.backends}


def waiting_for(sub: Submission, live: list | None = None) -> tuple[str, ...]:
    """The backends of an unfinished submission that no live worker serves (Celery mode only)."""
    if sub.is_done or settings.EKB_INPROCESS_WORKER:
        return ()
    served = served_backends(live)
    return tuple(b for b in sub.backends if b not in served)


def jobs_waiting(backends: list[str]) -> set[tuple[int, str]] | None:
    """(submission id, backend) of every public job waiting in line (not taken by a worker) on
    the queues of ``backends``; None when the queues cannot be read."""
    queues = _queues(backends)
    if queues is None:
        return None
    waiting, _taken = queues
    return {(j.submission_id, j.backend) for line in waiting.values() for j in line if j.track == Track.PUBLIC}


def jobs_anywhere(backends: list[str]) -> set[tuple[int, str]] | None:
    """(submission id, backend) of every public job in line or held by a worker on the queues of
    ``backends``; None when the queues cannot be read. A queued submission with none has lost
    its job (sent while the broker was down, or the web process died before sending it)."""
    queues = _queues(backends)
    if queues is None:
        return None
    return {(j.submission_id, j.backend) for part in queues for line in part.values() for j in line
            if j.track == Track.PUBLIC}


def whereabouts(sub: Submission) -> Whereabouts:
    """The queue position, time left and backends waiting for a worker of ``sub`` (all empty
    once it has ended)."""
    live = [] if sub.is_done else workers.live()
    return dataclasses.replace(_whereabouts(sub, live), waiting_for=waiting_for(sub, live))


def _whereabouts(sub: Submission, live: list) -> Whereabouts:
    if sub.is_done:
        return Whereabouts(None, None, "")
    queues = _queues(sub.backends)
    if queues is None:
        return Whereabouts(None, None, "the broker's queues cannot be read")
    waiting, taken = queues
    # backend → the jobs ahead of this one there, each with whether a worker holds it; None: this
    # submission has no job on the backend's queues (running there, or its job not found)
    ahead: dict[str, list[tuple[Job, bool]] | None] = {}
    for b in sub.backends:
        ahead[b] = None
        for q in (jobs.queue_for(b), jobs.build_queue_for(b)):
            held = taken.get(q, [])
            if any(j.submission_id == sub.pk for j in held):
                ahead[b] = []
                break
            line = waiting.get(q, [])
            at = next((i for i, j in enumerate(line) if j.submission_id == sub.pk), None)
            if at is not None:
                ahead[b] = [(j, True) for j in held] + [(j, False) for j in line[:at]]
                break
    ids = {j.submission_id for found in ahead.values() if found for j, _ in found}
    rows = {r["pk"]: r for r in Submission.objects.filter(pk__in=ids | {sub.pk})
            .values("pk", "backends", "tasks_total", "tasks_done", "state", "verification")}
    # a job whose run has ended (cancelled, failed, deleted) is dropped at once by the worker
    ahead = {b: [(j, held) for j, held in found if _live(j, rows.get(j.submission_id))] if found is not None else None
             for b, found in ahead.items()}
    known = [len(found) for found in ahead.values() if found is not None]
    position = max(known) if known and sub.state == Submission.State.QUEUED else None

    rates = _seconds_per_task(sub.kind)
    serving: dict[str, int] = {}
    for w in live:
        for info in w.backends:
            serving[info.get("name")] = serving.get(info.get("name"), 0) + 1
    eta, words = 0.0, []
    for b, found in ahead.items():
        if b not in rates:
            return Whereabouts(position, None, f"no finished submission on {b} to measure seconds per task from")
        per_task, n = rates[b]
        work = sum(_tasks_left(rows[j.submission_id], held) for j, held in (found or []) if j.task != jobs.LAND)
        own = _tasks_left(rows[sub.pk], taken=sub.state != Submission.State.QUEUED)
        n_workers = serving.get(b, 0)
        eta = max(eta, per_task * (work / max(1, n_workers) + own))
        workers_words = (f"{n_workers} live worker{'s' if n_workers != 1 else ''}" if n_workers
                         else "no live worker now (counted as one)")
        words.append(f"{b}: {per_task:.2g} s per task (last {n} finished), {work:.0f} tasks ahead, "
                     f"{own:.0f} of its own left, {workers_words}")
    return Whereabouts(position, round(eta), "; ".join(words))
