"""The jobs, registered by name (``portal.jobs`` sends them by these names), and the worker's
start and stop hooks: a ``celery worker`` loads this module before it starts consuming."""

import threading

from celery import shared_task
from celery.signals import worker_init, worker_ready, worker_shutdown

from evaluator.sandbox import sweep
from evaluator.vocabulary import Track
from portal import jobs, workers
from portal.evaluation import TRANSIENT, evaluate_backend
from portal.farm import build_backend, land_backend, measure_backend

# Every job: acknowledged when done (a killed worker's is redelivered), and retried with a
# backoff (2, 4, 8, 16, 30 s…, about 3 minutes in all) when its database connection dropped
# (``evaluation.TRANSIENT``); each skips what an earlier delivery stored.
JOB = {"acks_late": True, "reject_on_worker_lost": True, "autoretry_for": TRANSIENT, "max_retries": 8,
       "retry_backoff": 2, "retry_backoff_max": 30, "retry_jitter": False}


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
