"""The harness's timing loop: warm-up, calibrated batches, interleaved rounds, early stop.

Candidate and baselines are timed in the same process, round-robin with a rotating order, so a
burst of machine noise hits all of them alike. Speedups are paired: each round gives one
baseline/candidate ratio from samples taken back to back, and the reported speedup is the median
of those ratios, so load that drifts between rounds cancels instead of widening the spread. The
loop stops when every ratio's (or, with no candidate, every kernel's) relative standard error is
under the target or the budget is spent.
"""

from __future__ import annotations

import statistics
import time
from typing import Any, Callable


def _vendor_timer(fn: Callable, arrays: list, number: int) -> Callable[[], float]:
    def run() -> float:
        t0 = time.perf_counter()
        for _ in range(number):
            fn(*arrays)
        return (time.perf_counter() - t0) / number

    return run


def _calibrate(make: Callable[[int], Callable[[], float]], proto: dict) -> tuple[int, Callable[[], float]]:
    number = 1
    while True:
        timer = make(number)
        per_call = timer()
        if per_call * number >= proto["min_sample_s"] or number >= proto["max_number"]:
            return number, timer
        want = proto["min_sample_s"] / max(per_call, 1e-9)
        number = min(proto["max_number"], max(number * 2, int(want * 1.2) + 1))


def _stats(samples: list[float], number: int) -> dict:
    s = sorted(samples)
    n = len(s)
    q = statistics.quantiles(s, n=4) if n > 1 else [s[0]] * 3
    return {"median_s": statistics.median(s), "p25_s": q[0], "p75_s": q[2], "min_s": s[0],
            "rse": _rse(s), "rounds": n, "number": number}


def _rse(values: list[float]) -> float:
    n = len(values)
    mean = statistics.fmean(values)
    return statistics.stdev(values) / n**0.5 / mean if n > 1 and mean > 0 else float("inf")


def paired_ratios(samples: dict[str, list[float]], against: str = "candidate") -> dict[str, dict]:
    """Per-round ratio of every other kernel's time to ``against``'s: median, quartiles, rse."""
    out = {}
    for name, times in samples.items():
        if name == against or against not in samples:
            continue
        r = sorted(t / c for t, c in zip(times, samples[against]) if c > 0)
        if not r:
            continue
        q = statistics.quantiles(r, n=4) if len(r) > 1 else [r[0]] * 3
        out[name] = {"median": statistics.median(r), "p25": q[0], "p75": q[2], "rse": _rse(r),
                     "rounds": len(r)}
    return out


def interleaved(calls: dict[str, tuple[Any, list, list]], vendor: Callable | None,
                vendor_arrays: list, proto: dict,
                vendor_timer: Callable[[int], Callable[[], float]] | None = None) -> dict:
    """Time every kernel; returns per-kernel statistics and the loop's host wall time.

    The vendor call is ``vendor(*vendor_arrays)`` on the host clock, or ``vendor_timer`` (a
    backend's own: ``vendor_timer(number)`` makes a timer, as ``Kernel.timer`` does)."""
    makers: dict[str, Callable[[int], Callable[[], float]]] = {
        name: (lambda n, k=k, i=i, o=o: k.timer(i, o, n)) for name, (k, i, o) in calls.items()
    }
    if vendor_timer is not None:
        makers["vendor"] = vendor_timer
    elif vendor is not None:
        makers["vendor"] = lambda n: _vendor_timer(vendor, vendor_arrays, n)
    timers, numbers = {}, {}
    for name, make in makers.items():
        deadline = time.perf_counter() + proto["warmup_s"]
        make(1)()
        while time.perf_counter() < deadline:
            make(1)()
        numbers[name], timers[name] = _calibrate(make, proto)
    names = list(timers)
    samples: dict[str, list[float]] = {n: [] for n in names}
    start = time.perf_counter()
    measured = {n: 0.0 for n in names}
    rounds = 0
    while rounds < proto["max_rounds"]:
        order = names[rounds % len(names):] + names[: rounds % len(names)]
        for name in order:
            t = timers[name]()
            samples[name].append(t)
            measured[name] += t * numbers[name]
        rounds += 1
        if (rounds >= proto.get("min_rounds_slow", proto["min_rounds"])
                and time.perf_counter() - start > proto.get("max_timing_s", float("inf"))):
            break
        if rounds >= proto["min_rounds"]:
            # what is reported is the speedup, so its precision is what decides
            ratios = paired_ratios(samples)
            spread = [v["rse"] for v in ratios.values()] or [_rse(samples[n]) for n in names]
            done = all(x < proto["rse_target"] for x in spread)
            if done or time.perf_counter() - start > proto["time_budget_s"]:
                break
    wall = time.perf_counter() - start
    return {
        "times": {n: _stats(samples[n], numbers[n]) for n in names},
        "ratios": paired_ratios(samples),
        "wall_s": wall,
        "measured_s": sum(measured.values()),
        "single_call_s": single_calls(calls, proto),
    }


def single_calls(calls: dict[str, tuple[Any, list, list]], proto: dict, count: int = 5) -> dict[str, float]:
    """Median time of one call with freshly poisoned outputs, per TVM kernel.

    Batched timing calls a kernel many times on the same buffers; a kernel that notices its
    output is already there could skip the work. One call on poisoned outputs cannot: the
    parent compares the ratio batched/single with the baseline's, and checks the outputs of the
    last poisoned call.
    """
    import numpy as np

    out: dict[str, float] = {}
    # the candidate goes last: the buffers then hold its outputs, which the parent re-checks
    for name in sorted(calls, key=lambda n: n == "candidate"):
        kernel, ins, outs = calls[name]
        times = []
        for _ in range(count):
            for o in outs:
                dt = np.dtype(o.dtype)
                fill = np.nan if np.issubdtype(dt, np.floating) else np.iinfo(dt).min
                o.copyfrom(np.full(tuple(o.shape), fill, dt))
            # host clock around one direct call: the runtime's evaluator would first make an
            # untimed warm-up call, which is exactly the call that would do the work
            t0 = time.perf_counter()
            kernel(ins, outs)
            times.append(time.perf_counter() - t0)
        out[name] = statistics.median(times)
    return out
