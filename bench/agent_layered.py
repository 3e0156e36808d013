"""Fast@1.0 of the built-in search agent entered as a model endpoint, against tvm-default.

    .venv/bin/python bench/agent_layered.py [--mode layered] [--budget 8] [--level L1]
                                            [--tasks GLOB ...] [--quick]

Starts the OpenAI-compatible server with the search agent (``ekb-search``) on loopback and
runs each selected public workload through the same loop the portal's worker runs
(:func:`evaluator.agents.modes.run_task`): the chat client with the SSRF guard (loopback
allowed for this local server), the real pipeline in the sandbox for every candidate, the
budget of ``--budget`` measured candidates per task, and the scoring run of the best candidate
whose result is the task's. ``--quick`` uses the tests' shorter timing budget (noisier).

Writes ``bench/results/agent_<mode>-<date>.json`` and ``.md`` (date, machine, command), after
every task so a long run keeps what it measured.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from evaluator import scoring, suite
from evaluator.agents.budget import Budget, Meter
from evaluator.agents.client import ChatClient, NetPolicy
from evaluator.agents.modes import run_task
from evaluator.agents.server import ChatServer, search_model
from evaluator.harness.protocol import Limits, Protocol
from evaluator.pipeline import Pipeline, machine

ROOT = Path(__file__).resolve().parents[1]

PAPER_LEKA_FAST = 0.435  # the reference design's best agent (LEKA), Fast@1.0


def task_row(r) -> dict:
    ep = r.detail.get("endpoint", {})
    measured = [t for t in r.trace or [] if t.get("kind") == "turn" and t.get("candidate")]
    best = next((t for t in measured if t.get("best")), None)
    return {"workload": r.workload, "status": r.status, "reason": r.reason[:300],
            "speedup": r.speedup.get("tvm-default"),
            "search_best_speedup": best.get("speedup") if best else None,
            "candidates": ep.get("candidates_measured"), "requests": ep.get("requests"),
            "elapsed_s": ep.get("elapsed_s"),
            "per_candidate": [{"n": t["candidate"], "layer": t["layer"], "outcome": t["outcome"],
                               "speedup": t.get("speedup"), "model_s": (t.get("request") or {}).get("latency_s"),
                               "steps_s": t.get("steps_s", {})} for t in measured]}


PARTS = ("model", "build", "check", "time", "vendor_ratio")


def per_candidate(tasks: list[dict]) -> dict:
    """Median seconds a measured candidate spent in each part (the model's reply, the pipeline's
    steps), and the task's wall clock per measurement (scoring runs included): what is left of
    that wall clock is the loop's own overhead."""
    cands = [c for t in tasks for c in t["per_candidate"]]
    out: dict = {}
    for part in PARTS:
        vals = [c["model_s"] if part == "model" else c["steps_s"].get(part, 0.0) for c in cands]
        vals = [v for v in vals if v is not None]
        out[part] = statistics.median(vals) if vals else None
    runs = [(t["elapsed_s"], t["candidates"] + (1 if t["speedup"] is not None else 0)) for t in tasks
            if t["elapsed_s"] and t["candidates"]]
    out["wall_per_measurement"] = statistics.median(e / n for e, n in runs) if runs else None
    return out


def compact(result: dict) -> dict:
    """A task's JSON without the prompt and reply texts of its trace (kept as their lengths):
    the kernels, outcomes and timings stay; the full traces are what the portal stores."""
    trace = [{**{k: v for k, v in t.items() if k not in ("prompt", "reply")},
              "prompt_chars": len(t.get("prompt") or ""), "reply_chars": len(t.get("reply") or "")}
             for t in result.get("trace") or []]
    return {**result, "trace": trace}


def write(out: Path, report: dict) -> None:
    out.with_suffix(".json").write_text(json.dumps(report, indent=1) + "\n")
    s = report["summary"]
    lines = [f"# agent_{report['mode']} — {report['date']}", "",
             f"Command: `{report['command']}`  ",
             f"Machine: {report['machine']['platform']}, {report['backend_info']['device']}, "
             f"target {report['backend_info']['arch']}  ",
             f"Model: built-in search agent `ekb-search` through the OpenAI-compatible server; mode "
             f"`{report['mode']}`, budget {report['budget']['candidates']} measured candidates per task; "
             f"prompt {report['prompt']['version']} ({report['prompt']['digest']})  ",
             f"Protocol: {report['protocol_name']}; results are the scoring runs (the best candidate "
             "evaluated again, unseen by the agent)", "",
             "## Summary (vs tvm-default)", "",
             "| tasks | correct@1 | fast@1.0 | fast@1.5 | fast@2.0 | geomean (correct) | geomean (deployable) |",
             "|---|---|---|---|---|---|---|",
             f"| {s['tasks']} | {s['correct@1']:.3f} | {s['fast@1.0']:.3f} | {s['fast@1.5']:.3f} | "
             f"{s['fast@2.0']:.3f} | {s['geomean_correct'] or 0:.3f} | {s['geomean_deployable'] or 0:.3f} |",
             "", f"Reference design's best agent (LEKA): Fast@1.0 = {PAPER_LEKA_FAST:.3f}. "
             f"Tasks done: {len(report['tasks'])} of {report['selected']}; wall {report['wall_s']:.0f} s.",
             "", "## Per measured candidate (median seconds)", "",
             "| " + " | ".join((*PARTS, "task wall / measurement")) + " |", "|" + "---|" * (len(PARTS) + 1),
             "| " + " | ".join(f"{v:.3f}" if v is not None else "–" for v in per_candidate(report["tasks"]).values())
             + " |", "", "## Per task", "",
             "| workload | status | speedup (scoring run) | best during search | candidates | per candidate |",
             "|---|---|---|---|---|---|"]
    for t in report["tasks"]:
        per = ", ".join(f"{c['speedup']:.2f}" if c["speedup"] else c["outcome"][:7] for c in t["per_candidate"])
        sp = f"{t['speedup']:.3f}" if t["speedup"] else "–"
        bs = f"{t['search_best_speedup']:.3f}" if t["search_best_speedup"] else "–"
        lines.append(f"| {t['workload']} | {t['status']} | {sp} | {bs} | {t['candidates']} | {per} |")
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", default="layered", choices=["direct", "agent", "layered"])
    ap.add_argument("--budget", type=int, default=8, help="measured candidates per task")
    ap.add_argument("--level", default="L1")
    ap.add_argument("--tasks", nargs="*", help="workload globs (default: every public workload of --level)")
    ap.add_argument("--sample", type=int,
                    help="a deterministic sample of this many public workloads of --level (every family first)")
    ap.add_argument("--backend", default="cpu-llvm")
    ap.add_argument("--quick", action="store_true", help="the tests' short timing budget (noisier)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results"))
    args = ap.parse_args(argv)

    protocol = (Protocol(time_budget_s=0.5, min_rounds=5, limits=Limits(build_s=60, check_s=8, time_s=30))
                if args.quick else Protocol())
    pipe = Pipeline(args.backend, protocol)
    tasks = [w for w in suite.select(args.tasks) if not args.level or w.level == args.level]
    if args.sample:
        ordered = [w for w in suite.sample(len(suite.workloads()), include_hidden=False)
                   if not args.level or w.level == args.level]
        tasks = ordered[:args.sample]
    budget = Budget(candidates=args.budget)
    server = ChatServer([search_model()]).start()
    date = time.strftime("%Y-%m-%d")
    out = Path(args.out) / f"agent_{args.mode}-{date}{f'-sample{args.sample}' if args.sample else ''}"
    out.parent.mkdir(parents=True, exist_ok=True)
    from evaluator.agents.prompts import PromptSet

    report = {"mode": args.mode, "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
              "command": "python bench/agent_layered.py " + " ".join(sys.argv[1:] if argv is None else argv),
              "machine": machine(), "backend_info": pipe.info.to_json(), "budget": budget.to_json(),
              "prompt": PromptSet("ekb-prompt/1").describe(),
              "protocol_name": "quick (tests' timing budget)" if args.quick else "full (default Protocol)",
              "protocol": protocol.to_json(), "selected": len(tasks), "tasks": [], "results": []}
    meter = Meter(budget.max_requests * len(tasks), budget.max_tokens)
    t_start = time.perf_counter()
    try:
        with pipe.session():  # one run, one submitter: its candidates share a build process
            for i, w in enumerate(tasks, 1):
                client = ChatClient(server.url, "ekb-search", policy=NetPolicy(allow_loopback=True), meter=meter)
                t0 = time.perf_counter()
                r = run_task(w, args.mode, client, lambda c, w=w: pipe.evaluate(w, c), budget, pipe.info)
                row = task_row(r)
                report["tasks"].append(row)
                report["results"].append(compact(r.to_json()))
                report["summary"] = scoring.summarize(report["results"])
                report["wall_s"] = time.perf_counter() - t_start
                write(out, report)
                print(f"[{i}/{len(tasks)}] {w.id}: {r.status} {row['speedup'] or 0:.3f}× "
                      f"(search best {row['search_best_speedup'] or 0:.3f}×) in {time.perf_counter() - t0:.0f} s; "
                      f"fast@1.0 so far {report['summary']['fast@1.0']:.3f}", file=sys.stderr, flush=True)
    finally:
        server.stop()
    s = report["summary"]
    print(f"{args.mode}: {s['tasks']} tasks, correct@1 {s['correct@1']:.3f}, fast@1.0 {s['fast@1.0']:.3f}, "
          f"geomean {s['geomean_correct'] or 0:.3f} → {out}.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
