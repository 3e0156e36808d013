"""Where a submission is and what made it (docs/operations.md#where-is-my-job): its queue position
and time left, read from the real Redis queues; a cancel that stops the running step of a real
``celery worker``; the daily quota and the API's rates (429 with Retry-After and a message saying
when); the provenance every result carries, checked against this machine's own TVM and compiler."""

from __future__ import annotations

import csv
import html
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest

import evaluator
from portal_helpers import (BACKEND, RELU_DEFAULT, REPO, add_result, bundle_zip, db_thread, make_submission, make_user,
                            manifest, queued_jobs, served_tasks, token_client, upload, wait_for, zip_bytes)

pytestmark = pytest.mark.usefixtures("isolated_media", "fresh_throttle_cache")

# A C kernel that never returns: its check step runs until the step's limit (20 s) unless stopped.
SPIN = "activation/relu6@n1c64h56w56"  # the task after RELU_DEFAULT's in the served order
SPIN_C = "#include <stdint.h>\nvoid spin_relu6(const float *X, float *Y) { for (volatile uint64_t i = 0;; i++) {} }\n"
HISTORY_S, HISTORY_TASKS = 116.0, 58  # a finished submission's wall time: 2 s per task


def _history(owner):
    """A finished submission on the backend: what the estimate measures seconds per task from."""
    from django.utils import timezone

    from portal.models import Submission

    done = timezone.now() - timedelta(minutes=5)
    sub = make_submission(owner, "history")
    Submission.objects.filter(pk=sub.pk).update(started_at=done - timedelta(seconds=HISTORY_S), finished_at=done,
                                                tasks_total=HISTORY_TASKS)
    return sub


def _spin_bundle() -> bytes:
    entries = [RELU_DEFAULT.entry(),
               {"workload": SPIN, "backend": BACKEND, "format": "c-source", "file": "kernels/spin.c",
                "launch": {"entry": "spin_relu6", "args": ["X", "T_relu6"]}}]
    return zip_bytes({"manifest.json": manifest(entries, "spin"), RELU_DEFAULT.member:
                      (REPO / "examples" / "bundles" / RELU_DEFAULT.source).read_bytes(), "kernels/spin.c": SPIN_C})


def _post_bundle(client, data: bytes, name: str):
    return client.post("/api/v1/submissions/", {"bundle": upload(data), "name": name}, format="multipart")


# --------------------------------------------------------------------------- queue position, time left


@pytest.mark.django_db
def test_queue_position_and_time_left_come_from_the_real_queue(broker, django_capture_on_commit_callbacks):
    from django.test import Client

    alice, bob = make_user("alice"), make_user("bob")
    _history(bob)
    per_task = HISTORY_S / HISTORY_TASKS
    n_tasks = len(served_tasks())
    subs = []
    for i in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            resp = _post_bundle(token_client(alice), bundle_zip(RELU_DEFAULT), f"queued-{i}")
        assert resp.status_code == 201, resp.content
        # (queued when the upload's transaction commits: here, after the answer)
        body = token_client(alice).get(f"/api/v1/submissions/{resp.json()['id']}/").json()
        # no worker: each upload waits behind the ones before it, and its estimate counts their tasks
        assert body["queue_position"] == i, body
        assert body["eta_s"] == round(per_task * n_tasks * (i + 1)), body
        assert "no live worker now" in body["eta_basis"]
        subs.append(body["id"])
    assert [args[0] for _, args in queued_jobs(broker)] == subs[::-1]  # the head of the list is on the right

    last = token_client(alice).get(f"/api/v1/submissions/{subs[2]}/").json()
    assert (last["queue_position"], last["eta_s"]) == (2, round(per_task * n_tasks * 3))
    listed = token_client(alice).get("/api/v1/submissions/").json()["results"]
    assert {s["id"]: s["queue_position"] for s in listed if s["id"] in subs} == dict.fromkeys(subs)  # lists: no scan

    # the page says it too, with a Cancel button for the owner
    page = Client()
    page.force_login(alice)
    body = html.unescape(page.get(f"/submissions/{subs[2]}/").content.decode())
    assert re.search(r'queue: <strong class="queue-position">2</strong> jobs ahead', body), body[:3000]
    assert '<strong class="eta">5 min 48 s</strong> left' in body  # 3 × 58 tasks × 2 s
    assert f'action="/submissions/{subs[2]}/cancel/"' in body

    # a cancelled job ahead is not waited for (a worker drops it at once), and an ended one has no place
    resp = page.post(f"/submissions/{subs[0]}/cancel/")
    assert resp.status_code == 302
    first = token_client(alice).get(f"/api/v1/submissions/{subs[0]}/").json()
    assert (first["state"], first["queue_position"], first["eta_s"]) == ("cancelled", None, None)
    last = token_client(alice).get(f"/api/v1/submissions/{subs[2]}/").json()
    assert (last["queue_position"], last["eta_s"]) == (1, round(per_task * n_tasks * 2))


# --------------------------------------------------------------------------- quota, rates


@pytest.mark.django_db
def test_the_daily_quota_answers_429_with_when(settings, django_capture_on_commit_callbacks):
    from django.test import Client
    from django.utils import timezone

    from portal.models import Submission
    from portal.submissions import create_submission

    settings.EKB_DAILY_SUBMISSIONS = 3
    alice, staff = make_user("alice"), make_user("staff")
    staff.is_staff = True
    staff.save()
    now = timezone.now()
    old = create_submission(alice, upload(bundle_zip(RELU_DEFAULT)), enqueue=False)
    old.cancel()
    for hours in (30, 23, 2):  # 30 h ago no longer counts; 23 h ago frees a slot in an hour
        Submission.objects.create(owner=alice, name=f"h{hours}", backends=[BACKEND],
                                  created_at=now - timedelta(hours=hours))
    Submission.objects.filter(pk=old.pk).update(created_at=now - timedelta(hours=1))
    before = Submission.objects.count()

    resp = _post_bundle(token_client(alice), bundle_zip(RELU_DEFAULT), "one-too-many")
    assert resp.status_code == 429, resp.content
    wait = int(resp["Retry-After"])
    assert 3590 <= wait <= 3601
    detail = resp.json()["detail"]
    assert detail.startswith("daily quota reached: 3 submissions in the last 24 hours, and EKB_DAILY_SUBMISSIONS "
                             "allows 3 (reruns count). The next one is possible in 59 min") or \
        "possible in 1 h" in detail, detail
    assert re.search(r"at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\. Retry after \d+ seconds\.$", detail), detail
    # a rerun counts against the owner's quota too; staff rerunning it are not refused
    assert token_client(alice).post(f"/api/v1/submissions/{old.pk}/rerun/").status_code == 429
    with django_capture_on_commit_callbacks(execute=False):
        by_staff = token_client(staff).post(f"/api/v1/submissions/{old.pk}/rerun/")
    assert by_staff.status_code == 201, by_staff.content
    assert Submission.objects.get(pk=by_staff.json()["id"]).owner == alice
    assert Submission.objects.count() == before + 1

    # the web form says the same, with the same status and header
    page = Client()
    page.force_login(alice)
    assert "Daily quota: 4 of 3 submissions" in page.get("/submit/").content.decode()
    resp = page.post("/submit/", {"bundle": upload(bundle_zip(RELU_DEFAULT)), "name": "web", "public": "on"})
    # 4 counted (the staff's rerun is alice's): the second oldest, 2 h old, must age out first
    assert resp.status_code == 429 and 22 * 3600 - 10 <= int(resp["Retry-After"]) <= 22 * 3600 + 1
    assert "daily quota reached: 4 submissions in the last 24 hours" in html.unescape(resp.content.decode())
    resp = page.post(f"/submissions/{old.pk}/rerun/", follow=True)  # the page's Re-run button
    assert resp.redirect_chain == [(f"/submissions/{old.pk}/", 302)]
    assert "daily quota reached: 4 submissions" in html.unescape(resp.content.decode())
    assert Submission.objects.count() == before + 1

    # staff are exempt; 0 turns the quota off
    for i in range(4):
        Submission.objects.create(owner=staff, name=f"s{i}", backends=[BACKEND])
    assert _post_bundle(token_client(staff), bundle_zip(RELU_DEFAULT), "staff").status_code == 201
    settings.EKB_DAILY_SUBMISSIONS = 0
    assert _post_bundle(token_client(alice), bundle_zip(RELU_DEFAULT), "unlimited").status_code == 201


@pytest.mark.django_db(transaction=True)
def test_two_submissions_at_the_same_instant_cannot_both_take_the_last_slot(settings):
    """The owner's row is locked where a submission is stored: a second upload made while the
    first is being stored waits for it, counts it, and is refused with nothing stored (without
    the lock it counted only what was committed, and both took the one free slot)."""
    import threading

    from django.db import transaction

    from portal import quotas
    from portal.models import Submission
    from portal.submissions import create_submission

    settings.EKB_DAILY_SUBMISSIONS = 1
    alice = make_user("alice")
    stored, release = threading.Event(), threading.Event()
    second: dict = {}

    def first_upload():
        with transaction.atomic():  # stored, not yet committed, while the second one asks
            create_submission(alice, upload(bundle_zip(RELU_DEFAULT, name="first")), name="first", enqueue=False)
            stored.set()
            release.wait(30)

    def second_upload():
        try:
            # another bundle: nothing else of the first's (its stored bytes) to wait for
            create_submission(alice, upload(bundle_zip(RELU_DEFAULT, name="second")), name="second", enqueue=False)
            second["outcome"] = "stored"
        except quotas.QuotaExhausted as e:
            second["outcome"] = e.over.message

    a = db_thread(first_upload)
    assert stored.wait(30)
    b = db_thread(second_upload)
    b.join(1.0)
    assert b.is_alive(), f"the second upload did not wait for the first: {second}"  # held by the lock
    release.set()
    a.join(30)
    b.join(30)
    assert second["outcome"].startswith("daily quota reached: 1 submissions in the last 24 hours"), second
    assert list(Submission.objects.filter(owner=alice).values_list("name", flat=True)) == ["first"]


@pytest.mark.django_db
def test_api_rates_per_user_and_per_address(settings):
    from rest_framework.test import APIClient

    settings.EKB_API_RATE, settings.EKB_API_ANON_RATE = "3/minute", "2/minute"
    alice, bob = token_client(make_user("alice")), token_client(make_user("bob"))
    for _ in range(3):
        assert alice.get("/api/v1/submissions/").status_code == 200
    resp = alice.get("/api/v1/leaderboard/boards/")  # every API route counts
    assert resp.status_code == 429
    assert 55 <= int(resp["Retry-After"]) <= 60
    assert re.fullmatch(r"Request was throttled\. Expected available in \d+ seconds\.", resp.json()["detail"])
    assert bob.get("/api/v1/submissions/").status_code == 200  # per user
    anon = APIClient()
    assert [anon.get("/api/v1/tasks/").status_code for _ in range(3)] == [200, 200, 429]
    settings.EKB_API_RATE = None  # empty: no limit
    assert alice.get("/api/v1/submissions/").status_code == 200
    # the schema says every operation may answer 429 with Retry-After
    settings.EKB_API_ANON_RATE = None
    doc = json.loads(APIClient().get("/api/v1/schema/?format=json").content)
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            assert "Retry-After" in op["responses"]["429"]["headers"], (method, path)


def test_a_bad_rate_or_quota_setting_is_refused_by_name():
    env = {k: v for k, v in os.environ.items() if not k.startswith("EKB_")}
    for var, value, says in [("EKB_API_RATE", "fast", "EKB_API_RATE='fast' is not a rate: write N/second"),
                             ("EKB_DAILY_SUBMISSIONS", "-1", "EKB_DAILY_SUBMISSIONS='-1' must be between 0 and "),
                             ("EKB_CANCEL_POLL_S", "soon", "EKB_CANCEL_POLL_S='soon' is not a number")]:
        run = subprocess.run([sys.executable, "-c", "import config.settings"], cwd=REPO, capture_output=True,
                             text=True, env={**env, var: value, "DJANGO_SECRET_KEY": "x"}, timeout=60)
        assert run.returncode != 0 and says in run.stderr, run.stderr[-2000:]


# --------------------------------------------------------------------------- provenance in exports


@pytest.mark.django_db
def test_exports_say_what_produced_each_row(client):
    from portal.models import Provenance, Result
    from portal.signals import results_landed

    # what a worker stores (provenance.collect: the worker test below checks it is true)
    made = {"backend": BACKEND, "hostname": "bench-7", "tvm": "0.27.0", "evaluator": "0.1.0",
            "harness_digest": "a" * 64, "protocol_digest": "b" * 64, "device": "a CPU", "driver": "Linux 6"}
    digest = Provenance.put(made)
    sub = make_submission(make_user("alice"), "made")
    for w in served_tasks()[:3]:
        add_result(sub, w, "correct")
    Result.objects.filter(submission=sub).update(provenance_id=digest)
    # announced as a measurement job does; no baseline timing, so only the submission's rows are scored
    results_landed.send(sender=Result, results=Result.objects.filter(submission=sub))
    exported = json.loads(client.get("/api/v1/leaderboard/export.json").content)
    assert exported["provenance"] == {str(sub.pk): [{"digest": digest, **made}]}
    rows = {r["name"]: r for r in csv.DictReader(io.StringIO(client.get("/api/v1/leaderboard/export.csv")
                                                              .content.decode()))}
    assert {k: rows["made"][k] for k in ("tvm", "hostname", "harness_digest", "digest")} == {
        "tvm": "0.27.0", "hostname": "bench-7", "harness_digest": "a" * 64, "digest": digest}
    assert all(r["tvm"] == "" for name, r in rows.items() if name != "made")  # baselines have none


@pytest.mark.django_db
def test_the_compile_farm_names_both_machines(broker):
    """A build job describes the build machine; the measurement job's results carry it under "build"."""
    import tvm

    from evaluator.harness.protocol import Protocol
    from portal import farm, provenance
    from portal.models import Build, Result
    from portal.submissions import create_submission

    sub = create_submission(make_user("alice"), upload(bundle_zip(RELU_DEFAULT)), enqueue=False)
    farm.build_backend(sub.pk, BACKEND)  # in this process: the jobs' own functions, the real pipeline
    farm.measure_backend(sub.pk, BACKEND)
    relu = Result.objects.select_related("provenance").get(submission=sub, workload=RELU_DEFAULT.workload)
    assert relu.status == "correct", relu.reason
    built = Build.objects.select_related("provenance").get(submission=sub, workload=RELU_DEFAULT.workload)
    made, build_side = relu.provenance.data, built.provenance.data
    assert made["build"] == build_side and build_side["tvm"] == tvm.__version__
    assert "compiler" in build_side and "device" not in build_side  # the build machine has no device here
    assert "compiler" not in made and made["device"]
    assert made["protocol_digest"] == provenance.protocol_digest(Protocol())
    assert made["hostname"] == build_side["hostname"] == socket.gethostname()
    # every result of the job shares the one description (stored once)
    assert set(Result.objects.filter(submission=sub).values_list("provenance_id", flat=True)) == {relu.provenance_id}


# --------------------------------------------------------------------------- cancel stops the running step


def _step_cpu(root: int) -> dict[int, float]:
    """CPU seconds of every run step ("evaluator.harness.child serve") under process ``root``."""
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                children.setdefault(int((d / "stat").read_text().rsplit(")", 1)[1].split()[1]), []).append(int(d.name))
            except (OSError, IndexError, ValueError):
                pass
    out, todo = {}, [root]
    while todo:
        for pid in children.get(todo.pop(), []):
            todo.append(pid)
            try:
                cmd = (Path("/proc") / str(pid) / "cmdline").read_bytes().split(b"\0")
                fields = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if b"evaluator.harness.child" in cmd and b"serve" in cmd:
                out[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def test_a_cancel_stops_the_running_step_and_frees_the_worker(workers):
    import tvm

    from evaluator.backends import c_source
    from evaluator.harness.protocol import Protocol
    from portal import provenance
    from portal.models import Result, Submission

    alice = make_user("alice")
    _history(make_user("bob"))
    api = token_client(alice)
    worker = workers.start(EKB_CANCEL_POLL_S="0.5")
    sub_id = _post_bundle(api, _spin_bundle(), "spin").json()["id"]
    order = [w.id for w in served_tasks()]
    before = order[:order.index(SPIN)]
    assert RELU_DEFAULT.workload in before

    # the tasks before the spinning one are stored; then its check step runs (and would for 20 s)
    wait_for(lambda: Result.objects.filter(submission_id=sub_id).count() == len(before), timeout=90,
             what="the results before the spinning task", logs=workers.logs)
    busy = wait_for(lambda: [pid for pid, cpu in _step_cpu(worker.proc.pid).items() if cpu > 3.0], timeout=60,
                    what="the spinning kernel's step", logs=workers.logs)

    # meanwhile another upload waits behind the job the worker holds
    waiting = _post_bundle(api, bundle_zip(RELU_DEFAULT), "waiting").json()
    assert waiting["queue_position"] == 1, waiting
    left = HISTORY_S / HISTORY_TASKS * (2 * len(order) - len(before))  # the held job's tasks left + its own
    assert waiting["eta_s"] == round(left) and "1 live worker" in waiting["eta_basis"], waiting
    assert api.post(f"/api/v1/submissions/{waiting['id']}/cancel/").status_code == 200

    t0 = time.monotonic()
    assert api.post(f"/api/v1/submissions/{sub_id}/cancel/").json()["state"] == "cancelled"
    worker.wait_logged("portal.evaluate[", "succeeded", timeout=20)
    wait_for(lambda: not any(Path(f"/proc/{pid}").exists() for pid in busy), timeout=10, what="the step to end")
    freed = time.monotonic() - t0
    assert freed < 6.0, f"the worker took {freed:.1f} s to let go of the cancelled job\n{workers.logs()}"
    # the worker is free: the job cancelled while queued is taken and dropped at once
    wait_for(lambda: worker.log(1 << 22).count("succeeded") >= 2, timeout=10, what="the second job",
             logs=workers.logs)

    sub = Submission.objects.get(pk=sub_id)
    assert sub.state == Submission.State.CANCELLED
    stored = dict(Result.objects.filter(submission=sub).values_list("workload", "status"))
    assert sorted(stored) == sorted(before) and stored[RELU_DEFAULT.workload] == "correct"  # none for SPIN

    # every stored result names what produced it, and that is this machine's software
    (prov,) = api.get(f"/api/v1/submissions/{sub_id}/").json()["provenance"]
    got = api.get(f"/api/v1/submissions/{sub_id}/").json()["results"]
    assert {r["provenance"] for r in got} == {prov["digest"]}
    cc = next(c for c in c_source.COMPILERS if shutil.which(c))
    gcc = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    assert (prov["tvm"], prov["evaluator"], prov["backend"]) == (tvm.__version__, evaluator.__version__, BACKEND)
    assert prov["harness_digest"] == provenance.harness_digest()
    assert prov["protocol_digest"] == provenance.protocol_digest(Protocol()) and prov["seeds"] == [0, 1, 2]
    assert prov["hostname"] == socket.gethostname() and prov["worker"].startswith("test-")
    assert prov["worker"] in worker.log(1 << 22)
    assert prov["compiler"]["c"] == gcc and prov["flags"]["c-source"][:2] == ["-std=gnu11", "-O3"]
    assert prov["driver"] == f"{os.uname().sysname} {os.uname().release}" and prov["device"]
    assert prov["build"] is None
    page = html.unescape(token_client(alice).get(f"/submissions/{sub_id}/").content.decode())
    assert "Provenance: what produced these results" in page and prov["digest"] in page and tvm.__version__ in page
