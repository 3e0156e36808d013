"""The vendor call timed once per workload and machine against tvm-default
(``evaluator/harness/vendor_ratio.py``), through the real pipeline with the sandbox on; and its
records on disk, read back without trusting them.

The attack class: moving the figure every later submission's vendor speedup is computed from —
work a submission leaves running while the figure is timed, or a record on disk that is not
what this process wrote.
"""

from __future__ import annotations

import json
import time

import pytest

from evaluator import records, suite
from evaluator.baselines.tvm_default import default_document
from evaluator.harness.vendor_ratio import VendorRatio, VendorRatios, key
from evaluator.pipeline import Candidate, Pipeline
from evaluator.sandbox import probe
from test_hostile import RELU, c_relu  # sibling test modules: pytest puts tests/evaluator on sys.path
from test_sessions import when_idle

sandbox = pytest.mark.skipif(probe() is not None, reason=f"no sandbox here: {probe()}")

GOOD = {"format": "ekb-vendor-ratio/1", "median": 0.5, "ci": [0.45, 0.55], "rounds": 30,
        "measured_at": "2026-12-04T00:00:00+0000"}

# Once idle for 0.3 s (the task is over, the process kept for the next), burns a core for ever.
BURN_WHEN_IDLE = when_idle(0.3, "    volatile double x = 0; for (;;) x += 1.0;")


def _default(w) -> Candidate:
    return Candidate("layered-trace", json.dumps(default_document(w.canonical_module())))


@pytest.mark.parametrize("change", [
    {"format": "ekb-vendor-ratio/0"}, {"median": -0.5}, {"median": float("nan")}, {"median": 0.9},
    {"ci": [0.0, 0.55]}, {"rounds": 0}, {"median": "fast"},
])
def test_a_record_that_is_not_a_finite_positive_ratio_inside_its_interval_is_refused(change):
    assert VendorRatio.from_json(GOOD).median == 0.5
    with pytest.raises((ValueError, TypeError)):
        VendorRatio.from_json({**GOOD, **change})


def test_a_link_or_a_damaged_file_in_place_of_a_record_reads_as_unknown(tmp_path):
    k = "a" * 64
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(json.dumps(GOOD))
    store = tmp_path / "vendor-ratios"
    store.mkdir()
    (store / f"{k}.json").symlink_to(elsewhere)
    assert VendorRatios(store).get(k) is None  # never followed: measured again, written over
    (store / f"{k}.json").unlink()
    (store / f"{k}.json").write_text('{"format": "ekb-vendor-ratio/1", "median": ')
    assert VendorRatios(store).get(k) is None
    ratio = VendorRatio.from_json(GOOD)
    VendorRatios(store).put(k, ratio, persist=True)
    assert VendorRatios(store).get(k) == ratio  # another worker process reads it back
    VendorRatios(store).put("b" * 64, ratio, persist=False)
    assert not (store / f"{'b' * 64}.json").exists()


def test_everything_that_decides_the_ratio_is_in_its_key():
    args = ("cpu-llvm", "AMD EPYC (2 cores)", RELU, {"pattern": "activation/relu"}, b"\x7fELF...", {"min_rounds": 30})
    base = key(*args)
    assert key(*args) == base
    for i, other in enumerate(("opencl", "Xeon", "activation/relu@m1n1", {"pattern": "x"}, b"\x7fELF.!.",
                               {"min_rounds": 31})):
        assert key(*args[:i], other, *args[i + 1:]) != base, i


def test_what_cannot_move_the_ratio_is_not_in_its_key():
    """The seeds and the tie budget (a candidate's rounds only): changing them keeps every
    figure a machine has timed."""
    from evaluator.harness.protocol import Protocol

    proto = Protocol().to_json()
    args = ("cpu-llvm", "Xeon", RELU, {"pattern": "activation/relu"}, b"\x7fELF...")
    base = key(*args, proto)
    assert key(*args, {**proto, "seeds": [1, 2, 3], "tie_budget_s": proto["tie_budget_s"] * 2}) == base
    assert key(*args, {**proto, "settle_half_width": 0.01}) != base


@sandbox
def test_the_vendor_call_is_timed_once_and_later_tasks_are_held_against_that_figure(tmp_path, monkeypatch,
                                                                                     quick_protocol):
    monkeypatch.setenv("EKB_CACHE_DIR", str(tmp_path))
    w = suite.get_workload(RELU)
    first = Pipeline("cpu-llvm", quick_protocol).evaluate(w, c_relu("relu(X, T_relu);"))
    assert first.status == records.CORRECT, first.reason
    assert "vendor_ratio" in first.steps_s and set(first.times) == {"candidate", "tvm-default"}
    ratio = first.detail["vendor_ratio"]
    assert first.speedup["vendor"] == pytest.approx(ratio["median"] * first.speedup["tvm-default"])
    lo, hi = first.speedup_ci["vendor"]
    assert lo <= first.speedup["vendor"] <= hi
    assert len(list((tmp_path / "vendor-ratios").glob("*.json"))) == 1
    # another worker process on this machine: the figure is read, not timed again
    second = Pipeline("cpu-llvm", quick_protocol).evaluate(w, c_relu("relu(X, T_relu);"))
    assert second.status == records.CORRECT, second.reason
    assert "vendor_ratio" not in second.steps_s and second.detail["vendor_ratio"] == ratio
    assert second.speedup["vendor"] == pytest.approx(ratio["median"] * second.speedup["tvm-default"])


@sandbox
def test_a_held_out_workloads_figure_stays_in_memory(tmp_path, monkeypatch, quick_protocol):
    monkeypatch.setenv("EKB_CACHE_DIR", str(tmp_path))
    w = next(h for h in suite.held_out() if h.pattern.id == "activation/relu")  # the tests' secret (conftest)
    r = Pipeline("cpu-llvm", quick_protocol).evaluate(w, _default(w))
    assert r.status == records.CORRECT, r.reason
    assert r.detail["vendor_ratio"]["median"] > 0
    assert not list((tmp_path / "vendor-ratios").glob("*"))


@sandbox
def test_a_kept_candidate_process_that_works_while_the_figure_is_timed_drops_it(tmp_path, monkeypatch,
                                                                                 quick_protocol):
    monkeypatch.setenv("EKB_CACHE_DIR", str(tmp_path))
    pipe = Pipeline("cpu-llvm", quick_protocol)
    other = next(v for v in suite.workloads() if v.pattern.id == "activation/relu" and v.id != RELU)
    with pipe.session():
        first = pipe.evaluate(suite.get_workload(RELU), BURN_WHEN_IDLE)
        assert first.status == records.CORRECT, first.reason  # the thread waits for the task to end
        kept = next(k for k in pipe._serving.idle.values() if k.key[0] == "candidate")
        burner = kept.child
        # the figure can be timed within the 0.3 s the thread waits: let it start burning first
        deadline = time.monotonic() + 10
        while burner.cpu_s() - kept.given_cpu_s < 0.2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert burner.cpu_s() - kept.given_cpu_s >= 0.2, "the kept process never started its work"
        second = pipe.evaluate(other, _default(other))
    assert "candidate process used CPU" in second.detail["vendor_ratio_dropped"]
    assert len(list((tmp_path / "vendor-ratios").glob("*.json"))) == 1  # the first task's only
    assert "vendor_ratio" not in second.detail and "vendor" in second.times  # timed beside it
    # the work it left running is seen by the task it ran into
    assert second.status == records.SUSPECT and "while it was not being called" in second.reason
    assert burner.proc.poll() is not None  # a suspect task's processes are not kept


@sandbox
def test_a_quiet_kept_candidate_process_is_kept_through_the_figure(tmp_path, monkeypatch, quick_protocol):
    monkeypatch.setenv("EKB_CACHE_DIR", str(tmp_path))
    pipe = Pipeline("cpu-llvm", quick_protocol)
    other = next(v for v in suite.workloads() if v.pattern.id == "activation/relu" and v.id != RELU)
    with pipe.session():
        first = pipe.evaluate(suite.get_workload(RELU), _default(suite.get_workload(RELU)))
        kept = next(k.child for k in pipe._serving.idle.values() if k.key[0] == "candidate")
        second = pipe.evaluate(other, _default(other))
        again = next(k.child for k in pipe._serving.idle.values() if k.key[0] == "candidate")
    assert first.status == records.CORRECT and second.status == records.CORRECT, second.reason
    assert "vendor_ratio" in second.steps_s and "vendor_ratio_dropped" not in second.detail
    assert again is kept  # no process start for the task after a figure
