"""Workers advertise what they serve: the backends behind the queues they consume, described by
the worker's own machine, refreshed by a heartbeat; a worker not seen for a while is gone.

``GET /api/v1/backends/`` reads these records, so it reports the device a job will really run
on, and whether anything consumes a backend's queue at all.
"""

from __future__ import annotations

import threading
from datetime import timedelta

from django.db import close_old_connections
from django.utils import timezone

from portal.models import Worker

HEARTBEAT_S = 30
STALE_AFTER_S = 3 * HEARTBEAT_S  # a worker silent for three heartbeats is no longer counted


def backend_of(queue: str) -> str | None:
    """The backend a queue serves (the inverse of ``jobs.queue_for``); None for other queues."""
    if not queue.startswith("eval."):
        return None
    name = queue[len("eval."):]
    return "rpc:" + name[len("rpc."):] if name.startswith("rpc.") else name


def describe(backends: list[str]) -> list[dict]:
    """Each backend's info as this machine sees it (unavailable ones say why)."""
    from evaluator.backends import BackendInfo, BackendUnavailable, get_backend

    out = []
    for name in backends:
        try:
            out.append(get_backend(name).info().to_json())
        except BackendUnavailable as e:
            out.append(BackendInfo(name, False, str(e), "", "").to_json())
    return out


def advertise(hostname: str, backends: list[str]) -> Worker:
    w, _ = Worker.objects.update_or_create(
        hostname=hostname, defaults={"backends": describe(backends), "started_at": timezone.now(),
                                     "last_seen": timezone.now()})
    return w


def beat(hostname: str) -> None:
    Worker.objects.filter(hostname=hostname).update(last_seen=timezone.now())


def withdraw(hostname: str) -> None:
    Worker.objects.filter(hostname=hostname).delete()


def live() -> list[Worker]:
    return list(Worker.objects.filter(last_seen__gte=timezone.now() - timedelta(seconds=STALE_AFTER_S))
                .order_by("hostname"))


def start_heartbeat(hostname: str, stop: threading.Event) -> threading.Thread:
    def run() -> None:
        while not stop.wait(HEARTBEAT_S):
            try:
                beat(hostname)
            except Exception:  # noqa: BLE001 - a database hiccup must not kill the worker
                close_old_connections()

    t = threading.Thread(target=run, name="ekb-heartbeat", daemon=True)
    t.start()
    return t
