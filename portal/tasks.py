from celery import shared_task

from portal.evaluation import evaluate_backend
from portal.farm import build_backend, land_backend, measure_backend


@shared_task(name="portal.evaluate", acks_late=True, reject_on_worker_lost=True)
def evaluate(submission_id: int, backend: str, track: str = "public") -> None:
    """Evaluate one submission on one backend (``track`` "verified": every workload with secret
    seeds). Idempotent: a redelivered job skips the tasks that already have a result and
    finishes the rest."""
    evaluate_backend(submission_id, backend, track)


@shared_task(name="portal.build", acks_late=True, reject_on_worker_lost=True)
def build(submission_id: int, backend: str, track: str = "public") -> None:
    """Build a bundle submission's tasks on one backend (the compile farm's job); queues the
    measurement. Idempotent: a redelivered job skips what is built."""
    build_backend(submission_id, backend, track)


@shared_task(name="portal.measure", acks_late=True, reject_on_worker_lost=True)
def measure(submission_id: int, backend: str, track: str = "public") -> None:
    """Check and time a built submission on this machine's device. Idempotent."""
    measure_backend(submission_id, backend, track)


@shared_task(name="portal.land", acks_late=True, reject_on_worker_lost=True)
def land(submission_id: int, backend: str, track: str = "public") -> None:
    """Announce a measured submission's results to the boards and finish the track, where the
    suite is (a build queue's machine). Idempotent."""
    land_backend(submission_id, backend, track)
