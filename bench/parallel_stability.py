"""How far a kernel's speedup moves between evaluations in fresh processes, and what changes that.

    .venv/bin/python bench/parallel_stability.py [--processes 4] [--tasks GLOB ...] [--span S]
        [--settings NAME ...] [--against REV] [--bundle NAME] [--out SUFFIX]

Evaluates ``--tasks`` of an example bundle's cpu-llvm entries (by default four of the hand-tuned
bundle's: register-blocked, compute-bound, where tvm-default's loops wait on memory; with
``--bundle tvm-default``, TVM's default build against itself, where every speedup should read 1)
once per fresh process, ``--processes`` times under each setting: as shipped,
``TVM_BIND_THREADS=0`` (no thread pinning) and ``TVM_THREAD_POOL_SPIN_COUNT=0`` (workers sleep at
once; the settings reach the sandboxed steps, ``TVM_*`` being passed through). With ``--against
REV`` (a git revision), that revision's evaluator, as shipped, is one more setting (imported from a
temporary worktree). The processes of every setting take turns, so a slow spell of the machine
falls on all of them. Reports, per workload and setting, the speedups over the processes, their
max/min, and the candidate's median call time per process.

Writes ``bench/results/parallel_stability-<date>.json`` and ``.md`` (date, machine, command).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from eval_throughput import worktree

ROOT = Path(__file__).resolve().parents[1]
TASKS = ["batch-matmul/batch-matmul@b12m128n128k64", "reduction/sum-lastaxis@m512n1024",
         "gemv/gemv@m1024k1024", "matmul/matmul@m128n512k128"]
SETTINGS = {"as shipped": {}, "TVM_BIND_THREADS=0": {"TVM_BIND_THREADS": "0"},
            "TVM_THREAD_POOL_SPIN_COUNT=0": {"TVM_THREAD_POOL_SPIN_COUNT": "0"}}


def child(tasks: list[str], span: float | None, bundle: str) -> None:
    """One evaluation of the tasks in this process: speedup and candidate median per task."""
    from evaluator.formats.bundle import load_bundle
    from evaluator.harness.protocol import Protocol
    from evaluator.pipeline import evaluate_bundle

    protocol = Protocol() if span is None else Protocol(min_span_s=span)
    report = evaluate_bundle(load_bundle(str(ROOT / "examples" / "bundles" / bundle)), "cpu-llvm", tasks,
                             protocol=protocol)
    out = {t["workload"]: {"speedup": t["speedup"].get("tvm-default"), "status": t["status"],
                           "candidate_us": t["times"]["candidate"]["median_s"] * 1e6,
                           "default_us": t["times"]["tvm-default"]["median_s"] * 1e6}
           for t in report["tasks"]}
    print(json.dumps({"tasks": out, "machine": {**report["machine"], "cpu": report["backend_info"]["device"]}}))


def take_turns(trees: dict[str, tuple[Path, dict]], runs: dict[str, list[dict]], processes: int,
               tasks: list[str], extra: list[str]) -> None:
    """``processes`` fresh evaluations per setting, the settings taking turns. Every child is this
    script; a revision's tree is the evaluator it imports (first on its path)."""
    for i in range(processes):
        for name, (tree, env) in trees.items():
            done = subprocess.run([sys.executable, str(ROOT / "bench" / "parallel_stability.py"), "--child",
                                   "--tasks", *tasks, *extra], cwd=tree,
                                  env={**os.environ, **env, "PYTHONPATH": str(tree)}, capture_output=True,
                                  text=True, check=True)
            got = json.loads(done.stdout.strip().splitlines()[-1])
            runs[name].append(got["tasks"] | {"machine": got["machine"]})
            print(f"{name} {i + 1}/{processes}: " + ", ".join(
                f"{w.split('/')[1]} {r['speedup']:.3f}" for w, r in got["tasks"].items()), file=sys.stderr)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--processes", type=int, default=4)
    ap.add_argument("--tasks", nargs="*", default=TASKS)
    ap.add_argument("--span", type=float, help="the protocol's min_span_s (default: the shipped one)")
    ap.add_argument("--settings", nargs="*", choices=list(SETTINGS), default=list(SETTINGS))
    ap.add_argument("--against", metavar="REV", help="also run this git revision's evaluator (as shipped)")
    ap.add_argument("--bundle", default="hand-tuned", help="an example bundle (examples/bundles/NAME)")
    ap.add_argument("--out", default="", help="a suffix for the report's name, e.g. -span1")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.tasks, args.span, args.bundle)
        return 0
    started = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    runs: dict[str, list[dict]] = {name: [] for name in args.settings}
    machine = None
    extra = (["--span", str(args.span)] if args.span is not None else []) + ["--bundle", args.bundle]
    trees = {name: (ROOT, SETTINGS[name]) for name in args.settings}
    if args.against:
        trees[f"as shipped at {args.against}"] = (worktree(args.against), {})
        runs[f"as shipped at {args.against}"] = []
    try:
        take_turns(trees, runs, args.processes, args.tasks, extra)
        machine = next(iter(runs.values()))[-1]["machine"]
    finally:
        if args.against:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(trees[f"as shipped at {args.against}"][0])], capture_output=True)
    rows = {}
    for name, per in runs.items():
        for w in args.tasks:
            sp = [p[w]["speedup"] for p in per if p[w]["status"] == "correct"]
            rows.setdefault(w, {})[name] = {
                "speedups": sp, "spread": max(sp) / min(sp) if sp else None,
                "candidate_us": [round(p[w]["candidate_us"], 1) for p in per],
                "default_us": [round(p[w]["default_us"], 1) for p in per]}
    date = started.split()[0]
    report = {"benchmark": "parallel_stability", "date": started,
              "command": "python bench/parallel_stability.py " + " ".join(sys.argv[1:]),
              "min_span_s": args.span, "bundle": args.bundle,
              "machine": machine, "processes": args.processes, "settings": SETTINGS, "against": args.against,
              "workloads": rows}
    out = ROOT / "bench" / "results" / f"parallel_stability-{date}{args.out}"
    out.with_suffix(".json").write_text(json.dumps(report, indent=1))
    md = [f"# parallel_stability — {started}", "", f"Command: `{report['command']}`  ",
          f"Machine: {machine.get('platform')}, {machine['cpu']}  ",
          f"Fresh processes per setting: {args.processes}; min_span_s: "
          f"{args.span if args.span is not None else 'as shipped'}", "",
          f"Speedup vs tvm-default of the {args.bundle} bundle's kernel in each process, and max/min over them; "
          "then the candidate's median call time per process (µs).", "",
          "| workload | setting | speedups | max/min | candidate µs | tvm-default µs |", "|---|---|---|---|---|---|"]
    for w, per in rows.items():
        for name, r in per.items():
            md.append(f"| {w} | {name} | " + ", ".join(f"{s:.3f}" for s in r["speedups"])
                      + f" | {r['spread']:.3f} | " + ", ".join(f"{c:.0f}" for c in r["candidate_us"])
                      + " | " + ", ".join(f"{c:.0f}" for c in r["default_us"]) + " |")
    out.with_suffix(".md").write_text("\n".join(md) + "\n")
    print(f"wrote {out}.md and .json", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
