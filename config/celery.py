"""The Celery app. One queue per backend (``eval.cpu-llvm``, ``eval.opencl``, ``eval.cuda``,
``eval.rpc.<key>``); a worker is started with the queues of the backends it has —
``python manage.py run_worker --backends cpu-llvm,opencl`` — and advertises them (the worker's
start and stop hooks live with the jobs, in ``portal.tasks``)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# The apps send jobs by name through ``celery.current_app``: this app in every thread (a server's
# request threads, the embedded mode's worker thread), not Celery's unconfigured fallback.
app.set_default()
