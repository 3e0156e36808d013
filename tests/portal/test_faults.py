"""Faults during an evaluation: whatever fails, a submission reaches a final state with exactly one
result per task, and the boards equal a rebuild from the results (issue 21; the long version is
``bench/soak.py``).

Real services throughout: a private redis-server (its own port, append-only file on) for the
restart, the test database's real connections for ``pg_terminate_backend``, real ``celery
worker`` processes, the real sandbox for the hanging step. The shared Redis and PostgreSQL are
never restarted.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest

from portal_helpers import (BACKEND, EXAMPLES, MATMUL_HAND_TUNED, QUEUE, RELU_DEFAULT, SOFTMAX_HAND_TUNED,
                            SUM_HAND_TUNED, Spec, bundle_zip, db_thread, make_user, seed_leaderboard, served_tasks,
                            token_client, upload, wait_for)

pytestmark = pytest.mark.usefixtures("isolated_media", "fresh_throttle_cache")

REAL = (RELU_DEFAULT, MATMUL_HAND_TUNED, SUM_HAND_TUNED, SOFTMAX_HAND_TUNED)
# A TVMScript kernel whose check step runs ~10^13 updates: far past the check step's limit
HANGS = Spec("activation/gelu-tanh@m128n768", "tvmscript", "broken/kernels/never-ends.py")


def _submit(name: str, *specs) -> int:
    resp = token_client(make_user(name)).post("/api/v1/submissions/", {"bundle": upload(bundle_zip(*specs))},
                                              format="multipart")
    assert resp.status_code == 201, resp.content
    return resp.json()["id"]


def _final(sub_id: int, logs, timeout: float = 240):
    from portal.models import Submission

    return wait_for(lambda: Submission.objects.filter(pk=sub_id, state__in=Submission.TERMINAL).first(),
                    timeout=timeout, what=f"submission {sub_id} to reach a final state", logs=logs)


def _first_real_result(sub_id: int, logs) -> None:
    from portal.models import Result

    wait_for(lambda: Result.objects.filter(submission_id=sub_id).exclude(status="missing").exists(),
             timeout=180, what="the first evaluated result", logs=logs, interval=0.1)


def _assert_once_each(sub, logs: str = "") -> dict[str, str]:
    """Exactly one public result per served task; returns workload → status."""
    from portal.models import Result

    results = list(Result.objects.filter(submission=sub))
    per_task = Counter((r.workload, r.backend, r.track) for r in results)
    assert max(per_task.values()) == 1, [k for k, n in per_task.items() if n > 1]
    assert {w for w, _, _ in per_task} == {w.id for w in served_tasks()}, logs
    return {r.workload: r.status for r in results}


def _boards_equal_rebuild() -> bool:
    from leaderboard import aggregates
    from leaderboard.models import BaselineSample, BoardEntry

    def stored():
        return ({(e.board_id, e.track, e.slice, e.submission_id, e.baseline): (e.metrics, e.histogram)
                 for e in BoardEntry.objects.all()},
                {(s.board_id, s.workload): (s.speedup, s.time_s, s.measured_at) for s in BaselineSample.objects.all()})

    landed = stored()
    assert landed[0], "no board rows: nothing was announced"
    aggregates.rebuild()
    return stored() == landed


def _assert_boards_equal_rebuild() -> None:
    assert _boards_equal_rebuild()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateRedis:
    """A redis-server of the test's own, with its append-only file on (what a deployment's broker
    needs to keep its queues over a restart); restarted on the same port and directory."""

    def __init__(self, directory):
        if shutil.which("redis-server") is None:
            pytest.skip("redis-server is not installed (make system)")
        self.dir, self.port = directory, _free_port()
        self.proc = None
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.dir),
             "--appendonly", "yes", "--appendfsync", "always", "--save", ""],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        wait_for(self._answers, timeout=20, what=f"redis-server on port {self.port}")

    def _answers(self) -> bool:
        import redis

        try:
            return redis.Redis(port=self.port).ping()
        except redis.RedisError:
            return False

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # a clean shutdown, as a service manager does
            self.proc.wait(timeout=30)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/1"


@pytest.fixture
def private_redis(tmp_path):
    r = PrivateRedis(tmp_path)
    yield r
    r.stop()


@pytest.mark.django_db(transaction=True)
def test_redis_restarted_mid_evaluation(workers, broker, private_redis):
    """The broker goes away for seconds while a worker evaluates: the worker reconnects, the
    submission finishes with one result per task, and no job is left to run again."""
    import redis

    from portal.models import Submission

    worker = workers.start(CELERY_BROKER_URL=private_redis.url)
    sub_id = _submit("alice", *REAL)
    # the upload's job went to the test broker: hand the very message to the private one
    raw = broker.lpop(QUEUE)
    assert raw is not None and broker.llen(QUEUE) == 0
    redis.Redis.from_url(private_redis.url).rpush(QUEUE, raw)

    _first_real_result(sub_id, workers.logs)
    private_redis.stop()
    assert Submission.objects.get(pk=sub_id).state == Submission.State.RUNNING, "restarted too late"
    time.sleep(3)
    private_redis.start()

    sub = _final(sub_id, workers.logs)
    assert sub.state == Submission.State.FINISHED, f"{sub.state}: {sub.error}\n{workers.logs()}"
    status = _assert_once_each(sub, workers.logs())
    assert all(status[s.workload] == "correct" for s in REAL), status
    assert sub.tasks_done == len(served_tasks())
    worker.wait_logged("portal.evaluate", "succeeded")
    client = redis.Redis.from_url(private_redis.url)
    wait_for(lambda: client.hlen("unacked") == 0 and client.llen(QUEUE) == 0, timeout=30,
             what="the job's ack on the restarted broker", logs=workers.logs)
    _assert_boards_equal_rebuild()


@pytest.mark.django_db(transaction=True)
def test_worker_database_connections_terminated_mid_evaluation(workers, broker):
    """``pg_terminate_backend`` on every connection of the worker while it evaluates: the job
    is retried (not the submission failed with "terminating connection"), skips what it stored,
    and the submission finishes with one result per task."""
    from django.db import connection

    from portal.models import Submission

    workers.start()
    sub_id = _submit("bob", *REAL)
    _first_real_result(sub_id, workers.logs)
    with connection.cursor() as cur:
        cur.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        terminated = cur.fetchone()[0]
    assert terminated >= 1
    assert Submission.objects.get(pk=sub_id).state == Submission.State.RUNNING, "terminated too late"

    sub = _final(sub_id, workers.logs)
    assert sub.state == Submission.State.FINISHED, f"{sub.state}: {sub.error}\n{workers.logs()}"
    assert sub.error == ""
    status = _assert_once_each(sub, workers.logs())
    assert all(status[s.workload] == "correct" for s in REAL), status
    _assert_boards_equal_rebuild()


@pytest.mark.django_db(transaction=True)
def test_a_connection_lost_while_a_result_lands_is_retried_not_swallowed():
    """The connection dies inside the boards' refresh of a stored result: the store raises the
    database error (the job is retried), and the retry's announce brings the boards to what a
    rebuild gives. Swallowed, Django would drop the connection, reopen it at the next query, and
    the job would go on with that refresh rolled back (boards ≠ rebuild: a fresh-clone run saw it)."""
    from django.db import connection
    from django.db.models.signals import post_save

    from evaluator.records import TaskResult, Timing
    from leaderboard.models import BaselineSample
    from leaderboard.slices import track_tasks
    from portal.evaluation import TRANSIENT, announce_stored, store

    seeded = seed_leaderboard()
    beta = seeded.subs["beta"]
    w = next(w for w in track_tasks("public") if w.id not in seeded.outcomes["beta"])
    t = Timing(1e-3, 1e-3, 1e-3, 1e-3, 0.001, 10, 10)
    result = TaskResult(w.id, BACKEND, "correct", times={"candidate": t, "tvm-default": t, "vendor": t},
                        speedup={"tvm-default": 3.0, "vendor": 2.0}, level=w.level, family=w.family,
                        domains=list(w.domains))

    def terminate(sender, **_):  # the task's newest baseline sample is being kept: mid-landing
        with connection.cursor() as cur:
            cur.execute("SELECT pg_terminate_backend(pg_backend_pid())")

    post_save.connect(terminate, sender=BaselineSample, dispatch_uid="test-terminate-mid-landing")
    try:
        with pytest.raises(TRANSIENT):
            store(beta, result)
    finally:
        post_save.disconnect(dispatch_uid="test-terminate-mid-landing", sender=BaselineSample)
    assert not store(beta, result), "the result itself was stored before the landing"
    announce_stored(beta, BACKEND, "public", {w.id})  # what the job's next delivery does first
    assert BaselineSample.objects.get(board__backend=BACKEND, workload=w.id).speedup == \
        {"tvm-default": 3.0, "vendor": 2.0}
    _assert_boards_equal_rebuild()


@pytest.mark.django_db(transaction=True)
def test_an_upload_whose_connection_is_ended_mid_request_gets_503_and_its_retry_is_stored_once():
    """The web process's connection is ended while the upload waits on the owner's row (held by
    another session, as a concurrent upload would): the answer is 503 with Retry-After, nothing
    is stored, and the retry with the same Idempotency-Key makes exactly one submission."""
    import threading

    from django.contrib.auth import get_user_model
    from django.db import connection, transaction

    from portal.models import Submission

    alice = make_user("alice")
    client = token_client(alice)
    data = bundle_zip(RELU_DEFAULT)
    holding, release = threading.Event(), threading.Event()
    answer: dict = {}

    def hold_row():  # the owner's row, locked as a concurrent upload of theirs locks it
        with transaction.atomic():
            get_user_model().objects.select_for_update().get(pk=alice.pk)
            holding.set()
            release.wait(60)

    def post():
        answer["resp"] = client.post("/api/v1/submissions/", {"bundle": upload(data)}, format="multipart",
                                     HTTP_IDEMPOTENCY_KEY="upload-1")

    holder = db_thread(hold_row)
    assert holding.wait(30)
    request = db_thread(post)
    with connection.cursor() as cur:  # the request's session, waiting for the lock: end it
        def waiting() -> int | None:
            cur.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                        "AND wait_event_type = 'Lock' AND query ILIKE '%%FOR UPDATE%%'")
            row = cur.fetchone()
            return row[0] if row else None
        pid = wait_for(waiting, timeout=30, what="the upload to wait on the owner's row", interval=0.05)
        cur.execute("SELECT pg_terminate_backend(%s)", [pid])
    request.join(60)
    release.set()
    holder.join(60)
    resp = answer["resp"]
    assert resp.status_code == 503, resp.content
    assert resp["Retry-After"] == "5"
    assert resp.json()["detail"].startswith("the database connection was lost while this request was answered")
    assert not Submission.objects.filter(owner=alice).exists()

    retried = client.post("/api/v1/submissions/", {"bundle": upload(data)}, format="multipart",
                          HTTP_IDEMPOTENCY_KEY="upload-1")
    assert retried.status_code == 201, retried.content
    again = client.post("/api/v1/submissions/", {"bundle": upload(data)}, format="multipart",
                        HTTP_IDEMPOTENCY_KEY="upload-1")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert Submission.objects.filter(owner=alice).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_hanging_step_reaches_a_final_state(workers, broker):
    """A kernel that never ends: its check step is killed at the step's limit, the task is a
    timeout with the reason, and the submission finishes (its other task is evaluated)."""
    from portal.models import Result, Submission

    workers.start()
    sub_id = _submit("carol", HANGS, RELU_DEFAULT)
    sub = _final(sub_id, workers.logs, timeout=300)
    assert sub.state == Submission.State.FINISHED, f"{sub.state}: {sub.error}\n{workers.logs()}"
    _assert_once_each(sub)
    hung = Result.objects.get(submission=sub, workload=HANGS.workload)
    assert hung.status == "timeout", (hung.status, hung.reason)
    assert "exceeded the" in hung.reason and "limit" in hung.reason, hung.reason
    assert Result.objects.get(submission=sub, workload=RELU_DEFAULT.workload).status == "correct"


@pytest.mark.django_db(transaction=True)
def test_a_redelivered_job_of_each_kind_stores_nothing_twice(broker):
    """Every job kind delivered again after its first delivery stored everything (its worker
    died before the ack): the build, the measurement, the landing, the one-job evaluation and
    the verified run. The second delivery stores nothing new and changes no stored row."""
    from portal.evaluation import evaluate_backend
    from portal.farm import build_backend, land_backend, measure_backend
    from portal.models import Build, Result, Submission
    from portal.submissions import create_submission

    owner = make_user("dave")

    def snapshot(model, sub):
        return sorted((r.pk, r.workload, r.track, r.created_at) for r in model.objects.filter(submission=sub))

    # the compile farm's three jobs
    farm = create_submission(owner, upload(bundle_zip(RELU_DEFAULT)), enqueue=False)
    for job, model in ((build_backend, Build), (measure_backend, Result)):
        job(farm.pk, BACKEND)
        first = snapshot(model, farm)
        assert len(first) == len(served_tasks())
        job(farm.pk, BACKEND)
        assert snapshot(model, farm) == first, job.__name__
    land_backend(farm.pk, BACKEND)
    farm.refresh_from_db()
    assert farm.state == Submission.State.FINISHED, farm.error
    finished_at = farm.finished_at
    land_backend(farm.pk, BACKEND)
    farm.refresh_from_db()
    assert farm.finished_at == finished_at and farm.state == Submission.State.FINISHED

    # the one-job evaluation, then the verified run
    one = create_submission(owner, upload(bundle_zip(RELU_DEFAULT)), enqueue=False)
    evaluate_backend(one.pk, BACKEND)
    one.refresh_from_db()
    assert one.state == Submission.State.FINISHED, one.error
    first = snapshot(Result, one)
    evaluate_backend(one.pk, BACKEND)
    assert snapshot(Result, one) == first
    one.refresh_from_db()
    assert one.state == Submission.State.FINISHED and one.tasks_done == len(served_tasks())

    one.queue_verification()
    evaluate_backend(one.pk, BACKEND, "verified")
    one.refresh_from_db()
    assert one.verification == Submission.Verification.FINISHED
    verified = snapshot(Result, one)
    assert len(verified) > len(first)
    # redelivered while its state still said running (the first delivery died before the finish)
    Submission.objects.filter(pk=one.pk).update(verification=Submission.Verification.RUNNING)
    evaluate_backend(one.pk, BACKEND, "verified")
    assert snapshot(Result, one) == verified
    one.refresh_from_db()
    assert one.verification == Submission.Verification.FINISHED

    for sub in (farm, one):
        per_task = Counter(Result.objects.filter(submission=sub).values_list("workload", "backend", "track"))
        assert max(per_task.values()) == 1
    _assert_boards_equal_rebuild()



@pytest.mark.django_db
def test_a_redelivered_endpoint_job_neither_prompts_the_model_again_nor_stores_twice(chat_server, loopback):
    """The endpoint turn's job delivered again after the first delivery stored its task: the
    model is not called again (no request, no token charged) and nothing is stored twice."""
    from evaluator.agents.budget import Budget
    from portal.endpoints import create_endpoint_submission
    from portal.evaluation import evaluate_backend
    from portal.models import Endpoint, Result, Submission

    doc = json.loads((EXAMPLES / "tvm-default/schedules/activation__relu--m128n768.json").read_text())
    good = f"```json\n{json.dumps(doc)}\n```"
    server = chat_server({"*": [good]})
    sub = create_endpoint_submission(make_user("erin"), url=server.url, model="scripted", mode="direct",
                                     budget=Budget(candidates=1).to_json(), tasks=[RELU_DEFAULT.workload],
                                     enqueue=False)
    evaluate_backend(sub.pk, BACKEND)
    sub.refresh_from_db()
    assert sub.state == Submission.State.FINISHED, sub.error
    stored = sorted(Result.objects.filter(submission=sub).values_list("pk", "workload", "status"))
    used = Endpoint.objects.filter(submission=sub).values_list("requests_used", "tokens_used").get()
    calls = len(server.requests)
    assert stored and stored[0][2] == "correct" and calls == 1 and used[0] == 1

    evaluate_backend(sub.pk, BACKEND)  # its worker died before the ack: delivered again
    assert sorted(Result.objects.filter(submission=sub).values_list("pk", "workload", "status")) == stored
    assert len(server.requests) == calls
    assert Endpoint.objects.filter(submission=sub).values_list("requests_used", "tokens_used").get() == used
    sub.refresh_from_db()
    assert sub.state == Submission.State.FINISHED

@pytest.mark.django_db(transaction=True)
def test_a_queued_submission_whose_job_was_lost_is_requeued_though_a_worker_lives(broker, settings):
    """The job never reached the broker (sent while it was down, or the web process died first):
    the submission is queued, its job is nowhere, and a live worker serves its backend. The
    reaper re-queues it rather than waiting on the live worker for ever."""
    from datetime import timedelta

    from django.utils import timezone

    from portal import reaper
    from portal.models import Submission, Worker

    settings.EKB_REAP_AFTER_S = 1
    Worker.objects.create(hostname="live@h", backends=[{"name": BACKEND}])
    sub_id = _submit("erin", RELU_DEFAULT)
    broker.delete(QUEUE)  # the job is lost
    report = reaper.reap(now=timezone.now() + timedelta(seconds=2))
    assert report.ids(reaper.REQUEUED) == [sub_id], report
    assert [j for j in broker.lrange(QUEUE, 0, -1)], "nothing was queued again"
    assert Submission.objects.get(pk=sub_id).requeues == 1
    # its job now waits in line: the next run leaves it alone
    again = reaper.reap(now=timezone.now() + timedelta(seconds=4))
    assert sub_id not in again.ids(reaper.REQUEUED)


@pytest.fixture
def small_scratch(tmp_path):
    """A scratch root on a tmpfs of its own, small in bytes and inodes, so that filling it fills
    nothing else."""
    root = tmp_path / "scratch"
    root.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m,nr_inodes=512,mode=0777", "tmpfs", str(root)],
                      capture_output=True).returncode != 0:
        pytest.skip("a small scratch disk of its own needs to mount a tmpfs (root, as CI runs)")
    yield root
    subprocess.run(["umount", "-l", str(root)], capture_output=True)


def _fill(root) -> Path:
    """Take every byte and inode of ``root`` (a worker sweeps its scratch root as it starts: fill
    it after)."""
    filler = root / "filler"
    filler.mkdir()
    fd = os.open(filler / "bytes", os.O_WRONLY | os.O_CREAT)
    try:
        while os.write(fd, b"\0" * (1 << 20)):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
    for i in range(1 << 16):
        try:
            (filler / f"f{i}").touch()
        except OSError:
            break
    with pytest.raises(OSError):
        (root / "probe").mkdir()
    return filler


@pytest.mark.django_db(transaction=True)
def test_a_full_scratch_disk_is_retried_and_the_submission_finishes_once_there_is_room(workers, broker,
                                                                                      small_scratch):
    """The worker's scratch space is full (something else filled it): the job is retried, not the
    submission failed for what is not its doing, and once there is room it finishes with one
    result per task."""
    from portal.models import Submission

    worker = workers.start(EKB_SCRATCH_ROOT=str(small_scratch))
    filler = _fill(small_scratch)
    sub_id = _submit("erin", RELU_DEFAULT)
    worker.wait_logged("WorkerShort", "Retry in", timeout=120)
    sub = Submission.objects.get(pk=sub_id)
    assert sub.state in (Submission.State.QUEUED, Submission.State.RUNNING), f"{sub.state}: {sub.error}"
    shutil.rmtree(filler)
    sub = _final(sub_id, workers.logs)
    assert sub.state == Submission.State.FINISHED, f"{sub.state}: {sub.error}\n{workers.logs()}"
    assert _assert_once_each(sub, workers.logs())[RELU_DEFAULT.workload] == "correct"
    _assert_boards_equal_rebuild()


@pytest.mark.django_db(transaction=True)
def test_a_scratch_disk_full_past_the_retries_fails_the_submission_saying_why(workers, broker, small_scratch,
                                                                              tmp_path):
    """Still full after the job's last retry: the submission fails with a reason that names the
    shortage and says it is not the submission's doing, and not where the worker's scratch is."""
    from portal.models import Result, Submission

    workers.start(EKB_SCRATCH_ROOT=str(small_scratch), EKB_JOB_RETRIES="1")
    _fill(small_scratch)
    sub_id = _submit("frank", RELU_DEFAULT)
    sub = _final(sub_id, workers.logs, timeout=120)
    assert sub.state == Submission.State.FAILED, f"{sub.state}: {sub.error}"
    assert "ran out of scratch space (No space left on device)" in sub.error, sub.error
    assert "not the submission's doing" in sub.error and "retries were spent" in sub.error
    assert str(tmp_path) not in sub.error and "/" not in sub.error, sub.error
    assert not Result.objects.filter(submission_id=sub_id).exclude(status="missing").exists()
