"""Endpoint URLs in both forms researchers have (the base URL the OpenAI SDKs take, ``…/v1``, and
the full chat-completions URL), made once into the URL every call posts to, stored and shown; and
the check at submission: one 1-token call through the SSRF guard that refuses a URL that cannot
answer (naming it) and accepts a slow or busy one with a warning. Against the scripted chat
server as a real HTTP server on loopback (the test deployment admits loopback), once end to end
through a real ``celery worker``."""

from __future__ import annotations

import contextlib
import json
import socket

import pytest

from evaluator.agents.client import chat_completions_url
from evaluator.backends import get_backend
from portal_helpers import RELU_DEFAULT, bundle_zip, make_user, token_client, upload, wait_for

pytestmark = pytest.mark.usefixtures("isolated_media", "fresh_throttle_cache")

KEY = "sk-test-5b0e7c2a91d4f3e8"
WID = "activation/relu@m128n768"
DOC = {"format": "layered-trace", "version": 1, "layers": {"compute": [], "schedule": [], "memory": []}}
GOOD = f"```json\n{json.dumps(DOC)}\n```"  # correct (unscheduled) for any shape
CALLED = "https://api.example.com/v1/chat/completions"


@pytest.fixture
def chat(chat_server):
    """``chat(default=steps, tasks=...)``: a scripted chat server requiring KEY (WID answered GOOD)."""
    return lambda default=None, tasks=None: chat_server(tasks or {WID: [GOOD]}, default, key=KEY)


def payload(url, **kw):
    return {"kind": "endpoint", "url": url, "model": "scripted", "api_key": KEY, "mode": "direct",
            "budget": {"candidates": 1}, "tasks": [WID], **kw}


def post(user, data):
    return token_client(user).post("/api/v1/submissions/", data, format="json")


def nothing_stored():
    from portal.models import Endpoint, Submission

    return not Submission.objects.exists() and not Endpoint.objects.exists()


def closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    return port


# --- the two forms ----------------------------------------------------------------------------

@pytest.mark.parametrize("given, called", [
    ("https://api.example.com/v1", CALLED),
    ("https://api.example.com/v1/", CALLED),
    ("https://api.example.com/v1//", CALLED),
    ("  https://api.example.com/v1 ", CALLED),
    (CALLED, CALLED),
    (CALLED + "/", CALLED),
    ("https://api.example.com/v1/Chat/Completions", "https://api.example.com/v1/Chat/Completions"),
    # as the SDKs do: the base URL is taken as it is, /chat/completions appended
    ("https://api.example.com", "https://api.example.com/chat/completions"),
    ("http://127.0.0.1:8765/v1", "http://127.0.0.1:8765/v1/chat/completions"),
    # Azure-style: the query stays after the path, in either form
    ("https://r.openai.azure.com/openai/deployments/d?api-version=2024-06-01",
     "https://r.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-06-01"),
    ("https://r.openai.azure.com/openai/deployments/d/chat/completions/?api-version=2024-06-01",
     "https://r.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-06-01"),
    # not http(s) with a host: left to the guard, which names what is wrong
    ("api.example.com/v1", "api.example.com/v1"),
    ("", ""),
])
def test_both_forms_make_the_same_called_url(given, called):
    assert chat_completions_url(given) == called


@pytest.mark.parametrize("given, why", [
    ("https://api.example.com/v1/completions", "ends in /completions, another operation"),
    ("https://api.example.com/v1/responses/", "ends in /responses"),
    ("https://api.example.com/" + "a" * 470, "with /chat/completions appended the endpoint URL has 511 characters"),
])
def test_urls_that_cannot_be_made_into_a_chat_completions_url_are_named(given, why):
    with pytest.raises(ValueError, match=why):
        chat_completions_url(given)


@pytest.mark.django_db
def test_api_takes_both_forms_calls_stores_and_shows_the_same_url(loopback, chat):
    from portal.models import Endpoint

    server = chat()
    owner = make_user("ada")
    for given in (server.base_url, server.base_url + "/", server.url):
        resp = post(owner, payload(given))
        assert resp.status_code == 201, resp.content
        body = resp.json()
        assert body["endpoint_url_called"] == server.url == body["endpoint"]["url"]
        check = body["endpoint_check"]
        assert check["url"] == server.url and check["ok"] is True and check["outcome"] == "answered"
        assert check["http_status"] == 200 and 0 <= check["latency_s"] < 5
        assert Endpoint.objects.get(submission_id=body["id"]).url == server.url
        assert KEY not in resp.content.decode()
    # one 1-token request per submission, at the chat-completions path, with the key (the server
    # requires it); nothing else was called
    assert [(r["path"], r["max_tokens"], r["turns"]) for r in server.requests] == \
        [("/v1/chat/completions", 1, 1)] * 3


@pytest.mark.django_db
def test_a_bundle_answer_has_no_endpoint_fields():
    resp = token_client(make_user("bo")).post("/api/v1/submissions/", {"bundle": upload(bundle_zip(RELU_DEFAULT))},
                                              format="multipart")
    assert resp.status_code == 201, resp.content
    assert resp.json()["endpoint_url_called"] is None and resp.json()["endpoint_check"] is None


# --- refused at submission --------------------------------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize("host, why", [("127.0.0.1", "127.0.0.1 is a loopback address"),
                                       ("169.254.169.254", "is a cloud metadata address"),
                                       ("10.1.2.3", "is a private address")])
def test_ssrf_blocked_host_is_refused_with_the_reason_and_never_called(chat, host, why):
    server = chat()
    port = server.server_address[1]
    resp = post(make_user("mal"), payload(f"http://{host}:{port}/v1"))
    assert resp.status_code == 400 and why in resp.json()["url"][0], resp.content
    assert server.requests == [] and nothing_stored()


@pytest.mark.django_db
def test_a_dead_port_is_refused_with_a_message_naming_the_called_url(loopback):
    port = closed_port()
    resp = post(make_user("dee"), payload(f"http://127.0.0.1:{port}/v1/"))
    assert resp.status_code == 400, resp.content
    (msg,) = resp.json()["url"]
    assert msg.startswith(f"calling http://127.0.0.1:{port}/v1/chat/completions failed: cannot connect"), msg
    assert nothing_stored()


@pytest.mark.django_db
def test_url_shapes_that_cannot_work_are_refused_by_name(loopback, chat):
    server = chat()
    user = make_user("fay")
    for url, why in [(server.base_url + "#models", "must not have a #fragment"),
                     (server.base_url + "/completions", "another operation of the API"),
                     ("ftp://example.com/v1", "must start with http:// or https://")]:
        resp = post(user, payload(url))
        assert resp.status_code == 400 and why in resp.json()["url"][0], (url, resp.content)
    assert server.requests == [] and nothing_stored()


@pytest.mark.django_db
def test_an_endpoint_that_answers_but_cannot_serve_the_run_is_refused(loopback, chat):
    server = chat()
    user = make_user("gus")
    wrong_key = payload(server.base_url, api_key="sk-wrong-key-0000")
    for data, why in [(wrong_key, "HTTP 401: the endpoint refused the API key"),
                      (payload(server.base_url, model="no-such-model"), "HTTP 404: {\"error\": {\"message\": \"model "
                                                                          "'no-such-model' not found")]:
        resp = post(user, data)
        assert resp.status_code == 400, resp.content
        (msg,) = resp.json()["url"]
        assert msg.startswith("calling http://127.0.0.1:") and why in msg, msg
        assert "sk-wrong-key-0000" not in msg
    assert "give the base URL the OpenAI SDKs take" in msg
    for step, why in [({"redirect": "http://10.0.0.1/v1/chat/completions", "status": 301},  # no DNS lookup
                       "HTTP 301 redirect to http://10.0.0.1/v1/chat/completions refused: redirects are not "
                       "followed; the target is not allowed either (refused: 10.0.0.1 is a private address)"),
                      ({"raw": "<html>a web page</html>"}, "HTTP 200, but the reply is not JSON"),
                      ({"raw": json.dumps({"object": "list"})}, "not a chat completion (no choices)")]:
        other = chat(default=[step])
        resp = post(user, payload(other.base_url))
        assert resp.status_code == 400 and why in resp.json()["url"][0], resp.content
    assert nothing_stored()


# --- accepted with a warning ------------------------------------------------------------------

@pytest.mark.django_db
def test_a_slow_or_busy_endpoint_is_accepted_and_the_answer_says_so(loopback, chat, client):
    loopback.EKB_ENDPOINT_TIMEOUT_S = 1.0  # the check's limit is the smaller of it and 5 s
    slow = chat(default=[{"delay_s": 2, "content": "late"}])
    busy = chat(default=[{"status": 503, "body": "overloaded"}])
    owner = make_user("hal", password="pw-for-hal-1234")

    resp = post(owner, payload(slow.base_url))
    assert resp.status_code == 201, resp.content
    check = resp.json()["endpoint_check"]
    assert (check["ok"], check["outcome"], check["http_status"]) == (False, "timeout", None)
    assert "within 1 s" in check["message"] and 1 <= check["latency_s"] < 2

    resp = post(owner, payload(busy.url))
    assert resp.status_code == 201, resp.content
    check = resp.json()["endpoint_check"]
    assert (check["ok"], check["outcome"], check["http_status"]) == (False, "http_error", 503)
    assert "overloaded" in check["message"] and resp.json()["endpoint_url_called"] == busy.url

    echo = chat(default=[{"echo_auth": True, "status": 400}])  # a server that repeats the key back
    resp = post(owner, payload(echo.base_url))
    assert resp.status_code == 201 and resp.json()["endpoint_check"]["outcome"] == "http_error"
    assert "Bearer [redacted]" in resp.json()["endpoint_check"]["message"] and KEY not in resp.content.decode()

    # the form's answer: the submission page names the URL called and what the check saw
    client.login(username="hal", password="pw-for-hal-1234")
    resp = client.post("/submit/endpoint/", {"url": busy.base_url, "model": "scripted", "api_key": KEY,
                                             "mode": "direct", "candidates": 1, "time_s": 300, "max_tokens": 100000,
                                             "tasks": WID, "public": "on"}, follow=True)
    html = resp.content.decode()
    assert resp.redirect_chain and f"Every model call goes to {busy.url}; it did not answer the check" in html
    assert "HTTP 503" in html and "queued anyway" in html and KEY not in html


@pytest.mark.django_db
def test_the_form_takes_the_base_url_and_says_what_it_calls(loopback, chat, client):
    from portal.models import Endpoint

    server = chat()
    make_user("ida", password="pw-for-ida-1234")
    client.login(username="ida", password="pw-for-ida-1234")
    page = client.get("/submit/endpoint/").content.decode()
    assert "the base URL the OpenAI SDKs take" in page
    resp = client.post("/submit/endpoint/", {"url": server.base_url, "model": "scripted", "api_key": KEY,
                                             "mode": "direct", "candidates": 1, "time_s": 300, "max_tokens": 100000,
                                             "tasks": WID, "public": "on"}, follow=True)
    html = resp.content.decode()
    assert f"Every model call goes to {server.url}; it answered the check (HTTP 200" in html
    assert Endpoint.objects.get().url == server.url
    port = closed_port()
    resp = client.post("/submit/endpoint/", {"url": f"http://127.0.0.1:{port}/v1", "model": "scripted",
                                             "api_key": KEY, "mode": "direct", "candidates": 1, "time_s": 300,
                                             "max_tokens": 100000, "tasks": WID, "public": "on"})
    assert resp.status_code == 200 and Endpoint.objects.count() == 1
    assert f"calling http://127.0.0.1:{port}/v1/chat/completions failed" in resp.content.decode()


# --- the run ----------------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_url_stored_before_is_called_as_stored(loopback, chat):
    """URLs are made into the called form on submission only: a stored one (here with the
    trailing slash and query normalising would drop or keep) is called verbatim by the job."""
    from portal.endpoints import create_endpoint_submission, evaluate_endpoint
    from portal.models import Endpoint

    server = chat(tasks={WID: [GOOD]})
    sub = create_endpoint_submission(make_user("jo"), url=server.url, model="scripted", api_key=KEY, mode="direct",
                                     budget={"candidates": 1}, tasks=[WID], enqueue=False)
    assert sub.endpoint_check is None and server.requests == []  # no probe unless asked
    Endpoint.objects.filter(pk=sub.endpoint.pk).update(url=server.url + "/?legacy=1")
    sub.refresh_from_db()
    seen = []

    class Pipe:  # the job's pipeline, less the build: this test is about the URL
        info = get_backend("cpu-llvm").info()

        def evaluate(self, w, candidate):
            seen.append(candidate)
            raise RuntimeError("not built here")

    with contextlib.suppress(RuntimeError):
        evaluate_endpoint(sub, "cpu-llvm", Pipe(), set(), lambda s, r: True)
    assert [r["path"] for r in server.requests] == ["/v1/chat/completions/?legacy=1"] and seen


@pytest.mark.django_db(transaction=True)
def test_a_base_url_submission_is_evaluated_through_a_celery_worker(workers, broker, chat, loopback):
    """API (base URL) → Redis → a real `celery worker` → the called URL on loopback → the pipeline
    in the sandbox; the check's request is not taken from the submission's budget."""
    from portal.models import Endpoint, Result, Submission

    server = chat(tasks={WID: [GOOD]})
    workers.start(EKB_ENDPOINT_ALLOW_LOOPBACK="1")  # the API process has it through `loopback`
    resp = post(make_user("kit"), payload(server.base_url, budget={"candidates": 1, "max_requests": 2}))
    assert resp.status_code == 201, resp.content
    body = resp.json()
    assert body["endpoint_url_called"] == server.url and body["endpoint_check"]["ok"] is True
    sub = wait_for(lambda: Submission.objects.filter(pk=body["id"], state__in=Submission.TERMINAL).first(),
                   timeout=120, what="the endpoint submission to finish", logs=workers.logs)
    assert sub.state == "finished", f"{sub.error}\n{workers.logs()}"
    r = Result.objects.get(submission=sub)
    assert r.status == "correct", r.reason
    checks = [q for q in server.requests if q["max_tokens"] == 1]
    turns = [q for q in server.requests if q["max_tokens"] != 1]
    assert len(checks) == 1 and len(turns) >= 1  # the model turns were served at the called URL
    assert {q["path"] for q in server.requests} == {"/v1/chat/completions"}
    assert Endpoint.objects.get(submission=sub).requests_used == len(turns)
