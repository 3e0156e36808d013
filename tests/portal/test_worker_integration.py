"""The acceptance test: a bundle uploaded through the API with a token is evaluated by a real
``celery worker`` process fed through the real Redis broker; its results land in PostgreSQL and
its row appears on the leaderboard where the ranking function puts it."""

from __future__ import annotations

import json

import pytest

from portal_helpers import (BACKEND, MATMUL_HAND_TUNED, QUEUE, RELU_DEFAULT, RELU_OFF_BY_HALF, bundle_zip, make_user,
                            token_client, upload, served_tasks, wait_for)

pytestmark = pytest.mark.usefixtures("isolated_media", "fresh_throttle_cache")


@pytest.mark.django_db(transaction=True)
def test_uploaded_bundle_is_evaluated_by_a_celery_worker(workers, broker):
    from django.conf import settings
    from rest_framework.test import APIClient

    from leaderboard.ranking import board
    from portal.models import Result, Submission

    assert not settings.EKB_INPROCESS_WORKER, "jobs must go through the broker, not a thread in this process"
    worker = workers.start()

    alice = make_user("alice")
    data = bundle_zip(MATMUL_HAND_TUNED, RELU_DEFAULT, RELU_OFF_BY_HALF, name="acceptance")
    resp = token_client(alice).post("/api/v1/submissions/", {"bundle": upload(data)}, format="multipart")
    assert resp.status_code == 201, resp.content
    sub_id = resp.json()["id"]

    sub = wait_for(lambda: Submission.objects.filter(pk=sub_id, state__in=Submission.TERMINAL).first(),
                   timeout=180, what=f"submission {sub_id} to finish", logs=workers.logs)
    assert sub.state == Submission.State.FINISHED, f"{sub.state}: {sub.error}\n{workers.logs()}"
    worker.wait_logged("Task portal.evaluate[", "succeeded")

    # One result per public workload, in PostgreSQL.
    public = {w.id for w in served_tasks()}  # the deployment's tasks (settings.EKB_TASKS, see conftest)
    results = {r.workload: r for r in Result.objects.filter(submission=sub)}
    assert Result.objects.filter(submission=sub).count() == len(public) == sub.tasks_total == sub.tasks_done
    assert set(results) == public
    assert {r.backend for r in results.values()} == {BACKEND}
    matmul, relu, broken = (results[s.workload] for s in (MATMUL_HAND_TUNED, RELU_DEFAULT, RELU_OFF_BY_HALF))
    assert matmul.status == "correct", matmul.reason
    assert matmul.speedup_tvm_default > 1.0  # the hand-tuned schedule beats tvm-default (≈ 6x)
    assert matmul.time_s > 0 and matmul.record["times"]["candidate"]["median_s"] == pytest.approx(matmul.time_s)
    assert relu.status == "correct", relu.reason
    assert broken.status == "wrong_result" and broken.reason
    others = {r.status for w, r in results.items() if w not in (matmul.workload, relu.workload, broken.workload)}
    assert others == {"missing"}
    assert sub.started_at and sub.finished_at and sub.started_at <= sub.finished_at

    summary = sub.summary[BACKEND]
    assert summary["tasks"] == len(public) and summary["correct"] == 2
    assert summary["correct@1"] == pytest.approx(2 / len(public))
    # the matmul (≈ 6x on a quiet machine; speed is measured in bench/, only its sign is a test)
    assert summary["fast@1.0"] >= 1 / len(public), matmul.speedup_tvm_default
    assert set(summary["by_level"]) == {"L1", "L2", "L3"}

    # The API shows the finished submission with its results; the job was acknowledged.
    detail = APIClient().get(f"/api/v1/submissions/{sub_id}/").json()
    assert detail["state"] == "finished"
    assert detail["progress"] == {"done": len(public), "total": len(public)}
    assert {r["workload"]: r["status"] for r in detail["results"]}[RELU_OFF_BY_HALF.workload] == "wrong_result"
    assert broker.llen(QUEUE) == 0
    wait_for(lambda: broker.hlen("unacked") == 0, timeout=10, what="the job to be acknowledged", logs=workers.logs)

    # The leaderboard row, where board() ranks it.
    # The worker refreshed the precomputed rows as each result landed: no rebuild here.
    rows = APIClient().get("/api/v1/leaderboard/", {"backend": BACKEND}).json()["rows"]
    expected = json.loads(json.dumps([r.to_json() for r in board(BACKEND).rows]))
    assert rows == expected
    ours = [r for r in rows if r["submission_id"] == sub_id]
    assert len(ours) == 1
    assert ours[0]["name"] == "acceptance" and ours[0]["owner"] == "alice" and ours[0]["kind"] == "submission"
    assert ours[0]["summary"]["correct"] == 2 and ours[0]["summary"]["tasks"] == len(public)
    assert ours[0]["rank"] == next(r.rank for r in board(BACKEND).rows if r.submission_id == sub_id)
    assert rows[0]["name"] == "tvm-default"  # 1x on every task beats 2 correct of 58
