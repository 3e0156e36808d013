"""The harness's timing loop: warm-up, calibrated batches, interleaved rounds, early stop.

Candidate and baselines are timed in the same process, round-robin with a rotating order, so a
burst of machine noise hits all of them alike and the ratio stays stable even when absolute
times drift. The loop stops when every kernel's relative standard error is under the target or
the budget is spent.
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
    mean = statistics.fmean(s)
    rse = (statistics.stdev(s) / n**0.5 / mean) if n > 1 and mean > 0 else float("inf")
    q = statistics.quantiles(s, n=4) if n > 1 else [s[0]] * 3
    return {"median_s": statistics.median(s), "p25_s": q[0], "p75_s": q[2], "min_s": s[0],
            "rse": rse, "rounds": n, "number": number}


def interleaved(calls: dict[str, tuple[Any, list, list]], vendor: Callable | None,
                vendor_arrays: list, proto: dict) -> dict:
    """Time every kernel; returns per-kernel statistics and the loop's host wall time."""
    makers: dict[str, Callable[[int], Callable[[], float]]] = {
        name: (lambda n, k=k, i=i, o=o: k.timer(i, o, n)) for name, (k, i, o) in calls.items()
    }
    if vendor is not None:
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
        if rounds >= proto["min_rounds"]:
            done = all(_stats(samples[n], 1)["rse"] < proto["rse_target"] for n in names)
            if done or time.perf_counter() - start > proto["time_budget_s"]:
                break
    wall = time.perf_counter() - start
    return {
        "times": {n: _stats(samples[n], numbers[n]) for n in names},
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
    for name, (kernel, ins, outs) in calls.items():
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
