"""The Celery app. One queue per backend (``eval.cpu-llvm`` …); a worker is started with the
queues of the backends it has: ``celery -A portal worker -Q eval.cpu-llvm``."""

import os

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")

app = Celery("portal")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def sweep_sandboxes(**_):
    """A worker killed mid-step leaves cgroups and scratch mounts behind; clear them at start."""
    from evaluator.sandbox import sweep

    sweep()
