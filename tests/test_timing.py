"""The timing loop: paired speedups cancel load that drifts between rounds; slow kernels fit its cap."""

import statistics
import time

from evaluator.harness.protocol import Protocol
from evaluator.harness.timing import interleaved, paired_ratios


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


class _Sleeper:
    """A kernel that takes ``seconds`` per call, with jitter so the spread never looks settled."""

    def __init__(self, seconds: float):
        self.seconds, self.calls = seconds, 0

    def __call__(self, ins, outs):
        self.calls += 1
        time.sleep(self.seconds * (1 + 0.3 * (self.calls % 3)))
        return outs

    def timer(self, ins, outs, number):
        def run():
            t0 = time.perf_counter()
            for _ in range(number):
                self(ins, outs)
            return (time.perf_counter() - t0) / number
        return run


def _proto(**over):
    return {**Protocol(warmup_s=0.0, min_sample_s=1e-3).to_json(), **over}


def test_slow_kernels_stop_after_the_slow_floor_of_rounds_within_the_timing_cap():
    calls = {"candidate": (_Sleeper(0.03), [], []), "tvm-default": (_Sleeper(0.03), [], [])}
    t0 = time.perf_counter()
    report = interleaved(calls, None, [], _proto(max_timing_s=0.3, min_rounds_slow=5))
    assert report["times"]["candidate"]["rounds"] == 5  # not the 30 fast kernels get
    assert time.perf_counter() - t0 < 3


def test_without_the_cap_the_minimum_rounds_hold():
    calls = {"candidate": (_Sleeper(0.002), [], []), "tvm-default": (_Sleeper(0.002), [], [])}
    report = interleaved(calls, None, [], _proto(max_timing_s=60.0))
    assert report["times"]["candidate"]["rounds"] >= 30
