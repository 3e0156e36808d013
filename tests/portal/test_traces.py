"""Optimization traces: validated on upload, shown step by step with IR diffs and a latency
chart, prompts and replies of endpoint submissions, and never a script from a trace run."""

from __future__ import annotations

import json
import re

import pytest

from leaderboard.slices import track_tasks
from portal_helpers import (BACKEND, EXAMPLES, RELU_DEFAULT, add_result, make_submission, make_user, manifest, upload,
                            zip_bytes)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("isolated_media")]

EVIL = '<script>alert("trace")</script><img src=x onerror=alert(2)>'
IR0 = "for i in range(128):\n    for j in range(512):\n        C[i, j] = A[i, j] + 1\n"
IR1 = "for i in T.parallel(128):\n    for j in T.vectorized(512):\n        C[i, j] = A[i, j] + 1\n"


def _trace():
    return [
        {"step": 0, "layer": "other", "change": "canonical " + EVIL, "ir": IR0, "latency_ms": 4.0, "correct": True,
         "prompt": "write a kernel " + EVIL, "reply": "```python\n" + EVIL + "\n```"},
        {"step": 1, "layer": "schedule", "change": "parallel i, vectorise j", "ir": IR1, "latency_ms": 0.5,
         "correct": True, "note": "note " + EVIL},
        {"step": 2, "layer": "memory", "change": "no IR this time", "latency_ms": 0.6, "correct": False},
        {"step": 3, "layer": "memory", "change": "same IR again", "ir": IR1, "latency_ms": 0.45},
    ]


@pytest.fixture
def traced():
    from portal.models import Result

    w = track_tasks("public")[0]
    sub = make_submission(make_user("tracer"), "traced")
    r = add_result(sub, w, "correct", 2.0)
    rec = dict(r.record, trace=_trace())
    Result.objects.filter(pk=r.pk).update(record=rec)
    return sub, w


def _url(sub, w, **q):
    query = "?" + "&".join(f"{k}={v}" for k, v in q.items()) if q else ""
    return f"/submissions/{sub.pk}/trace/{BACKEND}/{w.id}/{query}"


def test_trace_steps_diff_and_latency_chart(client, traced):
    sub, w = traced
    body = client.get(_url(sub, w, step=1)).content.decode()
    assert body.count("<tr") >= 5  # header + 4 steps
    for s in ("parallel i, vectorise j", "no IR this time", "same IR again"):
        assert s in body
    # Step 1's IR and its diff to step 0.
    assert "IR after step 1 and its diff to step 0" in body
    assert '<span class="del">-for i in range(128):</span>' in body
    assert '<span class="add">+for i in T.parallel(128):</span>' in body
    assert '<span class="ctx"> </span>' not in body  # context lines are real lines
    # The chart: latency per step, coloured by correctness.
    fig = json.loads(re.search(r'Plotly.newPlot\(\s*"plot-trace",\s*(\[.*?\]),\s*\{', body, re.S)[1])
    assert fig[0]["x"] == [0, 1, 2, 3] and fig[0]["y"] == [4.0, 0.5, 0.6, 0.45]
    assert fig[0]["marker"]["color"][2] != fig[0]["marker"]["color"][1]  # step 2 was wrong
    # Step 3 carries the same IR as the last step with IR (step 1, skipping step 2).
    body = client.get(_url(sub, w, step=3)).content.decode()
    assert "the IR is unchanged from step 1" in body
    # By default the last step with IR is shown; step 0 has nothing before it to diff.
    assert "IR after step 3" in client.get(_url(sub, w)).content.decode()
    assert "nothing to diff against" in client.get(_url(sub, w, step=0)).content.decode()
    assert "carries no IR" in client.get(_url(sub, w, step=2)).content.decode()


def test_trace_content_is_shown_as_text_and_never_runs(client, traced):
    sub, w = traced
    for q in ({"step": 0}, {"step": 1}, {}):
        body = client.get(_url(sub, w, **q)).content.decode()
        assert "<script>alert" not in body and "<img src=x" not in body
        assert "&lt;script&gt;alert(&quot;trace&quot;)&lt;/script&gt;" in body
    body = client.get(_url(sub, w, step=0)).content.decode()
    assert "prompt and reply" in body and "write a kernel &lt;script&gt;" in body  # endpoint turns
    fig = re.search(r'Plotly.newPlot\(\s*"plot-trace",\s*(\[.*?\]),\s*\{', body, re.S)[1]
    assert "<" not in fig and "&lt;script&gt;" in json.loads(fig)[0]["text"][0]
    # The submission page links the trace.
    page = client.get(f"/submissions/{sub.pk}/").content.decode()
    assert f'href="{_url(sub, w)}"' in page


def test_trace_view_refuses_what_it_must_not_show(client, traced):
    from portal.models import Submission

    sub, w = traced
    other = track_tasks("public")[1]
    add_result(sub, other, "correct", 1.0)
    assert client.get(_url(sub, other)).status_code == 404  # no trace
    assert client.get(f"/submissions/{sub.pk}/trace/{BACKEND}/nope@x/").status_code == 404
    Submission.objects.filter(pk=sub.pk).update(public=False)
    assert client.get(_url(sub, w)).status_code == 404
    client.force_login(sub.owner)
    assert client.get(_url(sub, w)).status_code == 200


def test_the_api_returns_the_same_trace_and_counts_its_steps(client, traced):
    from portal.models import Submission

    sub, w = traced
    r = client.get(f"/api/v1/submissions/{sub.pk}/trace/{BACKEND}/{w.id}/")
    assert r.status_code == 200
    body = r.json()
    assert (body["workload"], body["backend"], body["status"]) == (w.id, BACKEND, "correct")
    assert body["steps"] == _trace()  # as stored; JSON carries it as data, nothing is rendered
    listed = client.get(f"/api/v1/submissions/{sub.pk}/").json()["results"]
    assert next(x for x in listed if x["workload"] == w.id)["trace_steps"] == len(_trace())
    assert client.get(f"/api/v1/submissions/{sub.pk}/trace/{BACKEND}/nope@x/").status_code == 404
    Submission.objects.filter(pk=sub.pk).update(public=False)  # someone else's private submission
    assert client.get(f"/api/v1/submissions/{sub.pk}/trace/{BACKEND}/{w.id}/").status_code == 404


@pytest.mark.parametrize("trace,message", [
    ('{"step": 0, "layer": "schedule", "change": "x"}\n{"step": 0, "layer": "schedule", "change": "y"}\n',
     "line 2: 'step' 0 is not greater than the previous step 0"),
    ('{"step": 0, "layer": "warp", "change": "x"}\n', "'layer' must be one of"),
    ('{"step": 0, "layer": "other", "change": "x", "script": "<script>"}\n', "unknown key 'script'"),
    ('{"step": 0, "layer": "other", "change": "' + "x" * 3000 + '"}\n',
     "'change' is 3000 characters; the limit is 2000"),
])
def test_traces_are_validated_on_upload(trace, message, fresh_throttle_cache):
    from rest_framework.test import APIClient

    from portal.models import Submission

    entry = dict(RELU_DEFAULT.entry(), trace="traces/t.jsonl")
    data = zip_bytes({"manifest.json": manifest([entry]),
                      RELU_DEFAULT.member: (EXAMPLES / RELU_DEFAULT.source).read_bytes(), "traces/t.jsonl": trace})
    api = APIClient()
    api.force_authenticate(make_user("bob"))
    resp = api.post("/api/v1/submissions/", {"bundle": upload(data)}, format="multipart")
    assert resp.status_code == 400
    assert any(message in m and "traces/t.jsonl" in m for m in resp.json()["bundle"]), resp.json()
    assert Submission.objects.count() == 0
