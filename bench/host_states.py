"""How steady is this machine's speed? The noise floor under every speedup the portal measures.

    .venv/bin/python bench/host_states.py [--seconds 60] [--window 2.0] [--copy-mib 32] [--out SUFFIX]

Pinned to each CPU in turn, times two fixed probes back to back for ``--seconds``: a
compute-bound one (a 192x192 float32 matrix product, one thread) and a memory-bound one (a
copy of ``--copy-mib`` MiB: 32 is past the last-level cache here, 4 inside it). Reports, per
CPU, the probes' medians and how often each reads in its slow state (over 1.2x its 10th
percentile); and, over windows of ``--window`` seconds (one task's timing budget), how far the
paired ratio compute/memory moves from window to window (max/min over windows), against the
same for a probe paired with itself, and how often the memory probe's window reads over 1.1x
its quietest one (spells of the other tenants' memory traffic). Nothing else should run.

A ratio of two different kernels moves when the host's contention slows one kind of work more
than the other; a kernel against itself does not. Writes ``bench/results/host_states-<date>.json``
and ``.md`` (date, machine, command).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread, as every timed kernel here

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MAX_SECONDS = 600.0


def probes(copy_mib: int):
    a = np.random.default_rng(0).standard_normal((192, 192), dtype=np.float32)
    src = np.ones(copy_mib << 18, dtype=np.float32)
    dst = np.empty_like(src)

    def compute() -> float:
        t = time.perf_counter()
        for _ in range(4):
            a @ a
        return time.perf_counter() - t

    def memory() -> float:
        t = time.perf_counter()
        np.copyto(dst, src)
        return time.perf_counter() - t

    return compute, memory


def sample(seconds: float, copy_mib: int) -> dict[int, list[tuple[float, float, float, float]]]:
    """Per CPU: (when, compute s, memory s, compute s again), pinned to that CPU in turn."""
    cpus = sorted(os.sched_getaffinity(0))
    compute, memory = probes(copy_mib)
    out: dict[int, list] = {c: [] for c in cpus}
    start = time.perf_counter()
    try:
        while time.perf_counter() - start < seconds:
            for c in cpus:
                os.sched_setaffinity(0, {c})
                compute()  # warm on this CPU
                out[c].append((time.perf_counter() - start, compute(), memory(), compute()))
    finally:
        os.sched_setaffinity(0, set(cpus))
    return out


def summarise(rows: list[tuple[float, float, float, float]], window: float) -> dict:
    arr = np.array(rows)
    when, comp, mem, comp2 = arr.T
    slow = lambda v: float(np.mean(v > 1.2 * np.quantile(v, 0.1)))  # noqa: E731
    state = comp > 1.2 * np.quantile(comp, 0.1)
    windows = np.floor(when / window).astype(int)
    pair, self_pair, mem_w = [], [], []
    for w in np.unique(windows):
        sel = windows == w
        if sel.sum() >= 5:
            mem_w.append(float(np.median(mem[sel])))
            pair.append(float(np.median(comp[sel] / mem[sel])))
            self_pair.append(float(np.median(comp[sel] / comp2[sel])))
    return {
        "samples": len(rows),
        "compute_median_ms": float(np.median(comp) * 1e3),
        "memory_median_ms": float(np.median(mem) * 1e3),
        "compute_slow_fraction": slow(comp),
        "memory_slow_fraction": slow(mem),
        "compute_state_persists": float(np.mean(state[1:] == state[:-1])) if len(state) > 1 else None,
        "windows": len(pair),
        "compute_over_memory_spread": max(pair) / min(pair) if pair else None,
        # the memory probe's windows over its quietest: spells of other tenants' memory traffic
        "memory_windows_over_1_1": float(np.mean(np.array(mem_w) > 1.1 * min(mem_w))) if mem_w else None,
        "memory_window_spread": max(mem_w) / min(mem_w) if mem_w else None,
        "compute_over_itself_spread": max(self_pair) / min(self_pair) if self_pair else None,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--window", type=float, default=2.0)
    ap.add_argument("--copy-mib", type=int, default=32, help="the memory probe's copy, in MiB (1-256)")
    ap.add_argument("--out", default="", help="a suffix for the report's name, e.g. -4mib")
    args = ap.parse_args()
    if not 0 < args.seconds <= MAX_SECONDS or not 0 < args.window <= args.seconds:
        ap.error(f"--seconds must be in (0, {MAX_SECONDS:g}] and --window in (0, --seconds]")
    if not 1 <= args.copy_mib <= 256:
        ap.error("--copy-mib must be in [1, 256]")
    if args.out and not all(ch.isalnum() or ch in "-_." for ch in args.out):
        ap.error("--out: letters, digits, '-', '_' and '.' only")
    with open("/proc/stat") as f:
        steal0 = [int(x) for x in f.readline().split()[1:]]
    per_cpu = {c: summarise(rows, args.window) for c, rows in sample(args.seconds, args.copy_mib).items()}
    with open("/proc/stat") as f:
        steal1 = [int(x) for x in f.readline().split()[1:]]
    delta = [b - a for a, b in zip(steal0, steal1)]
    stamp = time.strftime("%Y-%m-%d", time.gmtime())
    result = {
        "benchmark": "host_states", "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "command": "python bench/host_states.py " + " ".join(sys.argv[1:]),
        "machine": {"platform": platform.platform(), "cpus": len(per_cpu)},
        "steal_fraction": delta[7] / max(1, sum(delta)) if len(delta) > 7 else None,
        "per_cpu": per_cpu,
    }
    out = ROOT / "bench" / "results" / f"host_states-{stamp}{args.out}.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    lines = [f"# host_states — {result['date']}", "",
             f"Command: `{result['command']}`  ", f"Machine: {result['machine']['platform']}, "
             f"{len(per_cpu)} CPUs; hypervisor steal over the run: {result['steal_fraction']:.1%}", "",
             f"Windows of {args.window:g} s (one task's timing budget); the memory probe copies "
             f"{args.copy_mib} MiB.", "",
             "| cpu | samples | compute ms | memory ms | compute slow | memory slow | state persists | "
             "compute/memory spread | compute/itself spread | memory windows > 1.1x | memory window spread |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for c, s in per_cpu.items():
        lines.append(f"| {c} | {s['samples']} | {s['compute_median_ms']:.2f} | {s['memory_median_ms']:.2f} | "
                     f"{s['compute_slow_fraction']:.0%} | {s['memory_slow_fraction']:.0%} | "
                     f"{s['compute_state_persists']:.0%} | {s['compute_over_memory_spread']:.3f} | "
                     f"{s['compute_over_itself_spread']:.3f} | {s['memory_windows_over_1_1']:.0%} | "
                     f"{s['memory_window_spread']:.3f} |")
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
