"""The cpu-edge board end to end: a bundle uploaded through the API is queued on ``eval.cpu-edge``
(never ``eval.cpu-llvm``), evaluated by a real worker started with ``run_worker --backends
cpu-edge``, and its results land on the cpu-edge board under the profile's device string."""

from __future__ import annotations

import subprocess
import sys
import uuid

import pytest

from evaluator.backends.cpu_edge import CpuEdge
from evaluator.sandbox import probe
from evaluator.vocabulary import BackendKind
from portal_helpers import (EXAMPLES, QUEUE, REPO, RELU_DEFAULT, Worker, make_user, manifest, queued_jobs,
                            token_client, upload, wait_for, worker_env, zip_bytes)

pytestmark = [pytest.mark.usefixtures("isolated_media", "fresh_throttle_cache"),
              pytest.mark.skipif(probe() is not None, reason=f"no sandbox on this machine: {probe()}")]

EDGE_QUEUE = "eval.cpu-edge"


class RunWorker(Worker):
    """A worker the way a deployment starts one: ``manage.py run_worker --backends …``."""

    def __init__(self, log_path, env, backends: str):
        self.log_path = log_path
        self._log = open(log_path, "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "manage.py", "run_worker", "--backends", backends,
             "--hostname", f"edge-{uuid.uuid4().hex[:8]}@%h"],
            cwd=REPO, env=env, stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True)


def edge_bundle() -> bytes:
    entry = {"workload": RELU_DEFAULT.workload, "backend": BackendKind.CPU_EDGE, "format": RELU_DEFAULT.format,
             "file": RELU_DEFAULT.member}
    return zip_bytes({"manifest.json": manifest([entry], name="edge"),
                      RELU_DEFAULT.member: (EXAMPLES / RELU_DEFAULT.source).read_bytes()})


@pytest.mark.django_db(transaction=True)
def test_an_edge_bundle_is_queued_for_and_lands_on_the_cpu_edge_board(workers, broker, settings, tmp_path):
    from rest_framework.test import APIClient

    from leaderboard.models import Board
    from portal.models import Result, Submission

    settings.EKB_BACKENDS = ["cpu-llvm", "cpu-edge"]
    device = CpuEdge().info().device
    assert "edge profile: 1 core" in device and "1 GiB memory cap (cgroup)" in device

    resp = token_client(make_user("edgy")).post("/api/v1/submissions/", {"bundle": upload(edge_bundle())},
                                                 format="multipart")
    assert resp.status_code == 201, resp.content
    sub_id = resp.json()["id"]
    # routed by backend: the job waits on the edge queue; a cpu-llvm worker's queue never has it
    jobs = wait_for(lambda: queued_jobs(broker, EDGE_QUEUE), timeout=30, what="the job on eval.cpu-edge")
    assert [name for name, _ in jobs] == ["portal.evaluate"] and BackendKind.CPU_EDGE in jobs[0][1]
    assert queued_jobs(broker, QUEUE) == []

    env = worker_env(EKB_BACKENDS="cpu-llvm,cpu-edge")
    worker = RunWorker(tmp_path / "edge-worker.log", env, "cpu-edge")
    workers.started.append(worker)  # killed at teardown with the others
    worker.wait_ready()
    assert EDGE_QUEUE in worker.log(1 << 20)  # celery's start-up banner lists the queues it serves

    sub = wait_for(lambda: Submission.objects.filter(pk=sub_id, state__in=Submission.TERMINAL).first(),
                   timeout=240, what=f"submission {sub_id} to finish", logs=workers.logs)
    assert sub.state == Submission.State.FINISHED, f"{sub.state}: {sub.error}\n{workers.logs()}"
    relu = Result.objects.get(submission=sub, workload=RELU_DEFAULT.workload)
    assert relu.backend == BackendKind.CPU_EDGE and relu.status == "correct", relu.reason
    assert relu.device == device
    assert {r.backend for r in Result.objects.filter(submission=sub)} == {BackendKind.CPU_EDGE}
    assert Board.objects.filter(backend=BackendKind.CPU_EDGE, device=device).exists()

    # the board says which device it ran on, and how it was constrained
    rows = APIClient().get("/api/v1/leaderboard/", {"backend": BackendKind.CPU_EDGE}).json()["rows"]
    assert any(r["submission_id"] == sub_id for r in rows)
    page = APIClient().get("/boards/").content.decode()
    assert device in page
