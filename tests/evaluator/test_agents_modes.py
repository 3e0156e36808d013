"""The three modes end to end: a real chat server on loopback (scripted transcripts, and the
built-in search agent), the real client, and the real pipeline in the sandbox for every
candidate. Each test checks the result that counts and the trace that records every turn."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from evaluator import records, suite
from evaluator.agents.budget import Budget, Meter
from evaluator.agents.client import ChatClient, NetPolicy
from evaluator.agents.modes import run_task
from evaluator.agents.server import ChatServer, ScriptedModel, search_model
from evaluator.pipeline import Pipeline

WID = "activation/relu@m128n768"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "bundles"
DEFAULT_DOC = json.loads((EXAMPLES / "tvm-default/schedules/activation__relu--m128n768.json").read_text())
GOOD = f"Here is a schedule.\n```json\n{json.dumps(DEFAULT_DOC)}\n```"
# inlining the output block: the schedule does not apply (compile_error)
BAD_SCHEDULE = "```json\n" + json.dumps({"format": "layered-trace", "version": 1, "layers": {
    "compute": [{"op": "compute_inline", "block": "T_relu"}]}}) + "\n```"
# computes half of the rows only (wrong_result)
HALF = '''```python
@T.prim_func(s_tir=True)
def main(X: T.Buffer((128, 768), "float32"), T_relu: T.Buffer((128, 768), "float32")):
    for i, j in T.grid(64, 768):
        with T.sblock("T_relu"):
            vi, vj = T.axis.remap("SS", [i, j])
            T_relu[vi, vj] = T.max(X[vi, vj], T.float32(0.0))
```'''


def layer(name, steps, advance=True):
    return "```json\n" + json.dumps({"layer": name, "steps": steps, "advance": advance}) + "\n```"


@pytest.fixture(scope="module")
def pipeline(quick_protocol):
    return Pipeline("cpu-llvm", quick_protocol)


@pytest.fixture
def endpoint():
    servers = []

    def start(steps=None, key="", search=False):
        models = [search_model()] if search else [ScriptedModel({"tasks": {WID: steps}})]
        s = ChatServer(models, api_key=key).start()
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.stop()


def run(server, mode, pipeline, budget: Budget, model="scripted", key="", **policy):
    w = suite.get_workload(WID)
    client = ChatClient(server.url, model, key, policy=NetPolicy(allow_loopback=True, **policy),
                        meter=Meter(100, 10**7))
    return run_task(w, mode, client, lambda c: pipeline.evaluate(w, c), budget, pipeline.info)


def test_direct_mode_scores_the_first_sample_and_records_correct_at_k(endpoint, pipeline):
    server = endpoint([BAD_SCHEDULE, GOOD])
    r = run(server, "direct", pipeline, Budget(candidates=2))
    assert r.status == records.COMPILE_ERROR and "schedule error" in r.reason  # sample 1 counts
    ep = r.detail["endpoint"]
    assert ep["mode"] == "direct" and ep["k"] == 2 and ep["correct@k"] is True
    assert [s["status"] for s in ep["samples"]] == ["compile_error", "correct"]
    assert ep["prompt"]["version"] == "ekb-prompt/1" and len(ep["prompt"]["digest"]) == 16
    assert [t["candidate"] for t in r.trace] == [1, 2] and [t["best"] for t in r.trace] == [True, False]
    first = r.trace[0]
    assert f"Task: {WID}" in first["prompt"] and "```python" in first["prompt"]  # the TVMScript compute
    assert first["reply"] == BAD_SCHEDULE and first["format"] == "layered-trace" and first["outcome"] == "compile_error"
    assert r.trace[1]["correct"] is True and r.trace[1]["latency_ms"] > 0
    assert len(server.requests) == 2


def test_agent_mode_feeds_back_and_keeps_the_best(endpoint, pipeline):
    server = endpoint(["I would vectorise the inner loop.", HALF, GOOD])
    r = run(server, "agent", pipeline, Budget(candidates=2))
    assert r.status == records.CORRECT, r.reason
    outcomes = [(t["kind"], t["outcome"], t["candidate"]) for t in r.trace]
    assert outcomes == [("turn", "no_kernel", None), ("turn", "wrong_result", 1), ("turn", "correct", 2),
                        ("score", "correct", 2)]
    # what the model was told after each reply
    assert "held no kernel" in r.trace[1]["prompt"]
    assert "wrong result" in r.trace[2]["prompt"] and 'RESULT {"candidate": 1' in r.trace[2]["prompt"]
    assert r.trace[2]["best"] and r.trace[3]["best"] and r.trace[3]["kernel"] == r.trace[2]["kernel"]
    ep = r.detail["endpoint"]
    assert ep["candidates_measured"] == 2 and ep["requests"] == 3 and ep["best_candidate"] == 2
    assert r.speedup["tvm-default"] > 0


def test_layered_mode_goes_through_the_layers(endpoint, pipeline):
    steps = DEFAULT_DOC["layers"]["schedule"]
    server = endpoint([layer("compute", []), layer("schedule", steps[:-1], advance=False),
                       layer("schedule", steps), layer("memory", [], advance=True)])
    r = run(server, "layered", pipeline, Budget(candidates=3))
    assert r.status == records.CORRECT, r.reason
    assert [(t["layer"], t["outcome"]) for t in r.trace][:4] == [
        ("compute", "skipped"), ("schedule", "correct"), ("schedule", "correct"), ("memory", "skipped")]
    # with a candidate left, a second pass starts; the transcript has run out (it repeats its
    # memory reply), so the compute question gets no usable reply until the requests are spent
    again = r.trace[4:-1]
    assert again and all(t["outcome"] == "no_kernel" and "'compute' layer was asked for" in t["note"] for t in again)
    assert r.detail["endpoint"]["requests"] == 6 == len(server.requests)
    assert (r.trace[-1]["kind"], r.trace[-1]["layer"]) == ("score", "schedule")
    assert "Layer: schedule (stage 2 of 3" in r.trace[1]["prompt"]
    measured = json.loads(r.trace[2]["kernel"])
    assert measured["layers"]["schedule"] == steps and measured["layers"]["memory"] == []
    assert r.trace[-1]["kind"] == "score"


def test_search_agent_in_layered_mode(endpoint, pipeline):
    """The built-in search agent behind the same API: every proposal renders and is correct."""
    server = endpoint(search=True)
    r = run(server, "layered", pipeline, Budget(candidates=3), model="ekb-search")
    assert r.status == records.CORRECT, r.reason
    turns = [t for t in r.trace if t["kind"] == "turn" and t["candidate"]]
    assert len(turns) == 3 and all(t["outcome"] == "correct" for t in turns), [t["note"] for t in turns]
    assert len({t["kernel"] for t in turns}) == 3  # three different schedules, none repeated
    assert r.trace[-1]["kind"] == "score" and r.speedup["tvm-default"] > 0


@pytest.mark.parametrize("steps, kind, words", [
    ([{"raw": "<html>502 Bad Gateway</html>"}], "malformed_reply", "not JSON"),
    ([{"delay_s": 2, "content": GOOD}], "timeout", "no complete reply within 0.5 s"),
])
def test_endpoint_failures_end_the_task_with_their_reason(endpoint, pipeline, steps, kind, words):
    server = endpoint(steps)
    r = run(server, "agent", pipeline, Budget(candidates=2), timeout_s=0.5, retries=0)
    assert r.status == records.MISSING and words in r.reason
    assert r.detail["endpoint"]["error"]["kind"] == kind
    assert r.trace[0]["outcome"] == "endpoint_error"


def test_auth_refused(endpoint, pipeline):
    server = endpoint([GOOD], key="sk-right")
    r = run(server, "layered", pipeline, Budget(candidates=2), key="sk-wrong")
    assert r.status == records.MISSING and "auth refused: HTTP 401" in r.reason
    err = r.detail["endpoint"]["error"]
    assert err["kind"] == "auth_refused" and err["fatal"]
    assert "sk-wrong" not in json.dumps(r.to_json())


def test_direct_mode_sends_the_next_sample_while_measuring_and_meters_in_its_own_thread(endpoint, pipeline):
    """Direct mode's samples do not depend on each other: sample 2's request is on its way while
    sample 1 is measured. Only the HTTP wait leaves the task's thread; the meter (a database row
    in the portal) is charged and credited in it, never in the sending thread."""
    class ThreadMeter(Meter):
        def __init__(self):
            super().__init__(100, 10**7)
            self.threads = set()

        def take_request(self):
            self.threads.add(threading.current_thread().name)
            super().take_request()

        def add_tokens(self, n):
            self.threads.add(threading.current_thread().name)
            super().add_tokens(n)

    server = endpoint([GOOD, GOOD, GOOD])
    w = suite.get_workload(WID)
    meter = ThreadMeter()
    client = ChatClient(server.url, "scripted", policy=NetPolicy(allow_loopback=True), meter=meter)
    measured = []

    def evaluate(c):
        started = time.time()
        r = pipeline.evaluate(w, c)
        measured.append((started, time.time()))
        return r

    r = run_task(w, "direct", client, evaluate, Budget(candidates=3), pipeline.info)
    assert r.status == records.CORRECT and r.detail["endpoint"]["k"] == 3
    arrived = [q["at"] for q in server.requests]
    assert len(arrived) == 3 and len(measured) == 3
    for i in (1, 2):  # sample i+1's request reached the model before sample i's measurement ended
        assert measured[i - 1][0] - 1.0 < arrived[i] < measured[i - 1][1], (arrived, measured)
    assert meter.threads == {threading.current_thread().name}
    assert meter.requests == 3 and r.detail["endpoint"]["requests"] == 3
