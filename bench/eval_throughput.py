"""Evaluation throughput and stability of the evaluator on this machine.

    .venv/bin/python bench/eval_throughput.py [--repeats 3] [--sample 60 | --tasks GLOB ...] [--against REV]

Evaluates the example bundles ``tvm-default`` (a deterministic sample of the public workloads
that covers every family, ``suite.sample``; ``--sample 0`` for all of them) and ``hand-tuned``
(its cpu-llvm entries) ``--repeats`` times each on cpu-llvm, then reports:

* per-workload evaluation seconds, split into build / check / time (median over the repeats),
  and their medians over the suite;
* stability: for every workload, max/min of its speedup vs tvm-default over the repeats
  (target ≤ 1.10 on a noisy 2-core machine);
* the hand-tuned bundle's Fast@1.0 and correct-only geomean per repeat;
* with ``--against REV`` (a git revision, e.g. the commit before a harness change): the same
  tvm-default runs of that revision's evaluator (``python -m evaluator run`` in a temporary
  worktree), alternating with this one's in the same run, and the ratio new / old of the
  per-workload seconds and of each step, side by side.

Writes ``bench/results/eval_throughput-<date>.json`` and ``.md`` (date, machine, command).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from evaluator import suite
from evaluator.formats.bundle import load_bundle
from evaluator.pipeline import evaluate_bundle

ROOT = Path(__file__).resolve().parents[1]


def run_bundle(name: str, repeats: int, globs: list[str] | None, old: Path | None = None) -> tuple[list, list]:
    """``repeats`` runs of this evaluator, and — with ``old``, a worktree — of that one, alternating."""
    bundle = load_bundle(str(ROOT / "examples" / "bundles" / name))
    if globs is None:
        globs = [e.workload or f"{e.pattern}@*" for e in bundle.entries if e.backend == "cpu-llvm"]
    reports, old_reports = [], []
    for i in range(repeats):
        t0 = time.perf_counter()
        reports.append(evaluate_bundle(bundle, "cpu-llvm", globs))
        reports[-1]["wall_s"] = time.perf_counter() - t0  # the whole run, start-up included
        print(f"{name} run {i + 1}/{repeats}: {reports[-1]['wall_s']:.0f} s", file=sys.stderr)
        if old is not None:
            t0 = time.perf_counter()
            old_reports.append(run_old(old, name, globs))
            print(f"{name} run {i + 1}/{repeats} (old): {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return reports, old_reports


def worktree(rev: str) -> Path:
    path = Path(tempfile.mkdtemp(prefix="ekb-old-"))
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), rev], check=True,
                   capture_output=True)
    return path


def run_old(tree: Path, name: str, globs: list[str]) -> dict:
    """The old revision's own CLI on the same bundle and tasks (its own harness, same venv)."""
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "report.json"
        cmd = [sys.executable, "-m", "evaluator", "run", str(tree / "examples" / "bundles" / name),
               "--backend", "cpu-llvm", "--json", str(out)]
        for g in globs:
            cmd += ["--tasks", g]
        subprocess.run(cmd, cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, check=True,
                       stdout=subprocess.DEVNULL)
        return json.loads(out.read_text())


# A pipeline's steps; ``vendor_ratio``: the vendor call timed against tvm-default, the first
# time a machine meets a workload (0 in a run that found the figure known).
STEPS = ("build", "check", "time", "vendor_ratio")


def per_workload(reports: list[dict]) -> dict[str, dict]:
    rows: dict[str, dict] = {}
    for rep in reports:
        for t in rep["tasks"]:
            row = rows.setdefault(t["workload"], {**{k: [] for k in STEPS}, "speedup": [],
                                                  "status": set(), **{f"{k}_phases": {} for k in STEPS[:3]}})
            row["status"].add(t["status"])
            detail = t.get("detail", {})
            for step, phases in (("build", detail.get("build_split_s")), ("check", detail.get("check_split_s")),
                                 ("time", detail.get("timing", {}).get("phases_s"))):
                for k, v in (phases or {}).items():
                    row[f"{step}_phases"].setdefault(k, []).append(v)
            if "time" in t["steps_s"]:
                row["vendor_ratio"].append(t["steps_s"].get("vendor_ratio", 0.0))
            for k in STEPS[:3]:
                if k in t["steps_s"]:
                    row[k].append(t["steps_s"][k])
            if "tvm-default" in t["speedup"]:
                row["speedup"].append(t["speedup"]["tvm-default"])
    out = {}
    for wid, row in rows.items():
        med = {k: statistics.median(row[k]) if row[k] else None for k in STEPS}
        sp = row["speedup"]
        out[wid] = {
            **{f"{k}_s": v for k, v in med.items()},
            "total_s": sum(v for v in med.values() if v is not None),
            "speedups": sp,
            "spread": (max(sp) / min(sp)) if len(sp) > 1 else None,
            "status": sorted(row["status"]),
            **{f"{k}_phases_s": {p: statistics.median(v) for p, v in row[f"{k}_phases"].items()}
               for k in STEPS[:3]},
        }
    return out


def phase_medians(rows: dict[str, dict], step: str = "time") -> dict[str, float]:
    """Median over the workloads of each phase's seconds in ``step``: the build's lowering and
    compiling (``build_split_s``), the check's start-up, input sets with their references and
    correctness runs (``check_split_s``), the timing phases (``TimingReport.phases_s``)."""
    key = f"{step}_phases_s"
    names = [k for r in rows.values() for k in r[key]]
    return {k: statistics.median(r[key][k] for r in rows.values() if k in r[key]) for k in dict.fromkeys(names)}


def compare(rev: str, new: dict[str, dict], old: dict[str, dict], old_reports: list[dict]) -> dict:
    both = [w for w in new if w in old and new[w]["build_s"] is not None and old[w]["build_s"] is not None]

    def med(rows, key):
        vals = [rows[w][key] for w in both if rows[w][key] is not None]
        return statistics.median(vals) if vals else 0.0

    steps = {k: (med(new, f"{k}_s"), med(old, f"{k}_s")) for k in (*STEPS, "total")}
    ratios = [new[w]["total_s"] / old[w]["total_s"] for w in both if old[w]["total_s"]]
    return {"revision": rev, "workloads": len(both),
            "new": {k: v[0] for k, v in steps.items()}, "old": {k: v[1] for k, v in steps.items()},
            "ratio": {k: (v[0] / v[1] if v[1] else None) for k, v in steps.items()},
            "per_workload_ratio": {"median": statistics.median(ratios), "max": max(ratios)},
            "spread": {"new_max": max((new[w]["spread"] or 1.0) for w in both),
                       "old_max": max((old[w]["spread"] or 1.0) for w in both)},
            "old_fast@1.0": [r["summary"]["fast@1.0"] for r in old_reports]}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--tasks", action="append", help="restrict tvm-default to these globs")
    ap.add_argument("--sample", type=int, default=60,
                    help="tvm-default on this many public workloads (suite.sample); 0: all of them")
    ap.add_argument("--against", metavar="REV", help="also run this git revision's evaluator, side by side")
    args = ap.parse_args()
    if args.tasks is None and args.sample > 0:
        args.tasks = [w.id for w in suite.sample(args.sample, include_hidden=False)]
    started = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    old = worktree(args.against) if args.against else None
    try:
        default_reports, old_reports = run_bundle("tvm-default", args.repeats, args.tasks, old)
        tuned_reports, _ = run_bundle("hand-tuned", args.repeats, None)
    finally:
        if old is not None:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)], capture_output=True)
    default_rows, tuned_rows = per_workload(default_reports), per_workload(tuned_reports)
    public = len(suite.workloads(include_hidden=False))
    old_rows = per_workload(old_reports) if old_reports else {}
    evaluated = [r for r in default_rows.values() if r["build_s"] is not None]

    def med(key, rows):
        vals = [r[key] for r in rows if r[key] is not None]
        return statistics.median(vals) if vals else None

    labelled = {**default_rows, **{f"hand-tuned:{k}": v for k, v in tuned_rows.items()}}
    spreads = {w: r["spread"] for w, r in labelled.items() if r["spread"] is not None}
    result = {
        "benchmark": "eval_throughput",
        "date": started,
        "command": "python bench/eval_throughput.py " + " ".join(sys.argv[1:]),
        "machine": {**default_reports[0]["machine"], "backend": default_reports[0]["backend_info"],
                    "cores": default_reports[0]["backend_info"]["target"].get("num-cores")},
        "repeats": args.repeats,
        "median_seconds_per_workload": {k: med(f"{k}_s", evaluated) for k in (*STEPS, "total")},
        "time_phases_s": phase_medians(default_rows),
        "build_phases_s": phase_medians(default_rows, "build"),
        "check_phases_s": phase_medians(default_rows, "check"),
        # what a whole sweep pays: the mean, which the slow kernels' tail sets, not the median
        "mean_seconds_per_workload": {k: statistics.fmean(r[f"{k}_s"] or 0.0 for r in evaluated)
                                      for k in (*STEPS, "total")} if evaluated else None,
        # the runs' wall clock over their workloads (start-up, references and records included)
        "wall_s_per_workload": statistics.median(r["wall_s"] / max(1, len(r["tasks"])) for r in default_reports),
        "wall_s_per_run": [r["wall_s"] for r in default_reports],
        "public_workloads": public,
        "stability": {
            "max_spread": max(spreads.values()) if spreads else None,
            "median_spread": statistics.median(spreads.values()) if spreads else None,
            "over_1.10": sorted(w for w, s in spreads.items() if s > 1.10),
        },
        "hand_tuned": [{"fast@1.0": r["summary"]["fast@1.0"], "geomean_correct": r["summary"]["geomean_correct"],
                        "correct": r["summary"]["correct"], "tasks": r["summary"]["tasks"]} for r in tuned_reports],
        "tvm_default_correct@1": [r["summary"]["correct@1"] for r in default_reports],
        # tvm-default timed against itself: significantly fast at 1.0 should be ~0
        "tvm_default_fast_sig@1.0": [r["summary"].get("fast_sig@1.0") for r in default_reports],
        "tvm_default_fast@1.0": [r["summary"]["fast@1.0"] for r in default_reports],
        "against": compare(args.against, default_rows, old_rows, old_reports) if old_rows else None,
        "workloads": default_rows,
        "hand_tuned_workloads": tuned_rows,
    }
    result["projection_public_suite_min"] = result["wall_s_per_workload"] * public / 60
    stamp = time.strftime("%Y-%m-%d")
    out = ROOT / "bench" / "results" / f"eval_throughput-{stamp}.json"
    out.write_text(json.dumps(result, indent=1, default=list))
    md = [f"# eval_throughput — {started}", "",
          f"Command: `{result['command']}`  ", f"Machine: {result['machine']['platform']}, "
          f"{result['machine']['backend']['device']}, target {result['machine']['backend']['arch']}  ",
          f"Repeats: {args.repeats}", "",
          "## Median seconds per workload (over the suite)", "",
          "| " + " | ".join((*STEPS, "total")) + " |", "|" + "---|" * (len(STEPS) + 1),
          "| " + " | ".join(f"{result['median_seconds_per_workload'][k] or 0:.2f}" for k in (*STEPS, "total")) + " |",
          "", "Mean over the suite (what a whole sweep pays per workload): "
          + ", ".join(f"{k} {v:.2f}" for k, v in (result["mean_seconds_per_workload"] or {}).items()) + ".", "",
          "## Where each step goes (median seconds over the workloads)", "",
          *[line for step in STEPS[:3] for line in _phase_table(step, result[f"{step}_phases_s"])],
          f"Wall clock per workload (runs over their workloads): {result['wall_s_per_workload']:.2f} s; "
          f"the {public} public workloads at that rate: {result['projection_public_suite_min']:.1f} min on one worker. "
          "Each run's wall clock (the first one times the vendor figures this machine does not know yet): "
          + ", ".join(f"{s:.0f} s" for s in result["wall_s_per_run"]) + ".",
          "", "## Stability: max/min speedup vs tvm-default over the repeats", "",
          f"max {result['stability']['max_spread']:.3f}, median {result['stability']['median_spread']:.3f}; "
          f"over 1.10: {result['stability']['over_1.10'] or 'none'}", "",
          "## hand-tuned per repeat", "", "| run | correct | fast@1.0 | geomean (correct) |", "|---|---|---|---|"]
    for i, h in enumerate(result["hand_tuned"], 1):
        md.append(f"| {i} | {h['correct']}/{h['tasks']} | {h['fast@1.0']:.3f} | {h['geomean_correct']:.3f} |")
    md += ["", "## Per workload", "", "| workload | build s | check s | time s | speedups | max/min |",
           "|---|---|---|---|---|---|"]
    for label, rows in (("", default_rows), ("hand-tuned: ", tuned_rows)):
        for w, r in sorted(rows.items()):
            if r["build_s"] is None:
                continue
            md.append(f"| {label}{w} | {r['build_s']:.2f} | {r['check_s'] or 0:.2f} | {r['time_s'] or 0:.2f} | "
                      + ", ".join(f"{s:.3f}" for s in r["speedups"]) + f" | {r['spread'] or 0:.3f} |")
    if result["against"]:
        a = result["against"]
        md += ["", f"## New vs old ({a['revision']}), side by side in this run", "",
               "Median over the workloads of each workload's median seconds (over the repeats).", "",
               "| step | new s | old s | new / old |", "|---|---|---|---|"]
        for k in (*STEPS, "total"):
            ratio = f"{a['ratio'][k]:.2f}" if a["ratio"][k] is not None else "–"
            md.append(f"| {k} | {a['new'][k]:.2f} | {a['old'][k]:.2f} | {ratio} |")
        md += ["", f"Per-workload total, new / old: median {a['per_workload_ratio']['median']:.2f}, "
               f"max {a['per_workload_ratio']['max']:.2f}.  ",
               f"Stability (max/min speedup over the repeats): new max {a['spread']['new_max']:.3f}, "
               f"old max {a['spread']['old_max']:.3f}.  ",
               f"tvm-default against itself, Fast@1.0: new {result['tvm_default_fast@1.0']}, "
               f"significant {result['tvm_default_fast_sig@1.0']}; old {a['old_fast@1.0']}."]
    out.with_suffix(".md").write_text("\n".join(md) + "\n")
    print(out.with_suffix(".md").read_text())
    return 0


def _phase_table(step: str, phases: dict[str, float]) -> list[str]:
    if not phases:
        return []
    return [f"{step}:", "", "| " + " | ".join(phases) + " |", "|" + "---|" * len(phases),
            "| " + " | ".join(f"{v:.3f}" for v in phases.values()) + " |", ""]


if __name__ == "__main__":
    sys.exit(main())
