"""The Celery app. One queue per backend (``eval.cpu-llvm``, ``eval.opencl``, ``eval.cuda``,
``eval.rpc.<key>``); a worker is started with the queues of the backends it has —
``python manage.py run_worker --backends cpu-llvm,opencl`` — and advertises them."""

import os
import threading

from celery import Celery
from celery.signals import worker_init, worker_ready, worker_shutdown

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")

app = Celery("portal")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def sweep_sandboxes(**_):
    """A worker killed mid-step leaves cgroups and scratch mounts behind; clear them at start."""
    from evaluator.sandbox import sweep

    sweep()


_heartbeat_stop = threading.Event()


@worker_ready.connect
def advertise_backends(sender, **_):
    from portal import workers

    queues = sender.app.amqp.queues.consume_from or sender.app.amqp.queues
    backends = [b for b in (workers.backend_of(q) for q in queues) if b]
    workers.advertise(sender.hostname, backends)
    workers.start_heartbeat(sender.hostname, _heartbeat_stop)


@worker_shutdown.connect
def withdraw_backends(sender, **_):
    from portal import workers

    _heartbeat_stop.set()
    workers.withdraw(sender.hostname)
