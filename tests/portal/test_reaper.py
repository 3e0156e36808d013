"""Stuck submissions (``portal.reaper``, ``manage.py reap_stuck``): a submission whose worker was
killed and that no live worker serves is re-queued and finished once by the next worker; one no
worker ever takes again fails after EKB_MAX_REQUEUES re-queues with the reason; one a live
worker is on, or whose job waits in line, is left alone; and the API says when a backend of it
has no live worker.

"Later" is a ``now`` given to ``reap``: a killed worker's record stops counting as live
STALE_AFTER_S after its last heartbeat, which the test does not sit through.
"""

from __future__ import annotations

import io
from collections import Counter
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from portal_helpers import (BACKEND, MATMUL_HAND_TUNED, QUEUE, RELU_DEFAULT, SOFTMAX_HAND_TUNED, bundle_zip,
                            make_submission, make_user, queued_jobs, served_tasks, token_client, upload, wait_for)

pytestmark = pytest.mark.usefixtures("isolated_media", "fresh_throttle_cache")

REAP_AFTER_S = 2


@pytest.fixture
def reap_fast(settings):
    settings.EKB_REAP_AFTER_S = REAP_AFTER_S
    settings.EKB_MAX_REQUEUES = 2
    return settings


def _retrieve(api, sub_id: int) -> dict:
    resp = api.get(f"/api/v1/submissions/{sub_id}/")
    assert resp.status_code == 200, resp.content
    return resp.json()


@pytest.mark.django_db(transaction=True)
def test_killed_worker_job_is_reaped_requeued_and_finished_once(workers, broker, reap_fast):
    from portal import reaper
    from portal.models import Result, Submission
    from portal.workers import STALE_AFTER_S

    api = token_client(make_user("alice"))
    data = bundle_zip(RELU_DEFAULT, MATMUL_HAND_TUNED, SOFTMAX_HAND_TUNED, name="reaped")
    resp = api.post("/api/v1/submissions/", {"bundle": upload(data)}, format="multipart")
    assert resp.status_code == 201, resp.content
    sub_id = resp.json()["id"]

    # No worker yet: the submission says what it waits for, and its job waiting in line is not
    # stuck however long it waits.
    assert _retrieve(api, sub_id)["waiting_for"] == [BACKEND]
    later = reaper.reap(now=timezone.now() + timedelta(hours=1))
    assert later.reaped == () and later.spared == ((sub_id, "its job waits in line"),)
    assert broker.llen(QUEUE) == 1

    first = workers.start()
    wait_for(lambda: _retrieve(api, sub_id)["waiting_for"] == [], timeout=30, what="the worker's advertisement",
             logs=workers.logs)
    wait_for(lambda: Result.objects.filter(submission_id=sub_id).exclude(status="missing").exists(),
             timeout=180, what="the first evaluated result", logs=workers.logs, interval=0.1)
    # A live worker on it: fresh progress is not stalled, and a stalled one is still left alone.
    assert reaper.reap().stalled == 0
    stalled = reaper.reap(now=timezone.now() + timedelta(seconds=REAP_AFTER_S + 1))
    assert stalled.reaped == () and stalled.spared == ((sub_id, f"a live worker serves {BACKEND}"),)
    first.kill()

    sub = Submission.objects.get(pk=sub_id)
    stored = Result.objects.filter(submission_id=sub_id).count()
    assert sub.state == Submission.State.RUNNING and sub.requeues == 0, f"{sub.state}: killed too late"
    assert sub.progressed_at is not None and 0 < stored < sub.tasks_total
    assert not Result.objects.filter(submission_id=sub_id, workload=SOFTMAX_HAND_TUNED.workload).exists()
    assert broker.hlen("unacked") == 1 and broker.llen(QUEUE) == 0  # its job died with the worker

    # Once the killed worker's record is stale, the reaper queues its job again.
    out = io.StringIO()
    call_command("reap_stuck", stdout=out)  # now: the dead worker still counts as live
    assert "0 reaped" in out.getvalue() and Submission.objects.get(pk=sub_id).requeues == 0
    report = reaper.reap(now=timezone.now() + timedelta(seconds=STALE_AFTER_S + REAP_AFTER_S + 1))
    assert report.ids(reaper.REQUEUED) == [sub_id], report
    assert BACKEND not in report.served
    assert queued_jobs(broker) == [("portal.evaluate", [sub_id, BACKEND])]
    assert Submission.objects.get(pk=sub_id).requeues == 1

    # The default visibility timeout (an hour): the next worker takes the re-queued job, not the
    # dead one's, and the evaluation skips what is stored.
    workers.start()
    sub = wait_for(lambda: Submission.objects.filter(pk=sub_id, state__in=Submission.TERMINAL).first(),
                   timeout=180, what=f"submission {sub_id} to finish after the re-queue", logs=workers.logs)
    assert sub.state == Submission.State.FINISHED, f"{sub.state}: {sub.error}\n{workers.logs()}"
    per_task = Counter(Result.objects.filter(submission_id=sub_id).values_list("workload", "backend"))
    assert set(per_task) == {(w.id, BACKEND) for w in served_tasks()}
    assert max(per_task.values()) == 1, [k for k, n in per_task.items() if n > 1]
    assert sub.tasks_done == sub.tasks_total == len(per_task)
    assert _retrieve(api, sub_id)["waiting_for"] == []


@pytest.mark.django_db
def test_no_worker_ever_fails_after_the_last_requeue_with_the_reason(broker, reap_fast):
    from portal import reaper
    from portal.models import Submission, Worker

    gone = timezone.now() - timedelta(hours=2)
    Worker.objects.create(hostname="gone@rack-3", backends=[{"name": BACKEND}], started_at=gone, last_seen=gone)
    sub = make_submission(make_user("bob"), "orphan", state="running")
    Submission.objects.filter(pk=sub.pk).update(started_at=timezone.now() - timedelta(hours=1))
    api = token_client(make_user("carol"))
    assert _retrieve(api, sub.pk)["waiting_for"] == [BACKEND]

    t = timezone.now()
    first = reaper.reap(now=t)
    assert first.ids(reaper.REQUEUED) == [sub.pk] and "queued cpu-llvm" in first.reaped[0].detail
    assert queued_jobs(broker) == [("portal.evaluate", [sub.pk, BACKEND])]
    assert reaper.reap(now=t + timedelta(seconds=1)).reaped == ()  # its clock restarted with the re-queue
    second = reaper.reap(now=t + timedelta(seconds=REAP_AFTER_S + 1))
    assert second.ids(reaper.REQUEUED) == [sub.pk] and "already wait in line" in second.reaped[0].detail
    assert broker.llen(QUEUE) == 1  # no second copy of a job still in line
    assert Submission.objects.get(pk=sub.pk).state == Submission.State.RUNNING

    last = reaper.reap(now=t + timedelta(seconds=2 * (REAP_AFTER_S + 1)))
    assert last.ids(reaper.FAILED) == [sub.pk], last
    sub.refresh_from_db()
    assert sub.state == Submission.State.FAILED and sub.requeues == 2 and sub.finished_at is not None
    assert sub.error.startswith("no worker finished it after 2 re-queues; the last worker seen on cpu-llvm was "
                                "gone@rack-3 at "), sub.error
    assert reaper.reap(now=t + timedelta(hours=1)).stalled == 0  # failed is final


@pytest.mark.django_db
def test_admin_lists_the_stuck_and_requeues_or_fails_them(client, broker, reap_fast):
    from portal.models import Submission

    staff = make_user("keeper", "pw-keeper")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client.force_login(staff)
    owner = make_user("dora")
    stuck, other = make_submission(owner, "stuck-one", state="running"), make_submission(owner, "fresh-one",
                                                                                          state="running")
    hour_ago = timezone.now() - timedelta(hours=1)
    Submission.objects.filter(pk=stuck.pk).update(started_at=hour_ago, progressed_at=hour_ago)
    Submission.objects.filter(pk=other.pk).update(started_at=hour_ago, progressed_at=timezone.now())

    listed = client.get("/admin/portal/submission/?stuck=yes").content.decode()
    assert "stuck-one" in listed and "fresh-one" not in listed

    def act(action: str) -> str:
        return client.post("/admin/portal/submission/", {"action": action, "_selected_action": [stuck.pk]},
                           follow=True).content.decode()

    assert "re-queued on cpu-llvm (re-queue 1)" in act("requeue")
    assert queued_jobs(broker) == [("portal.evaluate", [stuck.pk, BACKEND])]
    assert "stuck-one" not in client.get("/admin/portal/submission/?stuck=yes").content.decode()  # clock restarted
    assert "failed: no worker finished it after 1 re-queue; no worker of cpu-llvm was ever seen" in act("fail_stuck")
    stuck.refresh_from_db()
    other.refresh_from_db()
    assert stuck.state == Submission.State.FAILED and other.state == Submission.State.RUNNING
    assert "already ended" in act("fail_stuck")
