"""A worker killed (SIGKILL) in the middle of a job: the unacknowledged job is redelivered by the
Redis transport after its visibility timeout, a new worker finishes it, and the submission ends
with exactly one result per (workload, backend).

The visibility timeout (EKB_VISIBILITY_TIMEOUT → broker_transport_options) is applied by the
consumer: kombu's Redis transport stamps a message with its delivery time when a worker takes it,
and a worker restores messages unacknowledged for longer than *its* timeout (at start-up, then
periodically). The producer's value (this process: the default 3600 s) plays no part, which
this test relies on: only the workers get the short timeout.
"""

from __future__ import annotations

import re
import time
from collections import Counter

import pytest

from portal_helpers import (BACKEND, MATMUL_HAND_TUNED, QUEUE, RELU_DEFAULT, SOFTMAX_HAND_TUNED, SUM_HAND_TUNED,
                            bundle_zip, make_user, served_tasks, token_client, upload, wait_for)

pytestmark = pytest.mark.usefixtures("isolated_media", "fresh_throttle_cache")

VISIBILITY_TIMEOUT_S = 10
REAL = (RELU_DEFAULT, MATMUL_HAND_TUNED, SUM_HAND_TUNED, SOFTMAX_HAND_TUNED)


@pytest.mark.django_db(transaction=True)
def test_job_of_a_killed_worker_is_redelivered_and_finished_once(workers, broker):
    from django.conf import settings

    from portal.models import Result, Submission

    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] != VISIBILITY_TIMEOUT_S
    order = [w.id for w in served_tasks()]
    assert order.index(RELU_DEFAULT.workload) < min(order.index(s.workload) for s in REAL[1:])

    first = workers.start(EKB_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT_S))
    data = bundle_zip(*REAL, name="redelivered")
    resp = token_client(make_user("alice")).post("/api/v1/submissions/", {"bundle": upload(data)},
                                                  format="multipart")
    assert resp.status_code == 201, resp.content
    sub_id = resp.json()["id"]

    # Kill it once the first real entry has a result and three are still to come.
    wait_for(lambda: Result.objects.filter(submission_id=sub_id).exclude(status="missing").exists(),
             timeout=180, what="the first evaluated result", logs=workers.logs, interval=0.1)
    first.kill()
    killed_at = time.monotonic()
    sub = Submission.objects.get(pk=sub_id)
    stored = Result.objects.filter(submission_id=sub_id).count()
    assert sub.state == Submission.State.RUNNING, f"{sub.state}: killed too late to test anything"
    assert 0 < stored < sub.tasks_total
    assert not Result.objects.filter(submission_id=sub_id, workload=SOFTMAX_HAND_TUNED.workload).exists()
    # The job is neither acknowledged nor back on the queue: it waits in the transport's unacked set.
    assert broker.hlen("unacked") == 1 and broker.llen(QUEUE) == 0

    # Past the visibility timeout, a new worker restores the job and finishes the submission.
    time.sleep(max(0.0, killed_at + VISIBILITY_TIMEOUT_S + 1 - time.monotonic()))
    assert Result.objects.filter(submission_id=sub_id).count() == stored  # nothing ran meanwhile
    second = workers.start(EKB_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT_S))
    sub = wait_for(lambda: Submission.objects.filter(pk=sub_id, state__in=Submission.TERMINAL).first(),
                   timeout=180, what=f"submission {sub_id} to finish after redelivery", logs=workers.logs)
    assert sub.state == Submission.State.FINISHED, f"{sub.state}: {sub.error}\n{workers.logs()}"
    # The very job the first worker took (same task id) was delivered again and succeeded there.
    task_id = re.search(r"Task portal\.evaluate\[([0-9a-f-]+)\] received", first.log(1 << 20)).group(1)
    second.wait_logged(f"Task portal.evaluate[{task_id}] received", f"Task portal.evaluate[{task_id}] succeeded")

    results = list(Result.objects.filter(submission_id=sub_id))
    per_task = Counter((r.workload, r.backend) for r in results)
    assert max(per_task.values()) == 1, [k for k, n in per_task.items() if n > 1]
    assert len(results) == sub.tasks_total == sub.tasks_done == len(order)
    assert set(per_task) == {(w, BACKEND) for w in order}
    status = {r.workload: r.status for r in results}
    for s in REAL:
        assert status[s.workload] == "correct", (s.workload, [r.reason for r in results if r.workload == s.workload])
    assert Counter(status.values()) == {"correct": len(REAL), "missing": len(order) - len(REAL)}
    assert sub.summary[BACKEND]["correct"] == len(REAL)

    # The redelivered job was acknowledged: nothing is left to deliver again.
    wait_for(lambda: broker.hlen("unacked") == 0, timeout=10, what="the redelivered job's ack", logs=workers.logs)
    assert broker.llen(QUEUE) == 0
