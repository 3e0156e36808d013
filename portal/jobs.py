"""Where evaluation jobs run: Celery (one queue per backend) or, in the embedded default, a
worker thread inside this process."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from django.conf import settings

_local = None


def queue_for(backend: str) -> str:
    return "eval." + backend.replace(":", ".")


def dispatch(submission_id: int, backend: str, track: str = "public") -> None:
    global _local
    args = (submission_id, backend) + ((track,) if track != "public" else ())
    if settings.EKB_INPROCESS_WORKER:
        from portal.evaluation import evaluate_backend

        if _local is None:  # one job at a time: timing needs the machine to itself
            _local = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ekb-eval")
        _local.submit(evaluate_backend, *args)
        return
    from portal.tasks import evaluate

    evaluate.apply_async(args, queue=queue_for(backend))


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
