"""Where evaluation jobs run: Celery (one queue per backend) or, in the embedded default, a
worker thread inside this process.

Jobs are sent by their task names (``portal.tasks``), never by importing the functions they run:
the job code (evaluation, farm) queues the next job through this module, so importing it back
would close a cycle."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from celery import current_app
from django.conf import settings

from evaluator.vocabulary import Track

EVALUATE, BUILD, MEASURE, LAND = "portal.evaluate", "portal.build", "portal.measure", "portal.land"

_local = None


def queue_for(backend: str) -> str:
    return "eval." + backend.replace(":", ".")


def build_queue_for(backend: str) -> str:
    return "build." + backend.replace(":", ".")


def _args(submission_id: int, backend: str, track: str) -> tuple:
    """A job's arguments: the track only when it is not the default (older jobs' shape)."""
    return (submission_id, backend) + ((track,) if track != Track.PUBLIC else ())


def _send(task: str, args: tuple, queue: str) -> None:
    """Queue the job named ``task`` on ``queue``; in the embedded mode, run it on the local
    worker thread (the task registry has it: ``PortalConfig.ready`` loads ``portal.tasks``)."""
    if settings.EKB_INPROCESS_WORKER:
        _local_submit(current_app.tasks[task], *args)
    else:
        current_app.send_task(task, args, queue=queue)


def dispatch(submission_id: int, backend: str, track: str = Track.PUBLIC, *, kind: str = "bundle") -> None:
    """Queue a submission's evaluation on one backend: with the compile farm on, a bundle's
    build job (its measurement is queued when the build is done); else one job doing both."""
    args = _args(submission_id, backend, track)
    if settings.EKB_COMPILE_FARM and kind == "bundle":
        _send(BUILD, args, build_queue_for(backend))
    else:
        _send(EVALUATE, args, queue_for(backend))


def _local_submit(fn, *args) -> None:
    global _local
    if _local is None:  # one job at a time: timing needs the machine to itself
        _local = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ekb-eval")
    # after the job that queued it, on the same thread; ``apply`` as a worker would run it: its
    # retries (at once, not after a backoff) and, once they are spent, its failure handler
    _local.submit(fn.apply, args)


def dispatch_measure(submission_id: int, backend: str, track: str = Track.PUBLIC) -> None:
    """Queue the measurement of a built submission on the machines that have the device."""
    _send(MEASURE, _args(submission_id, backend, track), queue_for(backend))


def dispatch_land(submission_id: int, backend: str, track: str = Track.PUBLIC) -> None:
    """Queue the announcement of a measured submission's results where the suite is: the boards'
    slices are the suite's, and a measurement machine has TVM's runtime only (a build queue)."""
    _send(LAND, _args(submission_id, backend, track), build_queue_for(backend))


def queue_depth(backend: str) -> int | None:
    """Jobs waiting on a backend's queue: the broker's list length (Redis), or the local
    worker's backlog in the embedded mode."""
    if settings.EKB_INPROCESS_WORKER:
        return _local._work_queue.qsize() if _local is not None else 0  # noqa: SLF001 - the executor's queue
    try:
        with current_app.connection_for_read() as conn:
            return conn.default_channel.client.llen(queue_for(backend))
    except Exception:  # noqa: BLE001 - a broker that does not answer has no known depth
        return None
