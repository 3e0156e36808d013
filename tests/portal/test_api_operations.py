"""The API operations the ``ekb`` client needs: a task in full (GET /api/v1/tasks/{workload}/,
hidden ones never shown), the task list's filters, the starter bundle
(GET /api/v1/tasks/starter-bundle/), and cancelling and rerunning a submission
(POST /api/v1/submissions/{id}/cancel/ and /rerun/)."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
import yaml

from portal_helpers import (BACKEND, MATMUL_HAND_TUNED, RELU_DEFAULT, bundle_zip, make_submission, make_user,
                            queued_jobs, served_tasks, token_client, upload)

pytestmark = pytest.mark.usefixtures("isolated_media", "fresh_throttle_cache")

MATMUL = MATMUL_HAND_TUNED.workload  # matmul/matmul@m128n512k128, served by the test deployment
RELU = RELU_DEFAULT.workload


@pytest.fixture
def api():
    from rest_framework.test import APIClient

    return APIClient()


def _task_url(workload: str) -> str:
    return f"/api/v1/tasks/{workload}/"


# --------------------------------------------------------------------------- one task in full


@pytest.mark.django_db
def test_task_detail_shows_spec_tvmscript_reference_and_the_exact_prompt(api):
    from evaluator import suite
    from evaluator.agents.budget import Budget
    from evaluator.agents.prompts import CURRENT, PromptSet
    from portal.starter import backend_info

    resp = api.get(_task_url(MATMUL))
    assert resp.status_code == 200, resp.content
    t = resp.json()
    w = suite.get_workload(MATMUL)
    assert (t["workload"], t["level"], t["family"], t["dtype"]) == (MATMUL, w.level, w.family, w.dtype)
    assert t["flops"] == w.flops and t["params"]["m"] == 128 and t["params"]["n"] == 512
    assert [a["name"] for a in t["signature"]] == [x.name for x in w.inputs] + [x.name for x in w.outputs]
    assert "hidden" not in t
    # the canonical TensorIR, whole, and the NumPy reference's source with where it is defined
    assert t["tvmscript"] == w.canonical_module().script()
    assert "A @ B" in t["reference"] and t["reference"].startswith("# reference (evaluator/suite/patterns/matmul.py:")
    # the prompt an agent-mode endpoint gets on the first served backend: exactly what the worker sends
    p = t["prompt"]
    prompts = PromptSet(CURRENT)
    assert (p["version"], p["digest"], p["mode"], p["backend"]) == (CURRENT, prompts.digest(), "agent", BACKEND)
    assert p["messages"] == [
        {"role": "system", "content": prompts.system(w, "agent")},
        {"role": "user", "content": prompts.task(w, backend_info(BACKEND), "agent", Budget())}]
    assert f"Task: {MATMUL}" in p["messages"][1]["content"] and "Backend: cpu-llvm" in p["messages"][1]["content"]

    # another mode asks for a reply in its own words; '@' may come percent-encoded
    direct = api.get(_task_url(MATMUL.replace("@", "%40")), {"mode": "direct"}).json()["prompt"]
    assert direct["mode"] == "direct"
    assert direct["messages"][1]["content"].rstrip().endswith("Reply with your fastest correct kernel.")
    assert direct["messages"][1]["content"] != p["messages"][1]["content"]


@pytest.mark.django_db
def test_task_detail_refuses_a_bad_mode_or_a_backend_not_served(api):
    bad_mode = api.get(_task_url(MATMUL), {"mode": "oracle"})
    assert bad_mode.status_code == 400 and "mode" in bad_mode.json()
    bad_backend = api.get(_task_url(MATMUL), {"backend": "cuda"})
    assert bad_backend.status_code == 400
    assert bad_backend.json()["backend"] == ["backend 'cuda' is not served here; served: cpu-llvm"]


@pytest.mark.django_db
def test_a_hidden_workload_is_answered_exactly_as_an_unknown_one(api):
    from django.conf import settings

    from evaluator import suite

    hidden = suite.held_out(settings.EKB_HELDOUT_SECRET)[0]
    assert hidden.hidden and hidden.id.count("/") == 1
    not_served = next(w for w in suite.workloads() if w.id not in {x.id for x in served_tasks()})
    unknown = "matmul/matmul@m1n1k1"
    answers = {}
    for wid in (hidden.id, not_served.id, unknown):
        resp = api.get(_task_url(wid))
        assert resp.status_code == 404, (wid, resp.content[:300])
        answers[wid] = resp.content.decode().replace(json.dumps(wid)[1:-1], "<id>")
        assert hidden.pattern.summary not in resp.content.decode()
    assert len(set(answers.values())) == 1, answers
    assert json.loads(answers[unknown]) == {"detail": "no public task '<id>' is served here"}
    # nor does the starter bundle take it
    resp = api.get("/api/v1/tasks/starter-bundle/", {"tasks": hidden.id})
    assert resp.status_code == 400 and resp.json() == {"tasks": [f"no public task served here matches '{hidden.id}'"]}


# --------------------------------------------------------------------------- the list's filters


@pytest.mark.django_db
def test_task_list_filters_by_level_domain_family_dtype_and_text(api):
    served = served_tasks()

    def ids(**q):
        resp = api.get("/api/v1/tasks/", q)
        assert resp.status_code == 200, resp.content
        return [t["workload"] for t in resp.json()]

    assert ids() == [w.id for w in served]
    assert ids(level="L3") == [w.id for w in served if w.level == "L3"] != []
    assert ids(domain="audio") == [w.id for w in served if "audio" in w.domains] != []
    assert ids(family="softmax", dtype="float32") == [w.id for w in served
                                                      if w.family == "softmax" and w.dtype == "float32"] != []
    assert ids(level="L1", domain="vision", family="conv2d") == [
        w.id for w in served if w.level == "L1" and "vision" in w.domains and w.family == "conv2d"] != []
    assert ids(search="M128N512") == ["fused/dense-bias-gelu@m128n512k128", MATMUL]  # case-insensitive, in id
    # the text is also looked for in the pattern's summary: tasks whose id does not hold it
    by_text = ids(search="Softmax")
    assert by_text == [w.id for w in served if "softmax" in f"{w.id} {w.pattern.summary} {w.source}".lower()]
    assert any("softmax" not in wid for wid in by_text) and any("softmax" in wid for wid in by_text)
    assert ids(backend=BACKEND) == [w.id for w in served]  # every served task runs on every served backend
    assert ids(level="") == [w.id for w in served]  # an empty filter is no filter


@pytest.mark.django_db
def test_task_list_refuses_unknown_filter_values_naming_them(api):
    for query, key, text in [({"level": "L9"}, "level", '"L9" is not a valid choice.'),
                             ({"domain": "cooking"}, "domain", '"cooking" is not a valid choice.'),
                             ({"family": "nope"}, "family", "unknown family 'nope'; known: activation, "),
                             ({"dtype": "float128"}, "dtype", "unknown dtype 'float128'; known: "),
                             ({"backend": "opencl"}, "backend", "backend 'opencl' is not served here"),
                             ({"search": "x" * 201}, "search", "no more than 200 characters")]:
        resp = api.get("/api/v1/tasks/", query)
        assert resp.status_code == 400, query
        assert text in resp.json()[key][0], resp.json()


# --------------------------------------------------------------------------- the starter bundle


def _unzip(data: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {n: z.read(n).decode() for n in z.namelist()}


@pytest.mark.django_db
def test_starter_bundle_holds_the_tvm_default_entry_of_each_matching_task(api, tmp_path):
    from evaluator import suite
    from evaluator.examples import default_entry
    from evaluator.formats.bundle import load_bundle

    # repeated parameters and comma-separated globs both count; only served tasks are taken
    resp = api.get("/api/v1/tasks/starter-bundle/", {"tasks": [f"{RELU},softmax/*", "matmul/*"],
                                                     "backend": "cpu-llvm"})
    assert resp.status_code == 200, resp.content
    assert resp["Content-Type"] == "application/zip"
    assert resp["Content-Disposition"] == 'attachment; filename="ekb-starter-cpu-llvm.zip"'
    files = _unzip(resp.content)
    manifest = json.loads(files.pop("manifest.json"))
    expected = [w.id for w in served_tasks() if w.id == RELU or w.family in ("softmax", "matmul")]
    assert [e["workload"] for e in manifest["entries"]] == expected and len(expected) == 6
    assert manifest["name"] == "starter-cpu-llvm" and {e["backend"] for e in manifest["entries"]} == {"cpu-llvm"}
    for e in manifest["entries"]:
        fmt, fname, text = default_entry(suite.get_workload(e["workload"]), "cpu-llvm")
        assert (e["format"], e["file"], files[e["file"]]) == (fmt, fname, text)
    assert len(files) == len(expected)
    # the same request gives the same bytes, and the portal's loader accepts the bundle
    assert api.get("/api/v1/tasks/starter-bundle/", {"tasks": [f"{RELU},softmax/*", "matmul/*"]}).content == \
        resp.content
    (tmp_path / "starter.zip").write_bytes(resp.content)
    assert len(load_bundle(str(tmp_path / "starter.zip")).entries) == len(expected)


@pytest.mark.django_db
def test_starter_bundle_on_opencl_holds_dlight_tvmscript(api):
    resp = api.get("/api/v1/tasks/starter-bundle/", {"tasks": RELU, "backend": "opencl"})
    assert resp.status_code == 200, resp.content
    files = _unzip(resp.content)
    (entry,) = json.loads(files["manifest.json"])["entries"]
    assert (entry["workload"], entry["format"]) == (RELU, "tvmscript")
    assert "T.prim_func" in files[entry["file"]] and "threadIdx" in files[entry["file"]]


@pytest.mark.django_db
def test_starter_bundle_refuses_what_it_cannot_make_with_a_clear_400(api, settings):
    url = "/api/v1/tasks/starter-bundle/"
    assert api.get(url).json() == {"tasks": ["This list may not be empty."]}
    assert api.get(url, {"tasks": "nothing/*"}).json() == {
        "tasks": ["no public task served here matches 'nothing/*'"]}
    assert api.get(url, {"tasks": ",".join(f"g{i}" for i in range(17))}).json() == {
        "tasks": ["Ensure this field has no more than 16 elements."]}
    resp = api.get(url, {"tasks": RELU, "backend": "cuda"})
    assert resp.status_code == 400 and resp.json() == {"backend": ['"cuda" is not a valid choice.']}
    settings.EKB_TASKS = ""  # the whole suite: more tasks than a starter bundle holds
    resp = api.get(url, {"tasks": "*"})
    assert resp.status_code == 400
    (msg,) = resp.json()["tasks"]
    assert msg.endswith("tasks match; a starter bundle holds at most 200: narrow the globs")
    assert int(msg.split()[0]) > 200


# --------------------------------------------------------------------------- cancel


@pytest.mark.django_db
def test_owner_cancels_a_queued_or_running_submission_and_a_second_cancel_is_409():
    from portal.models import Submission

    alice = make_user("alice")
    for state in ("queued", "running"):
        sub = make_submission(alice, f"to-cancel-{state}", state=state)
        resp = token_client(alice).post(f"/api/v1/submissions/{sub.pk}/cancel/")
        assert resp.status_code == 200, resp.content
        assert resp.json()["state"] == "cancelled" and resp.json()["id"] == sub.pk
        sub.refresh_from_db()
        assert sub.state == Submission.State.CANCELLED and sub.finished_at is not None
        again = token_client(alice).post(f"/api/v1/submissions/{sub.pk}/cancel/")
        assert again.status_code == 409
        assert again.json() == {"detail": f"submission {sub.pk} is already cancelled; only a queued or running "
                                          "submission can be cancelled"}
    done = make_submission(alice, "finished")
    resp = token_client(alice).post(f"/api/v1/submissions/{done.pk}/cancel/")
    assert resp.status_code == 409 and "is already finished" in resp.json()["detail"]
    done.refresh_from_db()
    assert done.state == "finished"


@pytest.mark.django_db
def test_only_the_owner_or_staff_may_cancel(api):
    from portal.models import Submission

    alice, bob = make_user("alice"), make_user("bob")
    staff = make_user("staff")
    staff.is_staff = True
    staff.save()
    public = make_submission(alice, "public", state="queued")
    private = make_submission(alice, "private", state="queued", public=False)

    assert api.post(f"/api/v1/submissions/{public.pk}/cancel/").status_code == 401
    resp = token_client(bob).post(f"/api/v1/submissions/{public.pk}/cancel/")
    assert resp.status_code == 403
    assert resp.json() == {"detail": f"only the owner of submission {public.pk} or staff may cancel it"}
    # bob cannot see a private submission: it does not exist for him
    assert token_client(bob).post(f"/api/v1/submissions/{private.pk}/cancel/").status_code == 404
    assert token_client(bob).post("/api/v1/submissions/999999/cancel/").status_code == 404
    assert set(Submission.objects.values_list("state", flat=True)) == {"queued"}
    # staff may cancel anyone's, private ones included
    assert token_client(staff).post(f"/api/v1/submissions/{private.pk}/cancel/").json()["state"] == "cancelled"


# --------------------------------------------------------------------------- rerun


@pytest.mark.django_db
def test_rerun_makes_a_new_submission_of_the_same_bundle_and_queues_it(broker, django_capture_on_commit_callbacks):
    from portal.models import Submission
    from portal.submissions import create_submission

    alice = make_user("alice")
    data = bundle_zip(RELU_DEFAULT, name="first-run")
    old = create_submission(alice, upload(data), description="once more", public=False, enqueue=False)
    running = token_client(alice).post(f"/api/v1/submissions/{old.pk}/rerun/")
    assert running.status_code == 409
    assert running.json() == {"detail": f"submission {old.pk} is still queued; rerun it once it has ended "
                                        "(or cancel it first)"}
    old.fail("the worker's machine went away")

    with django_capture_on_commit_callbacks(execute=True):
        resp = token_client(alice).post(f"/api/v1/submissions/{old.pk}/rerun/")
    assert resp.status_code == 201, resp.content
    body = resp.json()
    new = Submission.objects.get(pk=body["id"])
    assert new.pk != old.pk and body["state"] == "queued" and body["results"] is None
    assert (new.owner, new.name, new.description, new.public, new.backends, new.bundle_sha256, new.kind) == \
        (alice, "first-run", "once more", False, [BACKEND], old.bundle_sha256, "bundle")
    assert new.tasks_total == len(served_tasks()) and new.tasks_done == 0
    with new.bundle.open("rb") as f:
        assert f.read() == data
    assert queued_jobs(broker) == [("portal.evaluate", [new.pk, BACKEND])]
    old.refresh_from_db()
    assert old.state == "failed"  # the old one keeps its outcome


@pytest.mark.django_db
def test_rerun_is_for_the_owner_or_staff_and_rechecks_the_backends(api, settings):
    from portal.submissions import create_submission

    alice, bob = make_user("alice"), make_user("bob")
    old = create_submission(alice, upload(bundle_zip(RELU_DEFAULT)), enqueue=False)
    old.cancel()
    assert api.post(f"/api/v1/submissions/{old.pk}/rerun/").status_code == 401
    resp = token_client(bob).post(f"/api/v1/submissions/{old.pk}/rerun/")
    assert resp.status_code == 403 and resp.json()["detail"].endswith("or staff may rerun it")
    settings.EKB_BACKENDS = ["opencl"]
    resp = token_client(alice).post(f"/api/v1/submissions/{old.pk}/rerun/")
    assert resp.status_code == 400
    assert resp.json() == {"detail": "backends ['cpu-llvm'] are not served here; available: ['opencl']"}


@pytest.mark.django_db
def test_rerun_of_an_endpoint_submission_copies_the_endpoint_with_a_fresh_budget(settings):
    from portal.endpoints import create_endpoint_submission
    from portal.models import Endpoint, Submission

    settings.EKB_ENDPOINT_ALLOW_LOOPBACK = True
    alice = make_user("alice")
    old = create_endpoint_submission(alice, url="http://127.0.0.1:9/v1/chat/completions", model="scripted",
                                     api_key="sk-test-key-123", mode="direct", budget={"candidates": 2},
                                     tasks=[RELU], enqueue=False)
    Endpoint.objects.filter(submission=old).update(requests_used=7, tokens_used=900)
    old.finish(tasks_done=1, summary={})
    resp = token_client(alice).post(f"/api/v1/submissions/{old.pk}/rerun/")
    assert resp.status_code == 201, resp.content
    new = Submission.objects.get(pk=resp.json()["id"])
    assert (new.kind, new.name, new.backends, new.tasks_total) == ("endpoint", old.name, old.backends, old.tasks_total)
    ep, old_ep = new.endpoint, Endpoint.objects.get(submission=old)
    assert (ep.url, ep.model, ep.mode, ep.budget, ep.prompt_version, ep.tasks) == \
        (old_ep.url, old_ep.model, "direct", old_ep.budget, old_ep.prompt_version, [RELU])
    assert ep.api_key() == "sk-test-key-123" and (ep.requests_used, ep.tokens_used) == (0, 0)
    assert "sk-test-key-123" not in resp.content.decode()


# --------------------------------------------------------------------------- the schema


@pytest.mark.django_db
def test_the_schema_documents_the_new_operations_and_their_errors(api):
    doc = yaml.safe_load(api.get("/api/v1/schema/").content)
    paths = doc["paths"]
    cancel = paths["/api/v1/submissions/{id}/cancel/"]["post"]
    assert {"200", "401", "403", "404", "409"} <= set(cancel["responses"])
    rerun = paths["/api/v1/submissions/{id}/rerun/"]["post"]
    assert {"201", "400", "401", "403", "404", "409", "429"} <= set(rerun["responses"])
    detail = paths["/api/v1/tasks/{workload}/"]["get"]
    assert {"200", "400", "404"} <= set(detail["responses"])
    assert {p["name"] for p in detail["parameters"]} >= {"workload", "mode", "backend"}
    starter = paths["/api/v1/tasks/starter-bundle/"]["get"]
    assert "application/zip" in starter["responses"]["200"]["content"] and "400" in starter["responses"]
    assert {p["name"] for p in starter["parameters"]} >= {"tasks", "backend"}
    listing = paths["/api/v1/tasks/"]["get"]
    assert {p["name"] for p in listing["parameters"]} >= {"level", "domain", "family", "dtype", "backend", "search"}
