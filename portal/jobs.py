"""Where evaluation jobs run: Celery (one queue per backend) or, in the embedded default, a
worker thread inside this process."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from django.conf import settings

_local = None


def queue_for(backend: str) -> str:
    return "eval." + backend.replace(":", ".")


def build_queue_for(backend: str) -> str:
    return "build." + backend.replace(":", ".")


def _args(submission_id: int, backend: str, track: str) -> tuple:
    """A job's arguments: the track only when it is not the default (older jobs' shape)."""
    return (submission_id, backend) + ((track,) if track != "public" else ())


def dispatch(submission_id: int, backend: str, track: str = "public", *, kind: str = "bundle") -> None:
    """Queue a submission's evaluation on one backend: with the compile farm on, a bundle's
    build job (its measurement is queued when the build is done); else one job doing both."""
    args = _args(submission_id, backend, track)
    farm = settings.EKB_COMPILE_FARM and kind == "bundle"
    if settings.EKB_INPROCESS_WORKER:
        from portal.evaluation import evaluate_backend
        from portal.farm import build_backend

        _local_submit(build_backend if farm else evaluate_backend, *args)
        return
    from portal.tasks import build, evaluate

    if farm:
        build.apply_async(args, queue=build_queue_for(backend))
    else:
        evaluate.apply_async(args, queue=queue_for(backend))


def _local_submit(fn, *args) -> None:
    global _local
    if _local is None:  # one job at a time: timing needs the machine to itself
        _local = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ekb-eval")
    _local.submit(fn, *args)  # after the job that queued it, on the same thread


def dispatch_measure(submission_id: int, backend: str, track: str = "public") -> None:
    """Queue the measurement of a built submission on the machines that have the device."""
    args = _args(submission_id, backend, track)
    if settings.EKB_INPROCESS_WORKER:
        from portal.farm import measure_backend

        _local_submit(measure_backend, *args)
        return
    from portal.tasks import measure

    measure.apply_async(args, queue=queue_for(backend))


def dispatch_land(submission_id: int, backend: str, track: str = "public") -> None:
    """Queue the announcement of a measured submission's results where the suite is: the boards'
    slices are the suite's, and a measurement machine has TVM's runtime only (a build queue)."""
    args = _args(submission_id, backend, track)
    if settings.EKB_INPROCESS_WORKER:
        from portal.farm import land_backend

        _local_submit(land_backend, *args)
        return
    from portal.tasks import land

    land.apply_async(args, queue=build_queue_for(backend))


def queue_depth(backend: str) -> int | None:
    """Jobs waiting on a backend's queue: the broker's list length (Redis), or the local
    worker's backlog in the embedded mode."""
    if settings.EKB_INPROCESS_WORKER:
        return _local._work_queue.qsize() if _local is not None else 0
    from portal.celery import app

    try:
        with app.connection_for_read() as conn:
            return conn.default_channel.client.llen(queue_for(backend))
    except Exception:  # noqa: BLE001 - a broker that does not answer has no known depth
        return None
