"""``python -m evaluator``: the suite, the backends, and evaluating a bundle — no Django needed.

The JSON written by ``suite --json`` and ``run --json`` is a stable contract read by scripts and
by the portal; add keys, never rename them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from evaluator import records


def _fmt(x, spec=".2f", none="–"):
    return none if x is None else format(x, spec)


def cmd_suite(args, out: Console) -> int:
    from evaluator import suite

    summary = suite.summary(include_hidden=args.all)
    if args.json:
        print(json.dumps(summary, indent=1))
        return 0
    table = Table("workload", "level", "domains", "MFLOP", "KiB", "vendor", title="EdgeKernelBench suite")
    for w in suite.workloads(include_hidden=args.all):
        table.add_row(w.id + (" (hidden)" if w.hidden else ""), w.level, ", ".join(w.domains),
                      f"{w.flops / 1e6:.2f}", f"{w.bytes / 1024:.0f}", "yes" if w.has_vendor else "")
    out.print(table)
    out.print(summary)
    return 0


def cmd_backends(args, out: Console) -> int:
    from evaluator.backends import infos

    items = [i.to_json() for i in infos()]
    if args.json:
        print(json.dumps(items, indent=1))
        return 0
    table = Table("backend", "available", "device", "arch", "reason")
    for i in items:
        table.add_row(i["name"], "yes" if i["available"] else "no", i["device"], i["arch"], i["reason"])
    out.print(table)
    return 0


def _task_table(report: dict) -> Table:
    table = Table("workload", "status", "time ms", "× tvm-default", "× vendor", "roofline", "reason",
                  title=f"{report['bundle']['name']} on {report['backend']}")
    style = {records.CORRECT: "green", records.MISSING: "dim"}
    for t in report["tasks"]:
        cand = t["times"].get("candidate")
        table.add_row(
            t["workload"], f"[{style.get(t['status'], 'red')}]{t['status']}[/]",
            _fmt(cand and cand["median_s"] * 1e3, ".3f"),
            _fmt(t["speedup"].get("tvm-default")), _fmt(t["speedup"].get("vendor")),
            _fmt(t["roofline_fraction"], ".1%"), (t["reason"] or "")[:90],
        )
    return table


def _summary_table(s: dict) -> Table:
    table = Table("tasks", "correct@1", *[f"fast@{p}" for p in (0.5, 0.8, 1.0, 1.5, 2.0)],
                  "geomean (correct)", "geomean (deployable)", title=f"summary vs {s['baseline']}")
    table.add_row(str(s["tasks"]), _fmt(s["correct@1"], ".3f"),
                  *[_fmt(s[f"fast@{p}"], ".3f") for p in (0.5, 0.8, 1.0, 1.5, 2.0)],
                  _fmt(s["geomean_correct"], ".3f"), _fmt(s["geomean_deployable"], ".3f"))
    return table


def cmd_run(args, out: Console) -> int:
    import os

    from evaluator.backends import BackendUnavailable
    from evaluator.formats.bundle import BundleError, load_bundle
    from evaluator.pipeline import evaluate_bundle
    from evaluator.sandbox import UNSAFE_ENV, SandboxUnavailable
    from evaluator.suite import select

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
    total = len(select(args.tasks, args.all))
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
    from evaluator.examples import write_default_bundle

    n = write_default_bundle(Path(args.out), *([args.backend] if args.backend else []))
    out.print(f"wrote {n} entries to {args.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluator", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("suite", help="list the task suite")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--all", action="store_true", help="include hidden workloads in the listing")
    p = sub.add_parser("backends", help="list backends and whether they are available here")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("run", help="evaluate a bundle (directory, .zip or .tar.gz)")
    p.add_argument("bundle")
    p.add_argument("--backend", default="cpu-llvm")
    p.add_argument("--tasks", action="append", metavar="GLOB",
                   help="only workloads matching this glob (repeatable), e.g. 'matmul/*'")
    p.add_argument("--all", action="store_true", help="include hidden workloads")
    p.add_argument("--json", metavar="FILE", help="write the full report as JSON")
    p.add_argument("--unsafe-local", action="store_true",
                   help="run without the sandbox where none is available (bundles you trust only)")
    p = sub.add_parser("default-bundle", help="write the tvm-default baselines as a bundle")
    p.add_argument("out")
    p.add_argument("--backend", action="append",
                   help="only this backend's entries (repeatable; default: cpu-llvm and opencl)")
    args = parser.parse_args(argv)
    out = Console(stderr=True)
    handler = {"suite": cmd_suite, "backends": cmd_backends, "run": cmd_run,
               "default-bundle": cmd_default_bundle}[args.command]
    return handler(args, out)


if __name__ == "__main__":
    sys.exit(main())
