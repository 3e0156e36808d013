"""``python -m evaluator``: the suite, the backends, and evaluating a bundle — no Django needed.

The JSON written by ``suite --json`` and ``run --json`` is a stable contract read by scripts and
by the portal; add keys, never rename them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from evaluator import records, suite
from evaluator.backends import BackendUnavailable, get_backend, infos
from evaluator.baselines import tune_run, tvm_tuned
from evaluator.examples import write_default_bundle
from evaluator.formats.bundle import BundleError, load_bundle
from evaluator.sandbox import UNSAFE_ENV, Sandbox, SandboxUnavailable
from evaluator.suite import coverage
from evaluator.suite.heldout import HeldOutSecretMissing
from evaluator.vocabulary import Baseline


def _fmt(x, spec=".2f", none="–"):
    return none if x is None else format(x, spec)


def cmd_suite(args, out: Console) -> int:
    summary = suite.summary(include_hidden=args.all)
    if args.json:
        print(json.dumps(summary, indent=1))
        return 0
    table = Table("workload", "level", "domains", "MFLOP", "KiB", "vendor", title="EdgeKernelBench suite")
    for w in suite.workloads(include_hidden=args.all):
        # a held-out workload is counted, never described: its tag is opaque, its size unsaid
        size = ("–", "–") if w.hidden else (f"{w.flops / 1e6:.2f}", f"{w.bytes / 1024:.0f}")
        table.add_row(w.id + (" (held out)" if w.hidden else ""), w.level, ", ".join(w.domains),
                      *size, "yes" if w.has_vendor else "")
    out.print(table)
    out.print(summary)
    return 0


def cmd_coverage(args, out: Console) -> int:
    text = coverage.render()
    if not args.write:
        sys.stdout.write(text)
        return 0
    Path(args.write).parent.mkdir(parents=True, exist_ok=True)
    Path(args.write).write_text(text)
    out.print(f"coverage table written to {args.write}")
    return 0


def cmd_backends(args, out: Console) -> int:
    try:
        sandbox, no_sandbox = Sandbox(), ""
    except SandboxUnavailable as e:
        sandbox, no_sandbox = None, str(e)
    items = [i.to_json() for i in infos()]
    for i in items:
        # whether untrusted code runs sandboxed on this backend here, and with what
        if sandbox is None or not i["available"]:
            i["sandbox"] = {"available": False, "reason": no_sandbox or i["reason"]}
            continue
        inner = sandbox.with_devices(get_backend(i["name"]).device_paths())
        i["sandbox"] = {"available": True, "reason": "", "limits": inner.describe(),
                        "devices": list(inner.devices.nodes)}
    if args.json:
        print(json.dumps(items, indent=1))
        return 0
    table = Table("backend", "available", "device", "arch", "reason")
    for i in items:
        table.add_row(i["name"], "yes" if i["available"] else "no", i["device"], i["arch"], i["reason"])
    out.print(table)
    return 0


def _task_table(report: dict) -> Table:
    table = Table("workload", "status", "time ms", "× tvm-default", "× tvm-tuned", "× vendor", "roofline", "reason",
                  title=f"{report['bundle']['name']} on {report['backend']}")
    style = {records.CORRECT: "green", records.MISSING: "dim"}
    for t in report["tasks"]:
        cand = t["times"].get("candidate")
        table.add_row(
            t["workload"], f"[{style.get(t['status'], 'red')}]{t['status']}[/]",
            _fmt(cand and cand["median_s"] * 1e3, ".3f"),
            _fmt(t["speedup"].get(Baseline.TVM_DEFAULT)), _fmt(t["speedup"].get(Baseline.TVM_TUNED)),
            _fmt(t["speedup"].get(Baseline.VENDOR)),
            _fmt(t["roofline_fraction"], ".1%"), (t["reason"] or "")[:90],
        )
    return table


def _summary_table(s: dict) -> Table:
    # a second row: significant Fast@p (the lower bound of the speedup's 95 % interval >= p)
    table = Table("", "tasks", "correct@1", *[f"fast@{p}" for p in (0.5, 0.8, 1.0, 1.5, 2.0)],
                  "ties@1.0", "geomean (correct)", "geomean (deployable)", title=f"summary vs {s['baseline']}")
    table.add_row("speedup >= p", str(s["tasks"]), _fmt(s["correct@1"], ".3f"),
                  *[_fmt(s[f"fast@{p}"], ".3f") for p in (0.5, 0.8, 1.0, 1.5, 2.0)],
                  "", _fmt(s["geomean_correct"], ".3f"), _fmt(s["geomean_deployable"], ".3f"))
    table.add_row("significant", "", "", *[_fmt(s.get(f"fast_sig@{p}"), ".3f") for p in (0.5, 0.8, 1.0, 1.5, 2.0)],
                  _fmt(s.get("ties@1.0"), ".3f"), "", "")
    return table


def cmd_run(args, out: Console) -> int:
    # the pipeline imports elftools (the ELF checks): loaded by the commands that run it, not --help
    from evaluator.pipeline import evaluate_bundle

    if args.unsafe_local:
        os.environ[UNSAFE_ENV] = "1"

    try:
        bundle = load_bundle(args.bundle)
    except BundleError as e:
        out.print(f"[red]bundle rejected:[/]\n{e}", highlight=False)
        return 2
    except OSError as e:
        out.print(f"[red]cannot read the bundle:[/] {e}")
        return 2
    total = len(suite.select(args.tasks, args.all))
    if total == 0:
        out.print(f"[red]no tasks match {args.tasks}[/]")
        return 2
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=out, transient=True) as bar:
        task = bar.add_task("evaluating", total=total)

        def progress(wid, result):
            if result is None:
                bar.update(task, description=f"evaluating {wid}")
            else:
                bar.advance(task)

        try:
            report = evaluate_bundle(bundle, args.backend, args.tasks, args.all, progress=progress)
        except (BackendUnavailable, SandboxUnavailable) as e:
            out.print(f"[red]{e}[/]")
            return 2
    out.print(_task_table(report))
    out.print(_summary_table(report["summary"]))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
        out.print(f"results written to {args.json}")
    return 0


def cmd_default_bundle(args, out: Console) -> int:
    n = write_default_bundle(Path(args.out), *([args.backend] if args.backend else []))
    out.print(f"wrote {n} entries to {args.out}")
    return 0


def cmd_tune(args, out: Console) -> int:
    if args.unsafe_local:
        os.environ[UNSAFE_ENV] = "1"
    if not 1 <= args.trials <= tvm_tuned.MAX_TRIALS:
        out.print(f"[red]--trials must be between 1 and {tvm_tuned.MAX_TRIALS}[/]")
        return 2
    if not 0 < args.time_limit <= tvm_tuned.MAX_TIME_LIMIT_S:
        out.print(f"[red]--time-limit must be between 0 and {tvm_tuned.MAX_TIME_LIMIT_S:g} s[/]")
        return 2
    if not 1 <= args.per_family <= tune_run.MAX_PER_FAMILY:
        out.print(f"[red]--per-family must be between 1 and {tune_run.MAX_PER_FAMILY}[/]")
        return 2
    if not tune_run.candidates(args.tasks):
        out.print(f"[red]no public workload matches {args.tasks}[/]")
        return 2
    shard = _shard(args.shard)
    if shard is None:
        out.print(f"[red]--shard must be I/N with 0 <= I < N <= 64, got {args.shard!r}[/]")
        return 2
    started, t0 = tune_run.started(), time.perf_counter()

    def progress(wid, what):
        out.print(f"{time.strftime('%H:%M:%S')} {wid}: {what}", highlight=False)

    try:
        if args.missing:
            outcomes = tune_run.tune_missing(args.backend, args.trials, args.tasks, args.seed, args.time_limit,
                                             Path(args.records), shard, progress=progress)
        else:
            outcomes = tune_run.tune_subset(args.backend, args.trials, args.per_family, args.tasks, args.seed,
                                            args.time_limit, Path(args.records), progress=progress)
    except (BackendUnavailable, SandboxUnavailable) as e:
        out.print(f"[red]{e}[/]")
        return 2
    s = tune_run.summary(outcomes, args.backend, args.argv, args.trials, args.seed, args.time_limit,
                         time.perf_counter() - t0, started)
    js, md = tune_run.write_summary(s, Path(args.results))
    table = Table("workload", "trials", "tuning s", "× vs tvm-default", "note", title="tvm-tuned")
    for w in s["workloads"]:
        table.add_row(w["workload"], str(w["measured"]), f"{w['tuning_s']:.1f}",
                      _fmt(w["speedup_vs_default"], ".3f"), "" if w["ok"] else w["reason"][:80])
    out.print(table)
    out.print(f"records under {args.records}; summary: {js}, {md}")
    # a campaign (--missing) lists what it could not tune; a subset must reach every family
    return 0 if args.missing or not s["families_without_record"] else 1


def _shard(text: str) -> tuple[int, int] | None:
    i, sep, n = text.partition("/")
    if not (sep and i.isdigit() and n.isdigit() and 0 <= int(i) < int(n) <= 64):
        return None
    return int(i), int(n)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluator", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("suite", help="list the task suite")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--all", action="store_true",
                   help="count the held-out workloads too (drawn from EKB_HELDOUT_SECRET; never described)")
    p = sub.add_parser("coverage", help="the suite against KernelBench level 1, TVM's te_workload and MLPerf Tiny, "
                                        "as a Markdown table")
    p.add_argument("--write", metavar="FILE",
                   help="write the table to FILE (e.g. docs/coverage.md) instead of printing it")
    p = sub.add_parser("backends", help="list backends and whether they are available here")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("run", help="evaluate a bundle (directory, .zip or .tar.gz)")
    p.add_argument("bundle")
    p.add_argument("--backend", default="cpu-llvm")
    p.add_argument("--tasks", action="append", metavar="GLOB",
                   help="only workloads matching this glob (repeatable), e.g. 'matmul/*'")
    p.add_argument("--all", action="store_true", help="include the held-out workloads (EKB_HELDOUT_SECRET)")
    p.add_argument("--json", metavar="FILE", help="write the full report as JSON")
    p.add_argument("--unsafe-local", action="store_true",
                   help="run without the sandbox where none is available (bundles you trust only)")
    p = sub.add_parser("default-bundle", help="write the tvm-default baselines as a bundle")
    p.add_argument("out")
    p.add_argument("--backend", action="append",
                   help="only this backend's entries (repeatable; default: cpu-llvm and opencl)")
    p = sub.add_parser("tune", help="tune a subset covering every family with MetaSchedule and store "
                                    "the tvm-tuned records")
    p.add_argument("--backend", default="cpu-llvm")
    p.add_argument("--trials", type=int, default=tvm_tuned.DEFAULT_TRIALS,
                   help=f"trial budget per task (at most {tvm_tuned.MAX_TRIALS})")
    p.add_argument("--per-family", type=int, default=1, help="workloads tuned per family")
    p.add_argument("--missing", action="store_true",
                   help="every selected L1/L2 workload without a usable record (resumes a campaign)")
    p.add_argument("--shard", default="0/1", metavar="I/N",
                   help="with --missing: only every N-th of them from the I-th (N processes share one)")
    p.add_argument("--tasks", action="append", metavar="GLOB",
                   help="only workloads matching this glob (repeatable)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--time-limit", type=float, default=tvm_tuned.DEFAULT_TIME_LIMIT_S,
                   help="seconds of tuning per workload (tuning stops within one round after)")
    p.add_argument("--records", default=str(tvm_tuned.RECORDS_DIR), help="where records are written")
    p.add_argument("--results", default=str(tune_run.RESULTS_DIR), help="where the summary is written")
    p.add_argument("--unsafe-local", action="store_true",
                   help="check and time without the sandbox where none is available")
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    out = Console(stderr=True)
    handler = {"suite": cmd_suite, "coverage": cmd_coverage, "backends": cmd_backends, "run": cmd_run,
               "default-bundle": cmd_default_bundle, "tune": cmd_tune}[args.command]
    try:
        return handler(args, out)
    except HeldOutSecretMissing as e:  # --all without the deployment's secret
        out.print(f"error: {e}")
        return 2


if __name__ == "__main__":
    sys.exit(main())
