"""GET /api/v1/backends/: what each backend is, whether it is here, and how many jobs wait."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from portal_helpers import QUEUE, broker  # noqa: F401 - pytest fixture


@pytest.mark.django_db
def test_backends_list_device_arch_availability_and_queue_depth(broker):  # noqa: F811
    from portal import jobs

    rows = {b["name"]: b for b in APIClient().get("/api/v1/backends/").json()}
    cpu = rows["cpu-llvm"]
    assert cpu["available"] and cpu["served"] and cpu["arch"] and cpu["device"]
    assert cpu["queue"] == QUEUE and cpu["queue_depth"] == 0
    assert not rows["cuda"]["available"] and rows["cuda"]["reason"]  # unavailable, with why
    assert rows["cuda"]["queue_depth"] is None  # not served by this deployment

    jobs.dispatch(12345, "cpu-llvm")  # no worker runs: the job waits on the queue
    jobs.dispatch(12346, "cpu-llvm")
    again = {b["name"]: b for b in APIClient().get("/api/v1/backends/").json()}
    assert again["cpu-llvm"]["queue_depth"] == 2
