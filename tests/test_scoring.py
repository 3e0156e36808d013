"""Correct@1, Fast@p and both geometric means on hand-computed boards."""

import math

import pytest

from evaluator import scoring
from evaluator.records import TaskResult


def task(status, speedup=None, level="L1", domains=("vision",)):
    return TaskResult("w", "cpu-llvm", status, speedup={"tvm-default": speedup} if speedup else {},
                      level=level, domains=list(domains))


BOARD = [task("correct", 2.0), task("correct", 0.5), task("correct", 1.0, level="L2"),
         task("wrong_result"), task("missing", domains=("audio",))]


def test_summary_counts_failures_and_missing_as_wrong():
    s = scoring.summarize(BOARD)
    assert s["tasks"] == 5 and s["correct"] == 3
    assert s["correct@1"] == pytest.approx(3 / 5)
    assert s["fast@0.5"] == pytest.approx(3 / 5)
    assert s["fast@0.8"] == pytest.approx(2 / 5)
    assert s["fast@1.0"] == pytest.approx(2 / 5)
    assert s["fast@1.5"] == pytest.approx(1 / 5)
    assert s["fast@2.0"] == pytest.approx(1 / 5)


def test_geomeans_correct_only_and_deployable():
    s = scoring.summarize(BOARD)
    assert s["geomean_correct"] == pytest.approx(1.0)  # (2 · 0.5 · 1)^(1/3)
    # failed/missing fall back to the baseline (1.0): (2 · 0.5 · 1 · 1 · 1)^(1/5)
    assert s["geomean_deployable"] == pytest.approx(1.0)
    s2 = scoring.summarize([task("correct", 4.0), task("timeout")])
    assert s2["geomean_correct"] == pytest.approx(4.0)
    assert s2["geomean_deployable"] == pytest.approx(math.sqrt(4.0))


def test_empty_board():
    s = scoring.summarize([])
    assert s["correct@1"] == 0.0 and s["geomean_correct"] is None


def test_breakdown_by_level_and_domain_and_json_input():
    b = scoring.breakdown([t.to_json() for t in BOARD])
    assert b["by_level"]["L2"]["correct@1"] == 1.0
    assert b["by_level"]["L1"]["tasks"] == 4
    assert b["by_domain"]["audio"]["correct@1"] == 0.0
    assert b["by_domain"]["vision"]["tasks"] == 4


def test_other_baseline():
    t = TaskResult("w", "cpu-llvm", "correct", speedup={"tvm-default": 2.0, "vendor": 0.25})
    assert scoring.summarize([t], baseline="vendor")["fast@1.0"] == 0.0
    assert scoring.summarize([t])["fast@1.0"] == 1.0
