"""GET /api/v1/backends/: what each backend is, who serves it, and how many jobs wait."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from portal_helpers import QUEUE, wait_for


def _rows() -> dict[str, dict]:
    return {b["name"]: b for b in APIClient().get("/api/v1/backends/").json()}


@pytest.mark.django_db
def test_without_a_worker_a_backend_is_unavailable_and_jobs_wait(broker):  # noqa: F811
    from portal import jobs

    rows = _rows()
    cpu = rows["cpu-llvm"]
    assert not cpu["available"] and cpu["reason"] == "no live worker serves this backend"
    assert cpu["served"] and cpu["arch"] and cpu["device"] and cpu["workers"] == []
    assert cpu["queue"] == QUEUE and cpu["queue_depth"] == 0
    assert not rows["cuda"]["available"] and rows["cuda"]["reason"]  # unavailable, with why
    assert rows["cuda"]["queue_depth"] is None  # not served by this deployment

    jobs.dispatch(12345, "cpu-llvm")  # no worker runs: the job waits on the queue
    jobs.dispatch(12346, "cpu-llvm")
    assert _rows()["cpu-llvm"]["queue_depth"] == 2


def test_a_worker_advertises_its_backends_and_withdraws_when_stopped(workers):  # noqa: F811
    from portal.models import Worker

    w = workers.start()
    cpu = _rows()["cpu-llvm"]
    assert cpu["available"] and cpu["reason"] == ""
    (ad,) = cpu["workers"]
    assert ad["hostname"].startswith("test-") and ad["device"] == cpu["device"]
    stored = Worker.objects.get(hostname=ad["hostname"])
    assert [b["name"] for b in stored.backends] == ["cpu-llvm"]

    w.proc.terminate()  # warm shutdown: the worker withdraws its advertisement
    w.proc.wait(timeout=60)
    wait_for(lambda: not Worker.objects.filter(hostname=ad["hostname"]).exists(), timeout=30,
             what="the stopped worker's record to go", logs=workers.logs)
    assert not _rows()["cpu-llvm"]["available"]


@pytest.mark.django_db
def test_a_stale_worker_is_not_counted(broker):  # noqa: F811
    from datetime import timedelta

    from django.utils import timezone

    from portal import workers as registry

    registry.advertise("gone@host", ["cpu-llvm"])
    assert _rows()["cpu-llvm"]["available"]
    from portal.models import Worker

    Worker.objects.filter(hostname="gone@host").update(
        last_seen=timezone.now() - timedelta(seconds=registry.STALE_AFTER_S + 1))
    assert not _rows()["cpu-llvm"]["available"]


def test_queue_names_map_back_to_backends():
    from portal.jobs import queue_for
    from portal.workers import backend_of

    for name in ("cpu-llvm", "opencl", "cuda", "rpc:rk3588.board-1"):
        assert backend_of(queue_for(name)) == name
    assert backend_of("celery") is None


@pytest.mark.django_db
def test_run_worker_refuses_a_backend_this_machine_lacks(settings):
    settings.EKB_INPROCESS_WORKER = False
    with pytest.raises(CommandError, match=r"cannot serve unavailable backends: cuda: "):
        call_command("run_worker", "--backends", "cpu-llvm,cuda")
    with pytest.raises(CommandError, match="--backends and --build name no backend"):
        call_command("run_worker", "--backends", " , ")
