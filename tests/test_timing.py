"""The timing loop's statistics: paired speedups cancel load that drifts between rounds."""

import statistics

from evaluator.harness.timing import paired_ratios


def test_paired_ratio_cancels_drift_between_rounds():
    # the machine slows down by up to 2x across rounds; within a round both kernels see the same load
    load = [1.0 + (i % 7) / 6 for i in range(40)]
    samples = {"candidate": [1e-3 * f for f in load], "tvm-default": [3e-3 * f for f in load]}
    r = paired_ratios(samples)["tvm-default"]
    assert abs(r["median"] - 3.0) < 1e-9
    assert r["rse"] < 1e-9
    # the ratio of medians would be just as right here, but its spread is not
    assert statistics.stdev(samples["candidate"]) / statistics.fmean(samples["candidate"]) > 0.2


def test_paired_ratio_median_ignores_one_disturbed_round():
    cand = [1e-3] * 21
    base = [2e-3] * 21
    base[5] = 20e-3  # a burst hit only the baseline's slot in one round
    r = paired_ratios({"candidate": cand, "tvm-default": base})["tvm-default"]
    assert r["median"] == 2.0 and r["rounds"] == 21


def test_no_candidate_no_ratios():
    assert paired_ratios({"tvm-default": [1e-3, 2e-3]}) == {}
