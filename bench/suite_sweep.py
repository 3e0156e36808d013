"""The whole task suite through the real pipeline with ``tvm-default`` on cpu-llvm (or opencl).

    .venv/bin/python bench/suite_sweep.py [--backend cpu-llvm|opencl] [--sample N] [--tasks GLOB ...] [--public-only]
                                          [--time-budget S] [--unsafe-local] [--resume]

Every workload — public and hidden — is submitted as a ``layered-trace`` entry holding the rule
set's own schedule (what ``examples/bundles/tvm-default`` holds for the public ones) and evaluated
exactly as a submission is: sandboxed build, correctness on the protocol's input sets, interleaved
timing against the tvm-default baseline and the vendor call. Correct@1 must be 1.0; every task
that is not correct is listed with its reason.

Writes ``bench/results/suite_sweep-<date>.json`` and ``.md``: date, machine, command, wall time,
per-workload evaluation seconds and median kernel times, and the failures. ``--sample N`` runs the
deterministic representative sample of ``evaluator.suite.sample`` and projects the full sweep's
wall time from it.

Every finished workload is appended at once to ``bench/results/suite_sweep-<backend><selection>
.progress.jsonl``; ``--resume`` skips the workloads already there, so a sweep longer than one
sitting is run in parts (the report lists each part's command and wall time, and the sum).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from evaluator import records, scoring, suite
from evaluator.examples import default_entry
from evaluator.formats.bundle import Bundle, Entry
from evaluator.harness.protocol import Protocol
from evaluator.pipeline import evaluate_bundle

ROOT = Path(__file__).resolve().parents[1]


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
    ap.add_argument("--resume", action="store_true",
                    help="keep the workloads an earlier, interrupted run of the same selection finished")
    ap.add_argument("--merge", metavar="REPORT.json",
                    help="re-run only the workloads an earlier report did not find correct or does not "
                         "have (the suite gained them since); the report written holds its other rows "
                         "and the new ones, and drops rows of workloads the suite no longer serves")
    args = ap.parse_args()
    if args.unsafe_local:
        import os

        from evaluator.sandbox import UNSAFE_ENV
        os.environ[UNSAFE_ENV] = "1"

    include_hidden = not args.public_only
    every = suite.workloads(include_hidden)
    earlier_report = json.loads(Path(args.merge).read_text()) if args.merge else None
    if earlier_report:
        # what it did not find correct, and what the suite has gained since
        found = {w for w, row in earlier_report["workloads"].items() if row["status"] == records.CORRECT}
        chosen = [w for w in suite.workloads(include_hidden) if w.id not in found]
    elif args.sample:
        chosen = suite.sample(args.sample, include_hidden)
    else:
        chosen = suite.select(args.tasks, include_hidden)
    if not chosen:
        print("no workloads selected", file=sys.stderr)
        return 2
    protocol = Protocol() if args.time_budget is None else Protocol(time_budget_s=args.time_budget)
    started = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    command = "python bench/suite_sweep.py " + " ".join(sys.argv[1:])
    selection = f"{args.backend}-{'public' if args.public_only else 'all'}" + (
        f"-sample{args.sample}" if args.sample else "-tasks" if args.tasks else "-merge" if args.merge else "")
    progress_file = ROOT / "bench" / "results" / f"suite_sweep-{selection}.progress.jsonl"
    earlier, parts = _read_progress(progress_file) if args.resume else ({}, [])
    if not args.resume:
        progress_file.unlink(missing_ok=True)
    todo = [w for w in chosen if w.id not in earlier]
    part = {"part": len(parts) + 1, "command": command, "started": started, "workloads": len(todo)}
    if todo:
        _append(progress_file, part)
    t0 = time.perf_counter()
    bundle = rule_set_bundle(todo, args.backend)
    bundle_s = time.perf_counter() - t0
    done = [len(earlier)]

    def progress(wid, result):
        if result is not None:
            done[0] += 1
            mark = "" if result.status == records.CORRECT else f"  {result.status}: {result.reason[:100]}"
            print(f"[{done[0]}/{len(chosen)}] {wid} {time.perf_counter() - t0:.0f}s{mark}", file=sys.stderr, flush=True)
            _append(progress_file, {"task": result.to_json(), "at_s": round(time.perf_counter() - t0, 1)})

    report = evaluate_bundle(bundle, args.backend, globs=[w.id for w in todo], include_hidden=include_hidden,
                             protocol=protocol, progress=progress) if todo else None
    wall = time.perf_counter() - t0
    if todo:
        _append(progress_file, {"part_end": part["part"], "wall_s": round(wall, 1)})
        parts.append({**part, "wall_s": round(wall, 1)})
    tasks = {**earlier, **{t["workload"]: t for t in (report["tasks"] if report else [])}}
    if report is None:  # nothing left to run: the machine and settings as a pipeline sees them
        import tvm

        from evaluator.pipeline import Pipeline, machine
        pipe = Pipeline(args.backend, protocol)
        report = {"backend_info": pipe.info.to_json(), "machine": machine(), "protocol": pipe.protocol.to_json(),
                  "sandbox": pipe.sandbox.limits.to_json() if pipe.sandbox else None, "tvm": tvm.__version__}
    report["tasks"] = [tasks[w.id] for w in chosen if w.id in tasks]
    results = [records.TaskResult.from_json(t) for t in report["tasks"]]
    report["summary"] = scoring.breakdown(results)
    wall = sum(p["wall_s"] for p in parts)

    rows = {}
    for t in report["tasks"]:
        steps = t.get("steps_s", {})
        rows[t["workload"]] = {
            "status": t["status"], "reason": t["reason"], "level": t["level"], "hidden": t["hidden"],
            "eval_s": round(sum(steps.values()), 3), "steps_s": {k: round(v, 3) for k, v in steps.items()},
            "phases_s": _phases(t.get("detail", {})),
            "median_ms": {k: _ms(v) for k, v in t["times"].items()},
            "speedup_vs_tvm_default": t["speedup"].get("tvm-default"),
            "roofline_fraction": t["roofline_fraction"],
        }
    if earlier_report:  # its rows for what was not re-run, and its run as the first part
        kept = {w: row for w, row in earlier_report["workloads"].items() if w not in rows}
        rows = {**kept, **rows}
        parts = [{"part": 0, "command": earlier_report["command"], "started": earlier_report["date"],
                  "workloads": len(kept), "wall_s": earlier_report["wall_s"], "kept_from": args.merge}] + parts
        wall = sum(p["wall_s"] for p in parts)
        chosen = [w for w in every if w.id in rows]
        report["summary"] = {"correct@1": sum(r["status"] == records.CORRECT for r in rows.values()) / len(rows),
                             "tasks": len(rows)}
    failed = {w: {"status": r["status"], "reason": r["reason"]}
              for w, r in rows.items() if r["status"] != records.CORRECT}
    eval_s = [r["eval_s"] for r in rows.values()]
    # where the sweep's seconds went, summed over the workloads (what the wall time is made of)
    where: dict[str, float] = {}
    for r in rows.values():
        for k, v in r["steps_s"].items():
            where[k] = where.get(k, 0.0) + v
        for k, v in r.get("phases_s", {}).items():
            where[k] = where.get(k, 0.0) + v
    per_task = wall / len(chosen)
    result = {
        "benchmark": "suite_sweep",
        "date": started,
        "command": command,
        "parts": parts,
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
        "mean_eval_s_per_workload": statistics.fmean(eval_s),
        "sum_s": {k: round(v, 1) for k, v in where.items()},
        "projected_full_sweep_s": round(per_task * len(every), 0),
        "correct@1": report["summary"]["correct@1"],
        "summary": report["summary"],
        "not_correct": failed,
        "workloads": rows,
    }
    stamp = time.strftime("%Y-%m-%d")
    tag = ("" if args.backend == "cpu-llvm" else f"-{args.backend}") + (
        "-sample" if (args.sample or args.tasks) and not args.merge else "")
    out = ROOT / "bench" / "results" / f"suite_sweep-{stamp}{tag}.json"
    out.write_text(json.dumps(result, indent=1))
    out.with_suffix(".md").write_text(_markdown(result))
    print(out.with_suffix(".md").read_text())
    return 0 if not failed else 1


def _phases(detail: dict) -> dict[str, float]:
    """A task's seconds inside its steps: ``build.lower`` …, ``check.inputs`` …, ``time.rounds`` …."""
    out = {}
    for step, phases in (("build", detail.get("build_split_s")), ("check", detail.get("check_split_s")),
                         ("time", detail.get("timing", {}).get("phases_s"))):
        for k, v in (phases or {}).items():
            out[f"{step}.{k}"] = round(v, 4)
    return out


def _append(path: Path, row: dict) -> None:
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(row) + "\n")


def _read_progress(path: Path) -> tuple[dict[str, dict], list[dict]]:
    """The tasks an earlier run finished, and its parts (a part cut off counts up to its last task)."""
    tasks, parts = {}, []
    if not path.exists():
        return tasks, parts
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:  # a line cut off when the run was stopped
            continue
        if "part" in row:
            parts.append({**row, "wall_s": 0.0})
        elif "task" in row and parts:
            tasks[row["task"]["workload"]] = row["task"]
            parts[-1]["wall_s"] = row["at_s"]
        elif "part_end" in row and parts:
            parts[-1]["wall_s"] = row["wall_s"]
    return tasks, parts


def _markdown(r: dict) -> str:
    sel = r["selection"]
    what = (f"sample of {sel['workloads']}" if sel["sample"] else f"{sel['workloads']} workloads") + \
        f" of {sel['of']} ({'public and hidden' if sel['include_hidden'] else 'public'})"
    md = [f"# suite_sweep — {r['date']}", "",
          f"Command: `{r['command']}`  ",
          *([f"Run in {len(r['parts'])} parts: " + "; ".join(
              f"{p['started']}: {p['workloads']} workloads, {p['wall_s'] / 60:.1f} min (`{p['command']}`)"
              for p in r["parts"]) + "  "] if len(r.get("parts", [])) > 1 else []),
          f"Machine: {r['machine']['platform']}, {r['machine']['backend']['device']}, target "
          f"{r['machine']['backend']['arch']}; TVM {r['tvm']}; sandbox {'on' if r['sandbox'] else 'off'}  ",
          f"Selection: {what}", "",
          "| workloads | Correct@1 | wall time | median evaluation s / workload | projected full sweep |",
          "|---|---|---|---|---|",
          f"| {sel['workloads']} | {r['correct@1']:.3f} | {r['wall_s'] / 60:.1f} min "
          f"| {r['median_eval_s_per_workload']:.2f} "
          f"| {r['projected_full_sweep_s'] / 60:.0f} min for {sel['of']} |", ""]
    if r.get("sum_s"):
        md += [f"Mean evaluation s / workload: {r['mean_eval_s_per_workload']:.2f}.", "",
               "## Where the seconds went (summed over the workloads)", "",
               "| step or phase | seconds | share of the steps |", "|---|---|---|"]
        steps = sum(v for k, v in r["sum_s"].items() if "." not in k)
        for k, v in sorted(r["sum_s"].items(), key=lambda kv: (kv[0].split(".")[0], "." in kv[0], -kv[1])):
            md.append(f"| {'  ' * ('.' in k)}{k} | {v:.1f} | {v / steps:.1%} |")
        md.append("")
    md += ["## Not correct", ""]
    md += [f"- `{w}`: {f['status']} — {f['reason']}" for w, f in sorted(r["not_correct"].items())] or ["none"]
    md += ["", "## Per workload (median kernel times, ms)", "",
           "| workload | level | status | eval s | tvm-default ms | vendor ms | speedup (same kernel: ≈ 1) |",
           "|---|---|---|---|---|---|---|"]
    for w, row in sorted(r["workloads"].items()):
        m = row["median_ms"]
        fmt = lambda x: "–" if x is None else f"{x:.4g}"  # noqa: E731
        md.append(f"| {w}{' (hidden)' if row['hidden'] else ''} | {row['level']} | {row['status']} "
                  f"| {row['eval_s']:.2f} | "
                  f"{fmt(m.get('tvm-default'))} | {fmt(m.get('vendor'))} | {fmt(row['speedup_vs_tvm_default'])} |")
    return "\n".join(md) + "\n"


if __name__ == "__main__":
    sys.exit(main())
