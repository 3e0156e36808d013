"""Endpoint submissions in the portal: the API and form, the key encrypted at rest and never
shown or logged, the SSRF guard at submission, and evaluation through the real job code — once
through a real ``celery worker`` fed by Redis, the other modes by the same job function in this
process — against the scripted chat server running as a real HTTP server on loopback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from portal_helpers import make_user, token_client, wait_for

pytestmark = pytest.mark.usefixtures("isolated_media", "fresh_throttle_cache")

KEY = "sk-live-7d1f0c9a4b2e8f6a0c3d"
WID = "activation/relu@m128n768"
WID2 = "activation/sigmoid@m128n768"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "bundles"
DOC = json.loads((EXAMPLES / "tvm-default/schedules/activation__relu--m128n768.json").read_text())
GOOD = f"```json\n{json.dumps(DOC)}\n```"


def layer(name, steps, advance=True):
    return "```json\n" + json.dumps({"layer": name, "steps": steps, "advance": advance}) + "\n```"


@pytest.fixture
def chat(chat_server):
    """``chat(steps_by_glob)``: a scripted chat server on loopback requiring KEY."""
    return lambda tasks, key=KEY: chat_server(tasks, key=key)


def payload(url, **kw):
    return {"kind": "endpoint", "url": url, "model": "scripted", "api_key": KEY, "mode": "agent",
            "budget": {"candidates": 2}, "tasks": [WID], **kw}


def post(user, data):
    return token_client(user).post("/api/v1/submissions/", data, format="json")


# --- accepting ------------------------------------------------------------------------------

@pytest.mark.django_db
def test_api_accepts_an_endpoint_and_keeps_the_key_encrypted(loopback, chat):
    from portal.models import Endpoint, Submission

    server = chat({WID: [GOOD]})
    alice = make_user("alice")
    resp = post(alice, payload(server.url, mode="layered", budget={"candidates": 3, "time_s": 300}))
    assert resp.status_code == 201, resp.content
    body = resp.json()
    assert body["kind"] == "endpoint" and body["progress"] == {"done": 0, "total": 1}
    ep = body["endpoint"]
    assert ep["model"] == "scripted" and ep["mode"] == "layered" and ep["prompt_version"] == "ekb-prompt/1"
    assert ep["budget"]["candidates"] == 3 and ep["budget"]["requests"] == 6 and ep["tasks"] == [WID]
    assert ep["api_key_set"] is True and ep["url"] == server.url  # the owner sees the URL
    assert KEY not in resp.content.decode()

    row = Endpoint.objects.get(submission_id=body["id"])
    assert KEY not in row.api_key_encrypted and row.api_key_encrypted.startswith("gAAAA")  # a Fernet token
    assert row.api_key() == KEY
    assert KEY not in str(row) and KEY not in repr(row)
    assert Submission.objects.get(pk=body["id"]).state == "queued"

    # others see neither the key nor the URL; the owner never sees the key
    from rest_framework.test import APIClient

    public = APIClient().get(f"/api/v1/submissions/{body['id']}/").json()
    assert public["endpoint"]["url"] is None and KEY not in json.dumps(public)
    listing = token_client(alice).get("/api/v1/submissions/").content.decode()
    assert KEY not in listing


@pytest.mark.django_db
@pytest.mark.parametrize("url, why", [
    ("http://127.0.0.1:8000/v1/chat/completions", "loopback"),
    ("http://10.0.0.1/v1/chat/completions", "private"),
    ("http://169.254.169.254/latest/meta-data/", "metadata"),
    ("http://localhost:8000/v1/chat/completions", "'localhost' resolves to"),
])
def test_ssrf_guard_refuses_at_submission(url, why):
    from portal.models import Endpoint, Submission

    resp = post(make_user("mallory"), payload(url))
    assert resp.status_code == 400 and why in json.dumps(resp.json()["url"]), resp.content
    assert not Submission.objects.exists() and not Endpoint.objects.exists()


@pytest.mark.django_db
def test_invalid_fields_are_named(loopback):
    resp = post(make_user("bob"), payload("http://127.0.0.1:9/v1/chat/completions", mode="bogus"))
    assert resp.status_code == 400 and "mode" in resp.json()
    resp = post(make_user("carol"), payload("http://127.0.0.1:9/v1/chat/completions", api_key="two words",
                                            budget={"candidates": 0, "colour": "red"}, tasks=["nothing/*"]))
    errors = resp.json()
    assert resp.status_code == 400
    assert "without spaces" in errors["api_key"][0]
    assert "unknown keys ['colour']" in errors["budget"][0]
    assert "no public workload matches 'nothing/*'" in errors["tasks"][0]


@pytest.mark.django_db
def test_form_submits_and_pages_never_show_the_key(loopback, chat, client):
    server = chat({WID: [GOOD]})
    make_user("dave", password="pw-for-dave-123")
    client.login(username="dave", password="pw-for-dave-123")
    page = client.get("/submit/endpoint/")
    assert page.status_code == 200 and b'type="password"' in page.content
    resp = client.post("/submit/endpoint/", {"url": server.url, "model": "scripted", "api_key": KEY, "mode": "direct",
                                             "candidates": 2, "time_s": 300, "max_tokens": 100000,
                                             "tasks": WID, "public": "on"})
    assert resp.status_code == 302, resp.content.decode()[-2000:]
    page = client.get(resp["Location"])
    html = page.content.decode()
    assert "Model endpoint" in html and "direct" in html and "ekb-prompt/1" in html and KEY not in html


# --- running --------------------------------------------------------------------------------

def _sub(owner, url, **kw):
    from portal.endpoints import create_endpoint_submission

    return create_endpoint_submission(owner, url=url, model="scripted", api_key=kw.pop("api_key", KEY),
                                      enqueue=False, **kw)


@pytest.mark.django_db
@pytest.mark.parametrize("mode, steps, budget", [
    ("direct", [GOOD, GOOD], {"candidates": 2}),
    ("layered", [layer("compute", []), layer("schedule", DOC["layers"]["schedule"]), layer("memory", [])],
     {"candidates": 2}),
])
def test_modes_evaluate_end_to_end_with_traces(loopback, chat, mode, steps, budget):
    """The job function the worker runs, in this process (the Celery path is the test below)."""
    from portal.evaluation import evaluate_backend
    from portal.models import Result

    server = chat({WID: steps})
    sub = _sub(make_user(f"u-{mode}"), server.url, mode=mode, budget=budget, tasks=[WID])
    evaluate_backend(sub.pk, "cpu-llvm")
    sub.refresh_from_db()
    assert sub.state == "finished", sub.error
    r = Result.objects.get(submission=sub)
    assert r.status == "correct", r.reason
    trace = r.record["trace"]
    ep = r.record["detail"]["endpoint"]
    assert ep["mode"] == mode and ep["prompt"]["version"] == "ekb-prompt/1"
    assert trace and all(t["prompt"] or t["kind"] == "score" for t in trace)
    assert any(t["reply"] and t["kernel"] for t in trace)
    if mode == "layered":
        assert [t["layer"] for t in trace if t["kind"] == "turn"][:2] == ["compute", "schedule"]
        assert trace[-1]["kind"] == "score"
    else:
        assert ep["k"] == 2 and ep["correct@k"] is True
    sub.endpoint.refresh_from_db()
    assert sub.endpoint.requests_used == len(server.requests) >= 2
    assert sub.summary["cpu-llvm"]["tasks"] == 1 and sub.summary["cpu-llvm"]["correct"] == 1
    assert KEY not in json.dumps(r.record)


@pytest.mark.django_db
def test_auth_refused_fails_the_submission_with_its_reason(loopback, chat):
    from portal.evaluation import evaluate_backend
    from portal.models import Result

    server = chat({"*": [GOOD]}, key="sk-the-right-one")
    sub = _sub(make_user("erin"), server.url, mode="agent", tasks=[WID, WID2])
    evaluate_backend(sub.pk, "cpu-llvm")
    sub.refresh_from_db()
    assert sub.state == "failed" and "endpoint auth refused: HTTP 401" in sub.error
    reasons = dict(Result.objects.filter(submission=sub).values_list("workload", "reason"))
    assert "auth refused" in reasons[WID] and reasons[WID2].startswith("not attempted: endpoint auth refused")
    assert server.requests == [] and KEY not in sub.error


@pytest.mark.django_db
def test_malformed_reply_and_exhausted_budget_are_recorded(loopback, chat):
    from portal.evaluation import evaluate_backend
    from portal.models import Result

    server = chat({WID: [{"raw": "not json at all"}], WID2: [GOOD]})
    sub = _sub(make_user("frank"), server.url, mode="direct", budget={"candidates": 1, "max_requests": 1},
               tasks=[WID, WID2])
    evaluate_backend(sub.pk, "cpu-llvm")
    sub.refresh_from_db()
    assert sub.state == "finished", sub.error  # a spent budget is an outcome, not a failure
    reasons = dict(Result.objects.filter(submission=sub).values_list("workload", "reason"))
    assert "malformed reply: the reply is not JSON" in reasons[WID]
    assert "budget exhausted" in reasons[WID2]
    assert len(server.requests) == 1


@pytest.mark.django_db(transaction=True)
def test_endpoint_submission_through_a_celery_worker(workers, broker, chat, loopback):
    """API → Redis → a real `celery worker` → the scripted endpoint on loopback → the pipeline in
    the sandbox → PostgreSQL; the key appears in no response, page, log line or result."""
    from rest_framework.test import APIClient

    from portal.models import Result, Submission

    server = chat({WID: ["Let me think.", GOOD]})
    worker = workers.start(EKB_ENDPOINT_ALLOW_LOOPBACK="1")  # the API process has it through `loopback`
    alice = make_user("alice")
    resp = post(alice, payload(server.url, mode="agent", budget={"candidates": 1}))
    assert resp.status_code == 201, resp.content
    sub_id = resp.json()["id"]
    sub = wait_for(lambda: Submission.objects.filter(pk=sub_id, state__in=Submission.TERMINAL).first(),
                   timeout=180, what="the endpoint submission to finish", logs=workers.logs)
    assert sub.state == "finished", f"{sub.error}\n{workers.logs()}"
    r = Result.objects.get(submission=sub)
    assert r.status == "correct", r.reason
    assert [(t["kind"], t["outcome"]) for t in r.record["trace"]] == [
        ("turn", "no_kernel"), ("turn", "correct"), ("score", "correct")]
    assert [q["max_tokens"] for q in server.requests][:1] == [1]  # the check at submission (1 token)
    assert len(server.requests) == 1 + 2  # then the two turns
    log = worker.wait_logged("Task portal.evaluate[", "succeeded")
    pages = [APIClient().get(f"/api/v1/submissions/{sub_id}/").content.decode(),
             token_client(alice).get(f"/api/v1/submissions/{sub_id}/").content.decode(),
             APIClient().get(f"/submissions/{sub_id}/").content.decode()]
    for text in pages + [log, json.dumps(r.record), sub.error]:
        assert KEY not in text


UNSCHEDULED = "```json\n" + json.dumps({"format": "layered-trace", "version": 1,
                                        "layers": {"compute": [], "schedule": [], "memory": []}}) + "\n```"


@pytest.mark.django_db
def test_a_verified_run_prompts_held_out_shapes_drawn_for_this_submission(loopback, chat, client):
    """The verified run asks the endpoint for its selection again and for held-out shapes of the
    same patterns drawn for this submission (not the deployment's standing set, which the
    endpoint's operator would read in the prompts); the submitter sees counts, never those ids,
    prompts or replies."""
    from evaluator import suite
    from portal.evaluation import evaluate_backend
    from portal.models import Result, Submission

    owner = make_user("vera")
    server = chat({"*": [UNSCHEDULED]})  # a correct (unscheduled) kernel for any shape
    sub = _sub(owner, server.url, mode="direct", budget={"candidates": 1}, tasks=[WID])
    evaluate_backend(sub.pk, "cpu-llvm")
    sub.refresh_from_db()
    assert sub.state == "finished", sub.error
    public_requests = len(server.requests)
    Submission.objects.filter(pk=sub.pk).update(verification="queued")
    evaluate_backend(sub.pk, "cpu-llvm", Result.VERIFIED)
    sub.refresh_from_db()
    assert sub.verification == "finished"
    assert sub.tasks_done == 1  # the verified run does not move the public progress

    verified = list(Result.objects.filter(submission=sub, track=Result.VERIFIED))
    held = [r for r in verified if r.hidden]
    assert {r.workload for r in verified if not r.hidden} == {WID}
    assert held and all(r.workload.startswith("activation/relu@x") for r in held)
    assert all(r.status == "correct" for r in verified), [(r.workload, r.reason) for r in verified]
    standing = {w.id for w in suite.held_out()}
    assert not {r.workload for r in held} & standing  # drawn afresh, not the deployment's set
    assert len(server.requests) > public_requests  # the endpoint was prompted for them

    pages = [client.get(f"/api/v1/submissions/{sub.pk}/").content.decode()]
    client.force_login(owner)
    pages.append(client.get(f"/submissions/{sub.pk}/").content.decode())
    for body in pages:
        for r in held:
            assert r.workload not in body and r.workload.split("@")[1] not in body
