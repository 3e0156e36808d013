"""Start a ``celery worker`` for the backends this machine has.

    python manage.py run_worker --backends cpu-llvm,opencl [--concurrency 1]
    python manage.py run_worker --build cpu-llvm,cuda --backends ""     # a build machine

``--backends``: the measurement queues (``eval.<backend>``) of the devices this machine has;
``--build``: the compile farm's build queues (``build.<backend>``, with EKB_COMPILE_FARM=1), which
any machine with TVM and the compilers can serve. Each measured backend must be available here
(a cuda worker needs a GPU, ``rpc:<key>`` a tracker that knows the key); the worker consumes
their queues and advertises them (see portal/workers.py).
"""

from __future__ import annotations

import os

from celery import current_app
from django.conf import settings
from django.core.checks import Tags
from django.core.management.base import BaseCommand, CommandError

from portal import workers
from portal.jobs import build_queue_for, queue_for


class Command(BaseCommand):
    help = "Start a Celery worker serving the given backends' queues."
    # A worker serves no URL: the URL checks would import the API, whose query choices come from
    # the suite's pattern files, which a measurement machine (TVM's runtime only) cannot import.
    # The command runs the other checks; Celery's own run of every check is skipped.
    requires_system_checks = [Tags.models, Tags.compatibility]

    def add_arguments(self, parser):
        parser.add_argument("--backends", default="cpu-llvm",
                            help="comma-separated backends, e.g. cpu-llvm,opencl,rpc:rk3588")
        parser.add_argument("--build", default="",
                            help="comma-separated backends whose build jobs (compile farm) this worker serves")
        parser.add_argument("--concurrency", type=int, default=1,
                            help="parallel jobs (1: timing needs the machine to itself)")
        parser.add_argument("--hostname", default="", help="Celery node name (default: ekb-<pid>@%%h)")

    def handle(self, *args, backends: str, build: str, concurrency: int, hostname: str, **opts):
        names = [b.strip() for b in backends.split(",") if b.strip()]
        builds = [b.strip() for b in build.split(",") if b.strip()]
        if not names and not builds:
            raise CommandError("--backends and --build name no backend")
        if not 1 <= concurrency <= 64:
            raise CommandError("--concurrency must be between 1 and 64")
        if settings.EKB_INPROCESS_WORKER:
            raise CommandError("no broker configured (CELERY_BROKER_URL): the embedded mode evaluates "
                               "in the web process and needs no worker")
        problems = [f"{i['name']}: {i['reason']}" for i in workers.describe(names) if not i["available"]]
        if problems:
            raise CommandError("cannot serve unavailable backends: " + "; ".join(problems))
        queues = [queue_for(b) for b in names] + [build_queue_for(b) for b in builds]
        argv = ["worker", "-Q", ",".join(queues), "--concurrency", str(concurrency),
                "--loglevel", "info"]
        if hostname:
            argv += ["-n", hostname]
        os.environ.setdefault("CELERY_SKIP_CHECKS", "1")
        current_app.worker_main(argv)  # the project's Celery app (config.celery)
