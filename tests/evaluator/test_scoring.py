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


# ----------------------------------------------------------------------------- significant Fast@p


def ci_task(status, speedup, ci=None, baseline="tvm-default"):
    return TaskResult("w", "cpu-llvm", status, speedup={baseline: speedup},
                      speedup_ci={baseline: list(ci)} if ci else {})


# A tie within noise (1.02 with a CI straddling 1.0), a clear win, one without an interval, a
# wrong result and suspect/hacked results whose (unreliable) intervals are far above every p.
CI_BOARD = [ci_task("correct", 1.02, (0.97, 1.07)), ci_task("correct", 1.6, (1.52, 1.71)),
            ci_task("correct", 1.3), ci_task("wrong_result", 3.0, (2.9, 3.1)),
            ci_task("suspect", 3.0, (2.9, 3.1)), ci_task("hacked", 4.0, (3.9, 4.1))]


def test_a_tie_within_noise_is_fast_but_not_significantly_fast():
    s = scoring.summarize([ci_task("correct", 1.02, (0.97, 1.07))])
    assert s["fast@1.0"] == 1.0
    assert s["fast_sig@1.0"] == 0.0
    assert s["fast_sig@0.8"] == 1.0  # 0.97 ≥ 0.8
    assert s["ties@1.0"] == 1.0


def test_significant_fast_p_uses_the_lower_bound_and_needs_an_interval():
    s = scoring.summarize(CI_BOARD)
    assert s["tasks"] == 6 and s["correct"] == 3
    assert s["fast@1.0"] == pytest.approx(3 / 6) and s["fast@1.5"] == pytest.approx(1 / 6)
    # 1.02 [0.97, 1.07] is a tie, 1.6 [1.52, 1.71] is significant up to 1.5, 1.3 has no interval
    assert [s[f"fast_sig@{p}"] for p in scoring.FAST_P] == pytest.approx([2 / 6, 2 / 6, 1 / 6, 1 / 6, 0.0])
    assert s["ties@1.0"] == pytest.approx(1 / 6)
    # never more significant than plain Fast@p
    assert all(s[f"fast_sig@{p}"] <= s[f"fast@{p}"] for p in scoring.FAST_P)


def test_suspect_and_hacked_are_not_correct():
    for status in ("suspect", "hacked"):
        s = scoring.summarize([ci_task(status, 3.0, (2.9, 3.1)), ci_task("correct", 1.0, (0.9, 1.1))])
        assert s["correct"] == 1 and s["correct@1"] == 0.5, status
        assert s["fast@2.0"] == 0.0 and s["fast_sig@2.0"] == 0.0 and s["ties@1.0"] == 0.5, status
        assert s["geomean_correct"] == pytest.approx(1.0)  # the suspect 3x is not in it
        assert s["geomean_deployable"] == pytest.approx(1.0)  # it falls back to the baseline


def test_intervals_from_json_match_the_objects_and_tolerate_old_records():
    assert scoring.summarize([t.to_json() for t in CI_BOARD]) == scoring.summarize(CI_BOARD)
    old = ci_task("correct", 1.6, (1.52, 1.71)).to_json()
    old.pop("speedup_ci")  # stored before intervals existed
    none = dict(old, speedup_ci=None)  # what a JSON key lookup on such a row returns
    broken = dict(old, speedup_ci={"tvm-default": [1.5]})
    for rec in (old, none, broken):
        s = scoring.summarize([rec])
        assert s["fast@1.5"] == 1.0 and s["fast_sig@1.5"] == 0.0 and s["ties@1.0"] == 0.0


def test_significant_fast_p_is_per_baseline():
    t = TaskResult("w", "cpu-llvm", "correct", speedup={"tvm-default": 2.0, "vendor": 1.01},
                   speedup_ci={"tvm-default": [1.9, 2.1], "vendor": [0.96, 1.05]})
    assert scoring.summarize([t])["fast_sig@2.0"] == 0.0 and scoring.summarize([t])["fast_sig@1.5"] == 1.0
    v = scoring.summarize([t], baseline="vendor")
    assert v["fast@1.0"] == 1.0 and v["fast_sig@1.0"] == 0.0 and v["ties@1.0"] == 1.0
    assert scoring.summarize([t], baseline="tvm-tuned")["fast_sig@0.5"] == 0.0  # no interval for it


def test_breakdown_carries_significant_fast_p_per_level():
    tasks = [TaskResult("a", "cpu-llvm", "correct", speedup={"tvm-default": 1.5},
                        speedup_ci={"tvm-default": [1.2, 1.8]}, level="L1"),
             TaskResult("b", "cpu-llvm", "correct", speedup={"tvm-default": 1.5},
                        speedup_ci={"tvm-default": [0.9, 2.0]}, level="L2")]
    b = scoring.breakdown(tasks)
    assert b["fast_sig@1.0"] == 0.5
    assert b["by_level"]["L1"]["fast_sig@1.0"] == 1.0 and b["by_level"]["L2"]["fast_sig@1.0"] == 0.0
    assert b["by_level"]["L2"]["ties@1.0"] == 1.0
