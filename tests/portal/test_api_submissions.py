"""POST/GET /api/v1/submissions/: token authentication, validation of uploads by the evaluator's
bundle loader (a rejected upload stores nothing), dispatch to the real Redis broker, visibility of
private submissions, and the detail view after a real evaluation."""

from __future__ import annotations

import hashlib
import io
import os
import tarfile
from pathlib import Path

import pytest

from portal_helpers import (BACKEND, EXAMPLES, MATMUL_HAND_TUNED, QUEUE, RELU_DEFAULT, bundle_zip, make_user, manifest,
                            media_files, queued_jobs, token_client, served_tasks, upload, upload_temp_files, zip_bytes)

pytestmark = pytest.mark.usefixtures("isolated_media", "fresh_throttle_cache")

URL = "/api/v1/submissions/"
MiB = 1 << 20


def _post(client, data: bytes, filename: str = "bundle.zip", **fields):
    return client.post(URL, {"bundle": upload(data, filename), **fields}, format="multipart")


# --------------------------------------------------------------------------- authentication


@pytest.mark.django_db
def test_upload_without_token_is_401_and_stores_nothing():
    from rest_framework.test import APIClient

    from portal.models import Submission

    resp = _post(APIClient(), bundle_zip(RELU_DEFAULT))
    assert resp.status_code == 401
    assert resp.headers["WWW-Authenticate"].startswith("Token")
    assert Submission.objects.count() == 0
    assert media_files() == []


@pytest.mark.django_db
def test_upload_with_a_bad_token_is_401():
    from rest_framework.test import APIClient

    from portal.models import Submission

    make_user("alice")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    resp = _post(client, bundle_zip(RELU_DEFAULT))
    assert resp.status_code == 401
    assert "invalid token" in resp.json()["detail"].lower()
    assert Submission.objects.count() == 0
    assert media_files() == []


# --------------------------------------------------------------------------- accepted upload


@pytest.mark.django_db
def test_upload_with_token_is_stored_enqueued_on_redis_and_evaluated(broker, django_capture_on_commit_callbacks):
    from rest_framework.test import APIClient

    from portal.evaluation import evaluate_backend
    from portal.models import Submission

    alice = make_user("alice")
    data = bundle_zip(RELU_DEFAULT, name="relu-rules")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        resp = _post(token_client(alice), data, description="the default rule for one relu")
    assert resp.status_code == 201, resp.content
    body = resp.json()
    assert body["state"] == "queued"
    assert isinstance(body["id"], int)
    assert body["name"] == "relu-rules"  # defaults to the manifest's name
    assert body["owner"] == "alice"
    assert body["public"] is True  # omitted in the multipart form: the documented default
    assert body["backends"] == [BACKEND]
    n_public = len(served_tasks())
    assert body["progress"] == {"done": 0, "total": n_public}

    # The row, the stored archive (byte for byte, under MEDIA_ROOT) and one job on the real broker.
    sub = Submission.objects.get(pk=body["id"])
    assert sub.owner == alice and sub.bundle_sha256 == hashlib.sha256(data).hexdigest()
    assert media_files() == [Path(sub.bundle.path)]
    with open(sub.bundle.path, "rb") as f:
        assert f.read() == data
    assert len(callbacks) == 1
    assert queued_jobs(broker) == [("portal.evaluate", [sub.pk, BACKEND])]
    assert broker.llen(QUEUE) == 1

    # Before any evaluation the detail view shows the queued state and no results.
    anon = APIClient()
    detail = anon.get(f"{URL}{sub.pk}/").json()
    assert detail["state"] == "queued" and detail["results"] == []

    # Run the job the worker would run (the same function, in this process) and read it back.
    evaluate_backend(sub.pk, BACKEND)
    detail = anon.get(f"{URL}{sub.pk}/").json()
    assert detail["state"] == "finished", detail["error"]
    assert detail["progress"] == {"done": n_public, "total": n_public}
    results = {r["workload"]: r for r in detail["results"]}
    assert set(results) == {w.id for w in served_tasks()}
    relu = results[RELU_DEFAULT.workload]
    assert relu["status"] == "correct", relu["reason"]
    assert relu["backend"] == BACKEND
    assert relu["speedup"]["tvm-default"] > 0 and relu["time_s"] > 0
    assert {r["status"] for w, r in results.items() if w != RELU_DEFAULT.workload} == {"missing"}
    summary = detail["summary"][BACKEND]
    assert summary["tasks"] == n_public and summary["correct"] == 1
    assert summary["correct@1"] == pytest.approx(1 / n_public)

    # The list view does not embed results.
    listed = anon.get(URL).json()
    assert [s["id"] for s in listed["results"]] == [sub.pk]
    assert listed["results"][0]["results"] is None


@pytest.mark.django_db
def test_upload_for_a_backend_not_served_here_is_400():
    from portal.models import Submission

    resp = _post(token_client(make_user("alice")), bundle_zip(RELU_DEFAULT), backends=["opencl"])
    assert resp.status_code == 400
    # named by the field, per item (the schema lists the backends served)
    assert resp.json() == {"backends": {"0": ["backend 'opencl' is not served here; served: cpu-llvm"]}}
    assert Submission.objects.count() == 0
    assert media_files() == []


# --------------------------------------------------------------------------- visibility


@pytest.mark.django_db
def test_private_submission_is_hidden_from_others():
    from rest_framework.test import APIClient

    bob = make_user("bob")
    alice = make_user("alice")
    bob_client = token_client(bob)
    private = _post(bob_client, bundle_zip(RELU_DEFAULT, name="secret"), public="false")
    public = _post(bob_client, bundle_zip(MATMUL_HAND_TUNED, name="open"))
    assert private.status_code == 201 and public.status_code == 201
    private_id, public_id = private.json()["id"], public.json()["id"]
    assert private.json()["public"] is False

    for client in (token_client(alice), APIClient()):
        assert client.get(f"{URL}{private_id}/").status_code == 404
        assert client.get(f"{URL}{public_id}/").status_code == 200
        ids = [s["id"] for s in client.get(URL).json()["results"]]
        assert ids == [public_id]

    assert bob_client.get(f"{URL}{private_id}/").status_code == 200
    assert sorted(s["id"] for s in bob_client.get(URL).json()["results"]) == sorted([private_id, public_id])


# --------------------------------------------------------------------------- malformed uploads


def _entry(workload="activation/relu@m128n768", fmt="layered-trace", file="kernels/k.json"):
    return {"workload": workload, "backend": BACKEND, "format": fmt, "file": file}


RELU_SCHEDULE = (EXAMPLES / RELU_DEFAULT.source).read_text()


def _bad_json():
    return "bundle.zip", zip_bytes({"manifest.json": '{"schema": "edgekernelbench/bundle@1", "name": ',
                                    "kernels/k.json": RELU_SCHEDULE})


def _unknown_workload():
    return "bundle.zip", zip_bytes({"manifest.json": manifest([_entry(workload="matmul/matmul@m7n7k7")]),
                                    "kernels/k.json": RELU_SCHEDULE})


def _unknown_format():
    return "bundle.zip", zip_bytes({"manifest.json": manifest([_entry(fmt="cuda-c")]),
                                    "kernels/k.json": RELU_SCHEDULE})


def _missing_file():
    return "bundle.zip", zip_bytes({"manifest.json": manifest([_entry(file="kernels/nowhere.json")])})


def _traversal_member():
    return "bundle.zip", zip_bytes({"manifest.json": manifest([_entry(file="../k.json")]),
                                    "../k.json": RELU_SCHEDULE})


def _traversal_tar():
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name, text in (("manifest.json", manifest([_entry(file="kernels/../../k.json")])),
                           ("kernels/../../k.json", RELU_SCHEDULE)):
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return "bundle.tar.gz", buf.getvalue()


def _absolute_path():
    return "bundle.zip", zip_bytes({"manifest.json": manifest([_entry(file="/etc/k.json")]),
                                    "/etc/k.json": RELU_SCHEDULE})


def _symlink_member():
    return "bundle.zip", zip_bytes({"manifest.json": manifest([_entry()])}, symlinks={"kernels/k.json": "/etc/passwd"})


def _zip_bomb():
    # 80 MiB of zeros deflate to ~80 KiB: past the 100:1 ratio, the 2 MiB file and 64 MiB total caps.
    return "bundle.zip", zip_bytes({"manifest.json": manifest([_entry()]), "kernels/k.json": RELU_SCHEDULE,
                                    "kernels/padding.bin": b"\0" * (80 * MiB)})


def _not_an_archive():
    return "bundle.txt", manifest([_entry()]).encode()


def _zip_that_is_not_a_zip():
    return "bundle.zip", b"this is plain text, not a zip archive\n" * 10


MALFORMED = {
    "bad-json": (_bad_json, ["manifest.json: invalid JSON at line 1"]),
    "unknown-workload": (_unknown_workload, ["unknown workload 'matmul/matmul@m7n7k7'"]),
    "unknown-format": (_unknown_format, ["unknown format 'cuda-c'"]),
    "missing-file": (_missing_file, ["'kernels/nowhere.json' is missing from the bundle"]),
    "path-traversal": (_traversal_member, ["archive member '../k.json': path escapes the bundle"]),
    "path-traversal-tar": (_traversal_tar, ["archive member 'kernels/../../k.json': path escapes the bundle"]),
    "absolute-path": (_absolute_path, ["archive member '/etc/k.json': absolute path"]),
    "symlink": (_symlink_member, ["archive member 'kernels/k.json': symbolic links are not allowed"]),
    "zip-bomb": (_zip_bomb, ["'kernels/padding.bin'", "looks like a zip bomb"]),
    "not-an-archive": (_not_an_archive, ["'bundle.txt': a bundle must be a .zip or .tar.gz archive"]),
    "corrupt-zip": (_zip_that_is_not_a_zip, ["not a valid zip archive"]),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_bundle_is_400_naming_the_problem_and_stores_nothing(case, django_capture_on_commit_callbacks):
    from portal.models import Submission

    make_bundle, expected = MALFORMED[case]
    filename, data = make_bundle()
    client = token_client(make_user("alice"))
    temp_before = upload_temp_files()
    with django_capture_on_commit_callbacks() as callbacks:
        resp = _post(client, data, filename)
    assert resp.status_code == 400, resp.content
    messages = resp.json()["bundle"]
    text = "\n".join(messages)
    for fragment in expected:
        assert fragment in text, f"{fragment!r} not in the 400 response: {messages}"
    assert Submission.objects.count() == 0
    assert media_files() == []
    assert upload_temp_files() <= temp_before
    assert callbacks == []


@pytest.mark.django_db
def test_archive_over_the_size_limit_is_400(monkeypatch):
    """The API's limit is the evaluator's Limits().max_archive_bytes (20 MiB); an archive one
    MiB past it is refused before anything is read or stored."""
    from evaluator.formats.bundle import Limits
    from portal import submissions
    from portal.models import Submission

    assert submissions.LIMITS.max_archive_bytes == Limits().max_archive_bytes == 20 * MiB
    data = zip_bytes({"manifest.json": manifest([_entry()]), "kernels/k.json": RELU_SCHEDULE,
                      "kernels/noise.bin": os.urandom(21 * MiB)}, compression=0)
    resp = _post(token_client(make_user("alice")), data)
    assert resp.status_code == 400
    text = " ".join(resp.json()["bundle"])
    assert "the archive is 21 MiB; the limit is 20 MiB" in text
    assert Submission.objects.count() == 0
    assert media_files() == []

    # The same check follows the configured limit.
    monkeypatch.setattr(submissions, "LIMITS", Limits(max_archive_bytes=1 * MiB))
    small = zip_bytes({"manifest.json": manifest([_entry()]), "kernels/k.json": RELU_SCHEDULE,
                       "kernels/noise.bin": os.urandom(MiB + MiB // 2)}, compression=0)
    resp = _post(token_client(make_user("bob")), small)
    assert resp.status_code == 400
    assert "the limit is 1 MiB" in " ".join(resp.json()["bundle"])
    assert Submission.objects.count() == 0
    assert media_files() == []


# --------------------------------------------------------------------------- more accepted shapes


def _tar_gz(members: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name, text in members.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


@pytest.mark.django_db
def test_tar_gz_bundle_in_a_single_folder_is_accepted_and_stored_loadable():
    """A .tar.gz whose members sit under one top-level folder; the same archive twice gets two
    stored files that both keep the .tar.gz suffix the worker's loader needs."""
    from evaluator.formats.bundle import load_bundle
    from portal.models import Submission

    data = _tar_gz({"my-kernels/manifest.json": manifest([_entry()], "tarred"),
                    "my-kernels/kernels/k.json": RELU_SCHEDULE})
    client = token_client(make_user("alice"))
    ids = []
    for _ in range(2):
        resp = _post(client, data, "my-kernels.tar.gz")
        assert resp.status_code == 201, resp.content
        ids.append(resp.json()["id"])
    subs = [Submission.objects.get(pk=i) for i in ids]
    assert subs[0].bundle.path != subs[1].bundle.path
    for sub in subs:
        assert sub.name == "tarred" and sub.bundle.name.endswith(".tar.gz")
        bundle = load_bundle(sub.bundle.path)
        assert [e.workload for e in bundle.entries] == [RELU_DEFAULT.workload]
    assert len(media_files()) == 2


@pytest.mark.django_db
def test_list_filters_by_state():
    from portal.models import Submission

    client = token_client(make_user("alice"))
    a = _post(client, bundle_zip(RELU_DEFAULT, name="a")).json()["id"]
    b = _post(client, bundle_zip(RELU_DEFAULT, name="b")).json()["id"]
    Submission.objects.filter(pk=b).update(state="finished")
    assert [s["id"] for s in client.get(URL, {"state": "finished"}).json()["results"]] == [b]
    assert [s["id"] for s in client.get(URL, {"state": "queued"}).json()["results"]] == [a]


@pytest.mark.django_db
def test_uploads_are_throttled_per_user():
    from django.conf import settings

    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["submissions"]
    allowed = int(rate.split("/")[0])
    client = token_client(make_user("alice"))
    for _ in range(allowed):  # rejected uploads count too: the throttle runs before validation
        assert _post(client, b"not a bundle", "notes.txt").status_code == 400
    resp = _post(client, bundle_zip(RELU_DEFAULT))
    assert resp.status_code == 429
    assert "Retry-After" in resp.headers
    # Another user, and reading, are not affected.
    assert _post(token_client(make_user("bob")), bundle_zip(RELU_DEFAULT)).status_code == 201
    assert client.get(URL).status_code == 200
