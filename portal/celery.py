"""The Celery app. One queue per backend (``eval.cpu-llvm`` …); a worker is started with the
queues of the backends it has: ``celery -A portal worker -Q eval.cpu-llvm``."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")

app = Celery("portal")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
