"""The OpenAPI document is true: schemathesis reads it from a live server and calls every operation
in it (those added later too), with a real API token, on a seeded database, checking every answer
against the document: no server error, a documented status code, content type, headers and body,
valid data accepted, invalid data rejected, authentication enforced where it is declared, the
methods that are not served refused with a true ``Allow`` header.

schemathesis runs as its command line (``st run``): its pytest integration does not run on this
pytest. This module is also the run's hooks module (``SCHEMATHESIS_HOOKS``): the hooks below are
all that the run does differently from a plain ``st run --checks all``.

Nothing is mocked. ``POST /api/v1/submissions/`` uploads a real bundle wherever the generated body
is valid; its jobs go to the real Redis broker, where no worker takes them, so no evaluation runs.
docs/api.md says what is checked and how to run it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import schemathesis
from schemathesis.specs.openapi.checks import positive_data_acceptance
from schemathesis.transport.serialization import Binary

from portal_helpers import RELU_DEFAULT, bundle_zip, make_user, seed_leaderboard

HERE = Path(__file__).resolve().parent
# Examples per operation and phase: enough to reach every parameter's edges within the module's
# time budget (about a minute on a two-core machine: docs/api.md).
MAX_EXAMPLES = 8
RUN_TIMEOUT_S = 240
SUBMIT = ("POST", "/api/v1/submissions/")
# An endpoint submission's URL is resolved on submission (portal.endpoints: the SSRF guard). A
# generated host name would be looked up in DNS, so every URL that is valid as a string is sent as
# this one, on the loopback (which the test deployment allows).
ENDPOINT_URL = "http://127.0.0.1:9/v1/chat/completions"


# --------------------------------------------------------------------------- the run's hooks


@schemathesis.hook
def before_call(context, case, kwargs):
    """A valid submission body uploads a real bundle, and an endpoint's URL never names a host."""
    if (case.method.upper(), case.path) != SUBMIT or not isinstance(case.body, dict):
        return
    if case.media_type == "application/json":
        url = case.body.get("url")
        if isinstance(url, str) and 0 < len(url) <= 500:
            case.body["url"] = ENDPOINT_URL
    elif case.meta is not None and case.meta.generation.mode.is_positive:
        # only a case valid throughout: in an invalid one the generated file keeps it invalid
        case.body["bundle"] = Binary(bundle_zip(RELU_DEFAULT, name="conformance"))
        # One valid file for another: the case starts so (its checks cannot validate a file's bytes,
        # and would read any edit of one as an invalid body).
        case._record_starting_state()


# Where valid-looking data may be refused (a 400 naming what is wrong) because what it must hold
# cannot be written in a schema: (method, path, media type or None for any) → why.
BEYOND_THE_SCHEMA = {
    (*SUBMIT, "application/json"): "an endpoint's URL must answer, each task glob match a workload, a budget's "
                                   "requests be at least its candidates",
    ("GET", "/api/v1/tasks/starter-bundle/", None): "each task glob must match a served workload, all of them "
                                                     "together at most starter.MAX_STARTER_TASKS",
    ("POST", "/api/v1/submissions/{id}/rerun/", None): "the stored bundle must pass today's checks, its backends "
                                                        "still be served (the seeded submissions have no bundle)",
}


@schemathesis.check
def positive_data_accepted(ctx, response, case):
    """``positive_data_acceptance``, but for the requests of BEYOND_THE_SCHEMA."""
    key = (case.method.upper(), case.path)
    if (*key, case.media_type) in BEYOND_THE_SCHEMA or (*key, None) in BEYOND_THE_SCHEMA:
        return None
    return positive_data_acceptance(ctx, response, case)


# --------------------------------------------------------------------------- the test


@pytest.fixture
def api_token(transactional_db):
    """A real API token of alice, who owns a finished public submission (``alpha``) of the seeded
    boards and is not staff (a staff-only operation answers her 403)."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    seed_leaderboard()
    make_user("mallory")  # owns nothing
    return Token.objects.create(user=get_user_model().objects.get(username="alice")).key


def test_the_api_answers_as_its_schema_says(live_server, api_token, broker, fresh_throttle_cache, isolated_media,
                                            settings, tmp_path, monkeypatch):
    import requests
    from rest_framework.throttling import ScopedRateThrottle

    from portal.models import Result, Submission

    settings.EKB_ENDPOINT_ALLOW_LOOPBACK = True
    # Uploads and reruns share an hourly rate that the run's invalid requests alone would spend
    # before its valid ones come; it is raised for this run (test_api_submissions.py tests it).
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "submissions", "100000/hour")
    settings.EKB_API_RATE = None  # and the per-user rate of all requests, and the daily quota
    settings.EKB_DAILY_SUBMISSIONS = 0
    seeded = set(Submission.objects.values_list("pk", flat=True))
    schema_url = f"{live_server.url}/api/v1/schema/?format=json"
    report = tmp_path / "junit.xml"
    cmd = [str(Path(sys.executable).with_name("st")), "run", schema_url,
           "--checks", "all", "--exclude-checks", "positive_data_acceptance",  # positive_data_accepted instead
           "--header", f"Authorization: Token {api_token}",
           "--max-examples", str(MAX_EXAMPLES), "--generation-deterministic",
           # DRF refuses a NUL in any string (a 400 naming the field); the schema does not say so
           "--generation-allow-x00", "false",
           # one worker: with two, Hypothesis parses lambdas in two threads at once, which CPython
           # 3.11 can fail ("SystemError: AST constructor recursion depth mismatch", a fresh-clone run)
           "--workers", "1", "--request-timeout", "30", "--no-color",
           "--report", "junit", "--report-junit-path", str(report)]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": Path(__file__).stem,
           "PYTHONPATH": os.pathsep.join([str(HERE), str(HERE.parent), os.environ.get("PYTHONPATH", "")])}
    started = time.monotonic()
    # in tmp_path: schemathesis and Hypothesis keep their caches in the working directory
    run = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    out = f"({time.monotonic() - started:.0f} s)\n{run.stdout}{run.stderr}"[-20000:]
    assert run.returncode == 0, f"schemathesis found failures {out}"

    # Every operation of the document was tested (stateful sequences too), and none failed.
    suite = ET.parse(report).getroot()
    assert (suite.get("failures"), suite.get("errors")) == ("0", "0"), out
    doc = requests.get(schema_url, timeout=30).json()
    operations = {f"{m.upper()} {p}" for p, ops in doc["paths"].items() for m in ops}
    assert {tc.get("name") for tc in suite.iter("testcase")} == operations | {"Stateful tests"}, out
    assert {"POST /api/v1/submissions/", "GET /api/v1/leaderboard/"} <= operations
    # The POSTs stored submissions (real uploads among them); none was evaluated.
    made = Submission.objects.exclude(pk__in=seeded)
    assert made.filter(kind=Submission.Kind.BUNDLE).exclude(bundle_sha256="").exists(), out
    assert not made.exclude(state__in=[Submission.State.QUEUED, Submission.State.CANCELLED]).exists()
    assert not Result.objects.filter(submission__in=made).exists()


def test_the_schema_documents_errors_everywhere(live_server):
    """The document the run reads: every API route is in it, and every operation documents its
    errors with the one error body."""
    import requests

    doc = requests.get(f"{live_server.url}/api/v1/schema/?format=json", timeout=30).json()
    paths = doc["paths"]
    for path in ("/api/v1/submissions/", "/api/v1/submissions/{id}/", "/api/v1/tasks/", "/api/v1/backends/",
                 "/api/v1/leaderboard/", "/api/v1/leaderboard/boards/", "/api/v1/leaderboard/matrix/",
                 "/api/v1/leaderboard/export.{fmt}"):
        assert path in paths, sorted(paths)
    for path, ops in paths.items():
        for method, op in ops.items():
            assert "401" in op["responses"], (method, path)
            errors = {code: r for code, r in op["responses"].items() if code >= "400"}
            assert all("application/json" in r["content"] for r in errors.values()), (method, path)
            if any(p["in"] == "query" for p in op.get("parameters", [])) or "requestBody" in op:
                assert "400" in errors, (method, path)
    assert doc["components"]["schemas"]["Error"]["properties"]["detail"] == {"type": "string"}
