"""The timing statistics: paired speedups cancel load that drifts between rounds, the median's
interval, and the check of the step's own clock against the parent's. The timing loop itself is
exercised through real kernel processes (tests/evaluator/test_pipeline.py, tests/evaluator/test_hostile.py)."""

import statistics
from dataclasses import dataclass

import numpy as np
import pytest

from evaluator.harness.protocol import Protocol
from evaluator.harness.timing import (
    PLACEMENT_UNCERTAINTY,
    SLOT_COPY_ELEMENTS,
    InputPool,
    clock_agreement,
    median_ci,
    min_rounds,
    paired_ratios,
    settled,
)


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


def test_the_median_interval_holds_the_median_and_narrows_with_rounds():
    import random

    rnd = random.Random(1)
    few = [1.0 + rnd.gauss(0, 0.05) for _ in range(20)]
    many = [1.0 + rnd.gauss(0, 0.05) for _ in range(400)]
    lo, hi = median_ci(few)
    assert lo <= statistics.median(few) <= hi
    lo2, hi2 = median_ci(many)
    assert lo2 <= statistics.median(many) <= hi2
    assert hi2 - lo2 < (hi - lo) / 2
    assert lo2 < 1.0 < hi2  # a tie: the true ratio is 1


def test_paired_ratios_carry_the_interval():
    r = paired_ratios({"candidate": [1e-3] * 30, "tvm-default": [2e-3 + 1e-5 * (i % 5) for i in range(30)]})
    lo, hi = r["tvm-default"]["rounds_ci"]
    assert 2.0 <= lo <= r["tvm-default"]["median"] <= hi <= 2.04
    # the reported interval adds what differs between two processes of the same code
    wide = r["tvm-default"]["ci"]
    assert wide == pytest.approx([lo / (1 + PLACEMENT_UNCERTAINTY), hi * (1 + PLACEMENT_UNCERTAINTY)])


def test_a_step_clock_that_runs_slow_or_ahead_disagrees():
    honest = [(5e-3, 4.9e-3)] * 40
    assert not clock_agreement(honest, 5e-5)["suspect"]
    slow = [(5e-3, 5e-3 / 40)] * 40  # a patched perf_counter reading 40x slow
    assert clock_agreement(slow, 5e-5)["suspect"]
    ahead = [(5e-3, 9e-3)] * 40  # claims more time than elapsed
    assert clock_agreement(ahead, 5e-5)["suspect"]
    tiny = [(1e-4, 1e-6)] * 40  # samples near the round trip say nothing either way
    assert not clock_agreement(tiny, 5e-5)["suspect"]


def _rounds(ratio: float, spread: float, n: int = 60, seed: int = 3) -> dict[str, list[float]]:
    """``n`` paired rounds: the baseline ``ratio`` times slower than the candidate, each
    round's ratio off by up to ``spread`` either way."""
    import random

    rnd = random.Random(seed)
    cand = [1e-3] * n
    return {"candidate": cand, "tvm-default": [c * ratio * (1 + rnd.uniform(-spread, spread)) for c in cand]}


def test_a_decided_speedup_settles_and_a_wide_one_does_not():
    proto = Protocol()
    assert settled(_rounds(3.0, 0.02), proto)  # no threshold near 3x
    assert not settled(_rounds(3.0, 0.6), proto)  # interval wider than settle_half_width


def test_a_tie_settles_at_the_tie_budget_once_its_interval_is_tight():
    proto = Protocol()
    tie = _rounds(1.0, 0.15)  # a threshold (1.0) inside, interval wider than the placement's
    lo, hi = paired_ratios(tie)["tvm-default"]["rounds_ci"]
    assert (hi - lo) / 2 > PLACEMENT_UNCERTAINTY
    assert not settled(tie, proto, elapsed_s=proto.tie_budget_s / 2)
    assert settled(tie, proto, elapsed_s=proto.tie_budget_s)
    # the budget never lets a loose interval through
    assert not settled(_rounds(1.0, 0.8), proto, elapsed_s=proto.time_budget_s)


def test_the_vendor_figure_settles_once_tight_whatever_threshold_is_inside():
    proto = Protocol()
    # the vendor call about as fast as tvm-default: 1.0 inside, not yet the tie budget
    figure = {"tvm-default": _rounds(1.0, 0.15)["candidate"], "vendor": _rounds(1.0, 0.15)["tvm-default"]}
    assert not settled({"candidate": figure["tvm-default"], "tvm-default": figure["vendor"]}, proto, elapsed_s=0.1)
    assert settled(figure, proto, elapsed_s=0.1, against="tvm-default")
    loose = {"tvm-default": _rounds(1.0, 0.8)["candidate"], "vendor": _rounds(1.0, 0.8)["tvm-default"]}
    assert not settled(loose, proto, elapsed_s=proto.time_budget_s, against="tvm-default")


def test_slow_kernels_need_only_the_rounds_that_span_the_minimum():
    proto = Protocol()
    assert proto.min_span_s == 0.5
    # fast kernels (5 ms samples): 30 rounds are 0.15 s of baseline, under the span: all 30
    assert min_rounds(proto, {"candidate": 5e-3, "tvm-default": 5e-3}) == proto.min_rounds
    # a 200 ms baseline: 3 rounds would span half a second; never under min_rounds_slow (5)
    assert min_rounds(proto, {"candidate": 0.2, "tvm-default": 0.2}) == proto.min_rounds_slow
    # the rounds that fill the span at the baseline's pace alone: a 50 ms baseline, 10
    assert min_rounds(proto, {"candidate": 0.02, "tvm-default": 0.05}) == 10
    assert min_rounds(Protocol(min_span_s=1.0), {"candidate": 0.02, "tvm-default": 0.05}) == 20
    # never under min_rounds_slow, never over min_rounds
    assert min_rounds(proto, {"candidate": 9.0, "tvm-default": 9.0}) == proto.min_rounds_slow
    assert min_rounds(Protocol(min_rounds=3), {"candidate": 1.0, "tvm-default": 1.0}) == 3


def test_a_candidate_slow_while_calibrated_does_not_buy_fewer_rounds():
    proto = Protocol()
    # the pace is the baselines': a candidate that made itself look like a 1 s kernel while
    # calibrated still gets the rounds its fast baseline needs
    assert min_rounds(proto, {"candidate": 1.0, "tvm-default": 5e-3}) == proto.min_rounds
    assert min_rounds(proto, {"candidate": 1.0, "tvm-default": 5e-3, "vendor": 5e-3}) == proto.min_rounds
    # timed alone, its own pace is all there is
    assert min_rounds(proto, {"candidate": 0.5}) == proto.min_rounds_slow


@dataclass(frozen=True)
class _Tensor:
    shape: tuple
    init: str = "uniform"


@pytest.mark.parametrize("shape", [(8,), (SLOT_COPY_ELEMENTS - 1,), (SLOT_COPY_ELEMENTS,), (64, 128)])
def test_each_slot_gets_the_pool_window_at_its_offset(shape):
    """Both ways of filling a batch's slots (a gather for small tensors, a copy per slot for large
    ones) put the window at each slot's offset into that slot, through the arena's strided view."""
    pool = InputPool([_Tensor(shape)], lambda t, rng: rng.random(t.shape).astype(np.float32),
                     np.random.default_rng(3))
    n, size = 9, int(np.prod(shape))
    gap = size * 4 + 64  # slots are not packed back to back in the arena
    buf = np.zeros(gap * n, np.uint8)
    views = np.ndarray((n, *shape), np.float32, buffer=buf, strides=(gap, *np.empty(shape, np.float32).strides))
    offsets = pool.draw_offsets(n)[0]
    pool.fill_slots(0, views, offsets)
    for s, o in enumerate(offsets):
        assert np.array_equal(views[s], pool.pools[0][o:o + size].reshape(shape))
