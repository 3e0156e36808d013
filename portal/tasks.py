from celery import shared_task

from portal.evaluation import evaluate_backend


@shared_task(name="portal.evaluate", acks_late=True, reject_on_worker_lost=True)
def evaluate(submission_id: int, backend: str, track: str = "public") -> None:
    """Evaluate one submission on one backend (``track`` "verified": every workload with secret
    seeds). Idempotent: a redelivered job skips the tasks that already have a result and
    finishes the rest."""
    evaluate_backend(submission_id, backend, track)
