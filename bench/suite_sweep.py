"""The whole task suite through the real pipeline with ``tvm-default`` on cpu-llvm (or opencl).

    .venv/bin/python bench/suite_sweep.py [--backend cpu-llvm|opencl] [--sample N] [--tasks GLOB ...] [--public-only]
                                          [--time-budget S] [--unsafe-local]

Every workload — public and hidden — is submitted as a ``layered-trace`` entry holding the rule
set's own schedule (what ``examples/bundles/tvm-default`` holds for the public ones) and evaluated
exactly as a submission is: sandboxed build, correctness on the protocol's input sets, interleaved
timing against the tvm-default baseline and the vendor call. Correct@1 must be 1.0; every task
that is not correct is listed with its reason.

Writes ``bench/results/suite_sweep-<date>.json`` and ``.md``: date, machine, command, wall time,
per-workload evaluation seconds and median kernel times, and the failures. ``--sample N`` runs the
deterministic representative sample of ``evaluator.suite.sample`` and projects the full sweep's
wall time from it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaluator import records, suite  # noqa: E402
from evaluator.examples import default_entry  # noqa: E402
from evaluator.formats.bundle import Bundle, Entry  # noqa: E402
from evaluator.harness.protocol import Protocol  # noqa: E402
from evaluator.pipeline import evaluate_bundle  # noqa: E402


def rule_set_bundle(workloads, backend: str = "cpu-llvm") -> Bundle:
    """The backend's tvm-default as an in-memory bundle, one entry per workload (hidden ones
    included): what ``examples/bundles/tvm-default`` holds for the public ones."""
    entries = []
    for i, w in enumerate(workloads, 1):
        fmt, name, text = default_entry(w, backend)
        entries.append(Entry(i, w.id, backend, fmt, name, text, None))
    entries = tuple(entries)
    return Bundle("tvm-default (suite sweep)", "the tvm-default rule set for every workload", entries, "-")


def _ms(timing: dict | None) -> float | None:
    return None if not timing else timing["median_s"] * 1e3


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, help="only the deterministic representative sample of this size")
    ap.add_argument("--tasks", action="append", metavar="GLOB", help="only workloads matching these globs")
    ap.add_argument("--public-only", action="store_true", help="leave the hidden workloads out")
    ap.add_argument("--backend", default="cpu-llvm", choices=("cpu-llvm", "opencl"),
                    help="the backend whose tvm-default is swept (opencl: dlight on the OpenCL device here)")
    ap.add_argument("--time-budget", type=float, help="timing budget per task in seconds (protocol default 2)")
    ap.add_argument("--unsafe-local", action="store_true",
                    help="run without the sandbox where the machine has none (the rule set is trusted code)")
    args = ap.parse_args()
    if args.unsafe_local:
        import os

        from evaluator.sandbox import UNSAFE_ENV
        os.environ[UNSAFE_ENV] = "1"

    include_hidden = not args.public_only
    every = suite.workloads(include_hidden)
    if args.sample:
        chosen = suite.sample(args.sample, include_hidden)
    else:
        chosen = suite.select(args.tasks, include_hidden)
    if not chosen:
        print("no workloads selected", file=sys.stderr)
        return 2
    protocol = Protocol() if args.time_budget is None else Protocol(time_budget_s=args.time_budget)
    started = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    t0 = time.perf_counter()
    bundle = rule_set_bundle(chosen, args.backend)
    bundle_s = time.perf_counter() - t0
    done = [0]

    def progress(wid, result):
        if result is not None:
            done[0] += 1
            mark = "" if result.status == records.CORRECT else f"  {result.status}: {result.reason[:100]}"
            print(f"[{done[0]}/{len(chosen)}] {wid} {time.perf_counter() - t0:.0f}s{mark}", file=sys.stderr, flush=True)

    report = evaluate_bundle(bundle, args.backend, globs=[w.id for w in chosen], include_hidden=include_hidden,
                             protocol=protocol, progress=progress)
    wall = time.perf_counter() - t0

    rows = {}
    for t in report["tasks"]:
        steps = t.get("steps_s", {})
        rows[t["workload"]] = {
            "status": t["status"], "reason": t["reason"], "level": t["level"], "hidden": t["hidden"],
            "eval_s": round(sum(steps.values()), 3), "steps_s": {k: round(v, 3) for k, v in steps.items()},
            "median_ms": {k: _ms(v) for k, v in t["times"].items()},
            "speedup_vs_tvm_default": t["speedup"].get("tvm-default"),
            "roofline_fraction": t["roofline_fraction"],
        }
    failed = {w: {"status": r["status"], "reason": r["reason"]} for w, r in rows.items() if r["status"] != records.CORRECT}
    eval_s = [r["eval_s"] for r in rows.values()]
    per_task = wall / len(chosen)
    result = {
        "benchmark": "suite_sweep",
        "date": started,
        "command": "python bench/suite_sweep.py " + " ".join(sys.argv[1:]),
        "machine": {**report["machine"], "backend": report["backend_info"],
                    "cores": report["backend_info"]["target"].get("num-cores")},
        "sandbox": report["sandbox"],
        "protocol": report["protocol"],
        "tvm": report["tvm"],
        "selection": {"sample": args.sample, "tasks": args.tasks, "include_hidden": include_hidden,
                      "workloads": len(chosen), "of": len(every)},
        "wall_s": round(wall, 1),
        "rule_set_documents_s": round(bundle_s, 1),
        "median_eval_s_per_workload": statistics.median(eval_s),
        "projected_full_sweep_s": round(per_task * len(every), 0),
        "correct@1": report["summary"]["correct@1"],
        "summary": report["summary"],
        "not_correct": failed,
        "workloads": rows,
    }
    stamp = time.strftime("%Y-%m-%d")
    tag = ("" if args.backend == "cpu-llvm" else f"-{args.backend}") + ("-sample" if args.sample or args.tasks else "")
    out = ROOT / "bench" / "results" / f"suite_sweep-{stamp}{tag}.json"
    out.write_text(json.dumps(result, indent=1))
    out.with_suffix(".md").write_text(_markdown(result))
    print(out.with_suffix(".md").read_text())
    return 0 if not failed else 1


def _markdown(r: dict) -> str:
    sel = r["selection"]
    what = (f"sample of {sel['workloads']}" if sel["sample"] else f"{sel['workloads']} workloads") + \
        f" of {sel['of']} ({'public and hidden' if sel['include_hidden'] else 'public'})"
    md = [f"# suite_sweep — {r['date']}", "",
          f"Command: `{r['command']}`  ",
          f"Machine: {r['machine']['platform']}, {r['machine']['backend']['device']}, target "
          f"{r['machine']['backend']['arch']}; TVM {r['tvm']}; sandbox {'on' if r['sandbox'] else 'off'}  ",
          f"Selection: {what}", "",
          "| workloads | Correct@1 | wall time | median evaluation s / workload | projected full sweep |",
          "|---|---|---|---|---|",
          f"| {sel['workloads']} | {r['correct@1']:.3f} | {r['wall_s'] / 60:.1f} min | {r['median_eval_s_per_workload']:.2f} "
          f"| {r['projected_full_sweep_s'] / 60:.0f} min for {sel['of']} |", ""]
    md += ["## Not correct", ""]
    md += [f"- `{w}`: {f['status']} — {f['reason']}" for w, f in sorted(r["not_correct"].items())] or ["none"]
    md += ["", "## Per workload (median kernel times, ms)", "",
           "| workload | level | status | eval s | tvm-default ms | vendor ms | speedup (same kernel: ≈ 1) |", "|---|---|---|---|---|---|---|"]
    for w, row in sorted(r["workloads"].items()):
        m = row["median_ms"]
        fmt = lambda x: "–" if x is None else f"{x:.4g}"  # noqa: E731
        md.append(f"| {w}{' (hidden)' if row['hidden'] else ''} | {row['level']} | {row['status']} | {row['eval_s']:.2f} | "
                  f"{fmt(m.get('tvm-default'))} | {fmt(m.get('vendor'))} | {fmt(row['speedup_vs_tvm_default'])} |")
    return "\n".join(md) + "\n"


if __name__ == "__main__":
    sys.exit(main())
