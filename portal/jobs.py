"""Where evaluation jobs run: Celery (one queue per backend) or, in the embedded default, a
worker thread inside this process."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from django.conf import settings

_local = None


def queue_for(backend: str) -> str:
    return "eval." + backend.replace(":", ".")


def dispatch(submission_id: int, backend: str) -> None:
    global _local
    if settings.EKB_INPROCESS_WORKER:
        from portal.evaluation import evaluate_backend

        if _local is None:  # one job at a time: timing needs the machine to itself
            _local = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ekb-eval")
        _local.submit(evaluate_backend, submission_id, backend)
        return
    from portal.tasks import evaluate

    evaluate.apply_async((submission_id, backend), queue=queue_for(backend))
