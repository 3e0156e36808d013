"""The compile farm: a build worker and a measurement worker, two real ``celery worker``
processes that share only the database and the broker, evaluate a submission end to end.

The build worker serves ``build.cpu-llvm`` only and the measurement worker ``eval.cpu-llvm``
only; each has a var directory of its own, empty, so neither can read the upload from the
portal's media directory: the bundle and the artifacts reach them through the database.
"""

from __future__ import annotations

import pytest

from portal_helpers import (BACKEND, MATMUL_HAND_TUNED, QUEUE, RELU_DEFAULT, RELU_OFF_BY_HALF, bundle_zip, make_user,
                            served_tasks, token_client, upload, wait_for)

pytestmark = pytest.mark.usefixtures("isolated_media", "fresh_throttle_cache")
BUILD_QUEUE = "build.cpu-llvm"


def _files_under(path) -> list[str]:
    return sorted(str(p.relative_to(path)) for p in path.rglob("*") if p.is_file())


@pytest.mark.django_db(transaction=True)
def test_a_build_worker_and_a_measurement_worker_evaluate_a_submission(workers, broker, settings, tmp_path):
    from portal.models import Blob, Build, Result, Submission

    settings.EKB_COMPILE_FARM = True  # this process queues the build job; the build worker the measurement
    media = settings.MEDIA_ROOT
    builder_var, measurer_var = tmp_path / "builder-var", tmp_path / "measurer-var"
    farm = {"EKB_COMPILE_FARM": "1"}
    builder = workers.start(queues=BUILD_QUEUE, EKB_VAR_DIR=str(builder_var), **farm)
    measurer = workers.start(queues=QUEUE, EKB_VAR_DIR=str(measurer_var), **farm)

    data = bundle_zip(MATMUL_HAND_TUNED, RELU_DEFAULT, RELU_OFF_BY_HALF, name="farmed")
    resp = token_client(make_user("alice")).post("/api/v1/submissions/", {"bundle": upload(data)}, format="multipart")
    assert resp.status_code == 201, resp.content
    sub_id = resp.json()["id"]
    assert _files_under(media), "the upload is in the portal's media directory"

    sub = wait_for(lambda: Submission.objects.filter(pk=sub_id, state__in=Submission.TERMINAL).first(),
                   timeout=300, what=f"submission {sub_id} to finish", logs=workers.logs)
    assert sub.state == Submission.State.FINISHED, f"{sub.state}: {sub.error}\n{workers.logs()}"

    # each worker did its own job only
    built = builder.wait_logged("Task portal.build[", "succeeded")
    measured = measurer.wait_logged("Task portal.measure[", "succeeded")
    assert "Task portal.build[" in built and "succeeded" in built and "portal.measure[" not in built
    assert "Task portal.measure[" in measured and "succeeded" in measured and "portal.build[" not in measured
    assert "portal.evaluate[" not in built + measured

    # every public task was built once and measured once; the builds' files are in the database
    public = {w.id for w in served_tasks()}
    builds = {b.workload: b for b in Build.objects.filter(submission=sub)}
    assert set(builds) == public
    results = {r.workload: r for r in Result.objects.filter(submission=sub)}
    assert set(results) == public and sub.tasks_done == len(public)
    matmul, relu, broken = (results[s.workload] for s in (MATMUL_HAND_TUNED, RELU_DEFAULT, RELU_OFF_BY_HALF))
    assert matmul.status == "correct" and matmul.speedup_tvm_default > 0, matmul.reason
    assert relu.status == "correct", relu.reason
    assert broken.status == "wrong_result" and "differs from the reference" in broken.reason
    assert {r.status for w, r in results.items() if w not in (matmul.workload, relu.workload, broken.workload)} == \
        {"missing"}
    digests = [d for b in builds.values() if not b.failed
               for _, d in b.candidate + [f for files in b.baselines.values() for f in files]]
    assert digests and Blob.objects.filter(digest__in=digests, kind=Blob.Kind.ARTIFACT).count() == len(set(digests))
    assert matmul.record["steps_s"]["build"] > 0  # the build's step, carried into the measured record
    assert Blob.objects.filter(digest=sub.bundle_sha256, kind=Blob.Kind.BUNDLE).exists()

    # neither worker read or wrote a file of the portal's: their own var directories hold no upload
    for var in (builder_var, measurer_var):
        assert not any(f.startswith("media") for f in _files_under(var)) if var.exists() else True
    assert broker.llen(QUEUE) == 0 and broker.llen(BUILD_QUEUE) == 0


@pytest.mark.django_db
def test_a_blob_is_stored_once_and_checked_when_read(settings):
    from portal.models import Blob

    a = Blob.put(Blob.Kind.ARTIFACT, b"kernel bytes")
    assert Blob.put(Blob.Kind.ARTIFACT, b"kernel bytes") == a and Blob.objects.count() == 1
    assert Blob.read(a) == b"kernel bytes"
    Blob.objects.filter(digest=a).update(data=b"tampered")
    with pytest.raises(ValueError, match="does not match its digest"):
        Blob.read(a)
    with pytest.raises(LookupError, match="no stored blob"):
        Blob.read("0" * 64)
    settings.EKB_BLOB_MAX_BYTES = 1 << 20
    with pytest.raises(ValueError, match="artifact of 2 MiB: over the 1 MiB a stored blob may hold"):
        Blob.put(Blob.Kind.ARTIFACT, b"x" * (2 << 20))


@pytest.mark.django_db
def test_the_verified_track_is_built_and_measured_by_the_farm(monkeypatch):
    """Held-out workloads go through the same two jobs, with the verified seeds: the verification
    finishes with a result on every task of the verified track, held-out ones included."""
    from leaderboard.slices import track_tasks
    from portal import farm, jobs
    from portal.models import Build, Result, Submission
    from portal.submissions import create_submission

    sub = create_submission(make_user("bob"), upload(bundle_zip(RELU_DEFAULT, name="verified-farm")), enqueue=False)
    Submission.objects.filter(pk=sub.pk).update(state=Submission.State.FINISHED,
                                                verification=Submission.Verification.QUEUED)
    # the measurement job, run here as soon as the build job queues it
    monkeypatch.setattr(jobs, "dispatch_measure", lambda pk, backend, track: farm.measure_backend(pk, backend, track))
    monkeypatch.setattr(jobs, "dispatch_land", lambda pk, backend, track: farm.land_backend(pk, backend, track))
    farm.build_backend(sub.pk, BACKEND, Result.VERIFIED)

    sub.refresh_from_db()
    assert sub.verification == Submission.Verification.FINISHED
    expected = {w.id for w in track_tasks(Result.VERIFIED)}
    results = {r.workload: r for r in Result.objects.filter(submission=sub, track=Result.VERIFIED)}
    assert set(results) == expected == set(Build.objects.filter(submission=sub).values_list("workload", flat=True))
    assert any(r.hidden for r in results.values())
    assert results[RELU_DEFAULT.workload].status == "correct", results[RELU_DEFAULT.workload].reason
    assert not Result.objects.filter(submission=sub, track=Result.PUBLIC).exists()


def _cuda_bundle() -> bytes:
    """The cuda-source example's entries for the tasks the tests' portal serves."""
    import io
    import json
    import zipfile

    from portal_helpers import EXAMPLES

    served = {w.id for w in served_tasks()}
    doc = json.loads((EXAMPLES / "cuda-source" / "manifest.json").read_text())
    doc["entries"] = [e for e in doc["entries"] if e["workload"] in served]
    assert len(doc["entries"]) >= 2
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("manifest.json", json.dumps(doc))
        for name in {e["file"] for e in doc["entries"]}:
            z.writestr(name, (EXAMPLES / "cuda-source" / name).read_bytes())
    return buf.getvalue()


H200 = {"arch": "sm_90", "host": {"kind": "llvm", "mtriple": "x86_64-linux-gnu", "mcpu": "x86-64-v3"}}


@pytest.mark.django_db
def test_a_build_worker_without_a_gpu_builds_for_the_gpu_its_settings_name(settings, monkeypatch):
    """On this GPU-less machine the build job builds a cuda submission for the arch
    EKB_BUILD_TARGETS names: the candidates in the sandbox, the tvm-default baselines through
    dlight, and for each task the workload as a compiler-less measurement machine needs it."""
    from evaluator.backends.cuda import driver
    from portal import farm, jobs
    from portal.models import Blob, Build, Submission
    from portal.submissions import create_submission

    assert driver()[0], "this test is about a machine without a GPU"
    settings.EKB_BUILD_TARGETS = {"cuda": H200}
    queued = []
    monkeypatch.setattr(jobs, "dispatch_measure", lambda *args: queued.append(args))
    sub = create_submission(make_user("carol"), upload(_cuda_bundle()), enqueue=False)
    farm.build_backend(sub.pk, "cuda")

    sub.refresh_from_db()
    assert sub.state == Submission.State.RUNNING, sub.error
    assert queued == [(sub.pk, "cuda", "public")]  # measured where the GPU is
    built = [b for b in Build.objects.filter(submission=sub, backend="cuda") if not b.failed]
    assert len(built) >= 2, [b.record.get("reason") for b in Build.objects.filter(submission=sub)]
    for b in built:
        assert b.target["arch"] == "sm_90" and b.target["host"] == H200["host"]
        assert b.record["status"] == "missing" and b.record["steps_s"]["build"] > 0  # measured later
        assert set(b.baselines) == {"tvm-default"}
        (name, digest), = b.baselines["tvm-default"]
        assert b"__global__" in Blob.read(digest)  # dlight's CUDA C, compiled for the arch where it runs
        spec = b.workload_spec
        assert spec["id"] == b.workload and spec["registry_calls"] is True and len(spec["references"]) == 3
        assert spec["vendor"] is None or spec["vendor"]["pattern"]  # PyTorch's call, named by pattern
        assert Blob.objects.get(digest=b.references).kind == Blob.Kind.REFERENCE


@pytest.mark.django_db
def test_a_bad_build_target_fails_the_build_with_its_reason(settings):
    from portal import farm
    from portal.models import Submission
    from portal.submissions import create_submission

    settings.EKB_BUILD_TARGETS = {"cuda": {"arch": "sm90; rm -rf /"}}
    sub = create_submission(make_user("dave"), upload(_cuda_bundle()), enqueue=False)
    farm.build_backend(sub.pk, "cuda")
    sub.refresh_from_db()
    assert sub.state == Submission.State.FAILED and "needs an arch like 'sm_90'" in sub.error


@pytest.mark.django_db(transaction=True)
def test_measurement_imports_no_pattern_file_and_refuses_another_device_s_artifacts(monkeypatch, tmp_path):
    """A measurement worker needs TVM's runtime, not the pattern files: measuring in a process
    where importing any of them fails still gives every task its result. Artifacts built for
    another device are refused with the reason, never run."""
    import os
    import subprocess
    import sys

    from leaderboard.models import BoardEntry
    from portal import farm, jobs
    from portal.models import Build, Result, Submission
    from portal.submissions import create_submission
    from portal_helpers import REPO

    monkeypatch.setattr(jobs, "dispatch_measure", lambda *args: None)
    sub = create_submission(make_user("erin"), upload(bundle_zip(RELU_DEFAULT, RELU_OFF_BY_HALF, name="no-patterns")),
                            enqueue=False)
    farm.build_backend(sub.pk, BACKEND)
    measure = (
        "import importlib.abc, sys\n"
        "class NoPatterns(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name.startswith('evaluator.suite.patterns.'):\n"
        "            raise ImportError('a measurement machine has no pattern files: ' + name)\n"
        "sys.meta_path.insert(0, NoPatterns())\n"
        "import django; django.setup()\n"
        "from portal import farm, jobs\n"
        "jobs.dispatch_land = lambda *args: print('land', *args)\n"
        f"farm.measure_backend({sub.pk}, {BACKEND!r})\n"
        "assert not [m for m in sys.modules if m.startswith('evaluator.suite.patterns.')]\n")
    from django.db import connection

    env = {**os.environ, "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{connection.settings_dict['NAME']}"}
    out = subprocess.run([sys.executable, "-c", measure], cwd=REPO, env=env, check=True, timeout=300,
                         capture_output=True, text=True).stdout
    assert out.strip() == f"land {sub.pk} {BACKEND} public"  # the boards are left to a machine with the suite
    sub.refresh_from_db()
    assert sub.state == Submission.State.RUNNING and sub.tasks_done == len(served_tasks())
    assert not BoardEntry.objects.filter(submission=sub).exists()
    farm.land_backend(sub.pk, BACKEND)
    sub.refresh_from_db()
    assert sub.state == Submission.State.FINISHED, sub.error
    assert BoardEntry.objects.filter(submission=sub).exists()
    results = {r.workload: r for r in Result.objects.filter(submission=sub)}
    assert results[RELU_DEFAULT.workload].status == "correct", results[RELU_DEFAULT.workload].reason
    assert results[RELU_OFF_BY_HALF.workload].status == "wrong_result"

    # the same builds claimed for another CPU: refused before anything runs
    again = create_submission(make_user("frank"), upload(bundle_zip(RELU_DEFAULT, name="other-cpu")), enqueue=False)
    farm.build_backend(again.pk, BACKEND)
    Build.objects.filter(submission=again, candidate__isnull=False).update(
        target={"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["+neon"]})
    farm.measure_backend(again.pk, BACKEND)
    again.refresh_from_db()
    assert again.state == Submission.State.FAILED
    assert "cannot run on this cpu-llvm device: built for mcpu=None, mtriple='aarch64-linux-gnu'" in again.error
    assert not Result.objects.filter(submission=again, status="correct").exists()


@pytest.mark.parametrize("value, message", [
    ("{not json", "EKB_BUILD_TARGETS is not JSON"),
    ('["cuda"]', "EKB_BUILD_TARGETS must be a JSON object of objects, one per backend"),
    ('{"cuda": "sm_90"}', "EKB_BUILD_TARGETS must be a JSON object of objects, one per backend")])
def test_a_malformed_build_target_setting_stops_the_start_with_its_name(value, message):
    import os
    import subprocess
    import sys

    from portal_helpers import REPO

    proc = subprocess.run([sys.executable, "-c", "import django; django.setup()"], cwd=REPO, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings",
                                                       "EKB_BUILD_TARGETS": value})
    assert proc.returncode != 0 and f"ImproperlyConfigured: {message}" in proc.stderr


def test_a_folder_broker_is_set_up_for_a_measurement_machine_reached_by_files(tmp_path):
    """``CELERY_BROKER_URL=filesystem://`` (bench/gpu_matrix.py's air gap): the broker is the
    folder EKB_BROKER_DIR names, made at start-up, and a job queued on one side is a file there
    that names its queue."""
    import json
    import os
    import subprocess
    import sys

    from portal_helpers import REPO

    folder = tmp_path / "broker"
    code = ("import json, django; django.setup()\n"
            "from django.conf import settings\n"
            "from portal import jobs\n"
            "jobs.dispatch_measure(7, 'cuda')\n"
            "print(json.dumps(settings.CELERY_BROKER_TRANSPORT_OPTIONS))\n")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "CELERY_BROKER_URL": "filesystem://",
           "EKB_BROKER_DIR": str(folder), "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True,
                         timeout=120, check=True).stdout
    opts = json.loads(out.strip().splitlines()[-1])
    assert opts["data_folder_in"] == opts["data_folder_out"] == str(folder / "queue")
    assert opts["control_folder"] == str(folder / "control")
    (msg,) = (folder / "queue").iterdir()
    assert msg.name.endswith(".eval.cuda.msg")
    body = json.loads(msg.read_text())
    assert body["headers"]["task"] == "portal.measure" and body["headers"]["argsrepr"] == "(7, 'cuda')"
