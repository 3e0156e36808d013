"""Workers advertise what they serve: the backends behind the queues they consume, described by
the worker's own machine, refreshed by a heartbeat; a worker not seen for a while is gone.

``GET /api/v1/backends/`` reads these records, so it reports the device a job will really run
on, and whether anything consumes a backend's queue at all.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import threading
from datetime import timedelta
from pathlib import Path

from django.db import close_old_connections
from django.utils import timezone

from portal.models import Worker

HEARTBEAT_S = 30
STALE_AFTER_S = 3 * HEARTBEAT_S  # a worker silent for three heartbeats is no longer counted
log = logging.getLogger(__name__)
DESCRIBE_TIMEOUT_S = 60  # an RPC tracker that does not answer costs seconds, not the worker


def backend_of(queue: str) -> str | None:
    """The backend a queue serves (the inverse of ``jobs.queue_for``); None for other queues."""
    if not queue.startswith("eval."):
        return None
    name = queue[len("eval."):]
    return "rpc:" + name[len("rpc."):] if name.startswith("rpc.") else name


def describe(backends: list[str]) -> list[dict]:
    """Each backend's info as this machine sees it (unavailable ones say why).

    Asked in a fresh process: probing a backend loads its driver (OpenCL, CUDA), and a driver
    loaded in the worker's parent does not survive the fork into its pool processes."""
    cmd = [sys.executable, "-m", "evaluator", "backends", "--json"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=DESCRIBE_TIMEOUT_S, check=True,
                              cwd=Path(__file__).resolve().parents[1])
        found = {i["name"]: i for i in json.loads(proc.stdout)}
        why = "not a backend of this evaluator"
    except (subprocess.SubprocessError, OSError, ValueError) as e:
        found, why = {}, f"could not describe the backends here: {e}"[:500]
    return [found.get(name) or {"name": name, "available": False, "reason": why, "device": "", "arch": "",
                                "target": {}} for name in backends]


def advertise(hostname: str, backends: list[str]) -> Worker:
    described = describe(backends)
    for b in described:  # the start-up line: what untrusted code on each backend runs inside
        box = b.get("sandbox") or {}
        log.warning("%s: %s: %s", hostname, b["name"],
                    box.get("limits") if box.get("available") else f"no sandbox: {box.get('reason') or b['reason']}")
    w, _ = Worker.objects.update_or_create(
        hostname=hostname, defaults={"backends": described, "started_at": timezone.now(),
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
