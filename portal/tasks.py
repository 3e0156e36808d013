"""The jobs, registered by name (``portal.jobs`` sends them by these names), and the worker's
start and stop hooks: a ``celery worker`` loads this module before it starts consuming."""

import threading

from celery import Task, shared_task
from celery.signals import worker_init, worker_ready, worker_shutdown
from django.conf import settings

from evaluator.sandbox import sweep
from evaluator.vocabulary import Track
from portal import jobs, workers
from portal.evaluation import RETRIED, evaluate_backend, retries_spent
from portal.farm import build_backend, land_backend, measure_backend


class Job(Task):
    """A submission's job (arguments: submission id, backend, track)."""

    def on_failure(self, exc, task_id, args, kwargs, einfo):
        # Called once the retries are spent (a retry is not a failure): say why, now.
        if isinstance(exc, RETRIED):
            retries_spent(args[0] if args else kwargs["submission_id"],
                          args[2] if len(args) > 2 else kwargs.get("track", Track.PUBLIC), exc)


# Every job: acknowledged when done (a killed worker's is redelivered), and retried with a
# backoff (2, 4, 8, 16, 30 s…, about 3 minutes in all at the default 8 retries) when its
# database connection dropped or its machine ran short of scratch space, memory or file handles
# (``evaluation.RETRIED``); each delivery skips what an earlier one stored.
JOB = {"base": Job, "acks_late": True, "reject_on_worker_lost": True, "autoretry_for": RETRIED,
       "max_retries": settings.EKB_JOB_RETRIES, "retry_backoff": 2, "retry_backoff_max": 30, "retry_jitter": False}


@shared_task(name=jobs.EVALUATE, **JOB)
def evaluate(submission_id: int, backend: str, track: str = Track.PUBLIC) -> None:
    """Evaluate one submission on one backend (``track`` "verified": every workload with secret
    seeds). Idempotent: a redelivered job skips the tasks that already have a result and
    finishes the rest."""
    evaluate_backend(submission_id, backend, track)


@shared_task(name=jobs.BUILD, **JOB)
def build(submission_id: int, backend: str, track: str = Track.PUBLIC) -> None:
    """Build a bundle submission's tasks on one backend (the compile farm's job); queues the
    measurement. Idempotent: a redelivered job skips what is built."""
    build_backend(submission_id, backend, track)


@shared_task(name=jobs.MEASURE, **JOB)
def measure(submission_id: int, backend: str, track: str = Track.PUBLIC) -> None:
    """Check and time a built submission on this machine's device. Idempotent."""
    measure_backend(submission_id, backend, track)


@shared_task(name=jobs.LAND, **JOB)
def land(submission_id: int, backend: str, track: str = Track.PUBLIC) -> None:
    """Announce a measured submission's results to the boards and finish the track, where the
    suite is (a build queue's machine). Idempotent."""
    land_backend(submission_id, backend, track)


@worker_init.connect
def sweep_sandboxes(**_):
    """A worker killed mid-step leaves cgroups and scratch mounts behind; clear them at start."""
    sweep()


_heartbeat_stop = threading.Event()


@worker_ready.connect
def advertise_backends(sender, **_):
    queues = sender.app.amqp.queues.consume_from or sender.app.amqp.queues
    backends = [b for b in (workers.backend_of(q) for q in queues) if b]
    workers.advertise(sender.hostname, backends)
    workers.start_heartbeat(sender.hostname, _heartbeat_stop)


@worker_shutdown.connect
def withdraw_backends(sender, **_):
    _heartbeat_stop.set()
    workers.withdraw(sender.hostname)
