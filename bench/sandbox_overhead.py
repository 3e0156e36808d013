"""Overhead of the sandbox per evaluation step, on a trivial kernel.

    .venv/bin/python bench/sandbox_overhead.py [--repeats 10]

Evaluates the tvm-default schedule of ``activation/relu@m128n768`` alternately with the sandbox
and without it (the same pipeline, ``EKB_UNSAFE_LOCAL=1`` for the bare runs), and reports the
median seconds of each step (build, check; the timing step has a fixed budget and is left out)
and the sandbox's overhead per step. Writes ``bench/results/sandbox_overhead-<date>.{json,md}``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

from evaluator import suite
from evaluator.baselines.tvm_default import default_document
from evaluator.harness.protocol import Protocol
from evaluator.pipeline import Candidate, Pipeline, machine
from evaluator.sandbox import Sandbox

ROOT = Path(__file__).resolve().parents[1]
os.environ["EKB_UNSAFE_LOCAL"] = "1"  # only for the bare comparison runs of our own schedule

WORKLOAD = "activation/relu@m128n768"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=10)
    args = ap.parse_args()
    w = suite.get_workload(WORKLOAD)
    cand = Candidate("layered-trace", json.dumps(default_document(w.canonical_module())))
    proto = Protocol(time_budget_s=0.2, min_rounds=3)
    pipes = {"sandboxed": Pipeline("cpu-llvm", proto, sandbox=Sandbox()),
             "bare": Pipeline("cpu-llvm", proto, sandbox=None)}
    steps = {name: {"build": [], "check": []} for name in pipes}
    for name, pipe in pipes.items():  # warm the baseline cache and the page cache
        pipe.evaluate(w, cand)
    for _ in range(args.repeats):
        for name, pipe in pipes.items():  # interleaved, so drift hits both alike
            r = pipe.evaluate(w, cand)
            assert r.status == "correct", r.reason
            for s in ("build", "check"):
                steps[name][s].append(r.steps_s[s])
    med = {n: {s: statistics.median(v) for s, v in d.items()} for n, d in steps.items()}
    overhead = {s: med["sandboxed"][s] - med["bare"][s] for s in ("build", "check")}
    result = {"benchmark": "sandbox_overhead", "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
              "command": "python bench/sandbox_overhead.py " + " ".join(sys.argv[1:]),
              "machine": machine(), "workload": WORKLOAD, "repeats": args.repeats,
              "median_step_s": med, "overhead_per_step_s": overhead, "samples": steps}
    out = ROOT / "bench" / "results" / f"sandbox_overhead-{time.strftime('%Y-%m-%d')}.json"
    out.write_text(json.dumps(result, indent=1))
    md = [f"# sandbox_overhead — {result['date']}", "", f"Command: `{result['command']}`  ",
          f"Machine: {result['machine']['platform']}  ",
          f"Workload: {WORKLOAD}, {args.repeats} interleaved repeats", "",
          "| step | sandboxed s | bare s | overhead ms | ratio |", "|---|---|---|---|---|"]
    for s in ("build", "check"):
        md.append(f"| {s} | {med['sandboxed'][s]:.3f} | {med['bare'][s]:.3f} | {overhead[s] * 1e3:.0f} | "
                  f"{med['sandboxed'][s] / med['bare'][s]:.2f} |")
    out.with_suffix(".md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
