"""Whether a kernel's speed depends on where its calling thread's stack starts.

    .venv/bin/python bench/stack_alignment.py [--task ID] [--pads 0 16 32 48] [--processes 2]

Builds the hand-tuned bundle's entry for ``--task`` (default: the batched matmul whose register
tile lives on the stack) with the product's builder (sandboxed) and its tvm-default baseline,
then, for each kernel and each environment padding (bytes of extra environment, which move the
main thread's stack in 16-byte steps), starts fresh processes that load the library with the
cpu-llvm backend's loader and time calls in a loop (same inputs, warm cache: this isolates the
call, not the protocol) from the main thread and from the serve step's own thread
(``harness.child.on_fixed_stack``, what the serve step uses). Reports the median µs a call for
every combination: a kernel sensitive to its stack's alignment moves with the padding on the
main thread and stays put on the serve thread.

Writes ``bench/results/stack_alignment-<date>.json`` and ``.md`` (date, machine, command).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def child(task: str, library: str, on_thread: bool, seconds: float) -> None:
    """Time calls of one built library in this process; print the median µs a call."""
    import numpy as np

    from evaluator import suite
    from evaluator.backends import get_backend
    from evaluator.harness import child as serve_step

    w = suite.get_workload(task)
    backend = get_backend("cpu-llvm")
    kernel = backend.load(library, False)
    rng = np.random.default_rng(0)
    tensors = [backend.tensor(rng.standard_normal(t.shape).astype(t.dtype)) for t in w.inputs] + \
              [backend.tensor(np.zeros(t.shape, t.dtype)) for t in w.outputs]
    n_in = len(w.inputs)
    got: list[float] = []

    def loop() -> None:
        for _ in range(50):
            kernel.launch(tensors[:n_in], tensors[n_in:])
        per = []
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            t0 = time.perf_counter_ns()
            for _ in range(20):
                kernel.launch(tensors[:n_in], tensors[n_in:])
            per.append((time.perf_counter_ns() - t0) / 20 / 1e3)
        got.append(statistics.median(per))

    if on_thread:
        serve_step.on_fixed_stack(loop)
    else:
        loop()
    print(json.dumps({"us": got[0]}))


def build(task: str, folder: Path) -> dict[str, str]:
    """The candidate (hand-tuned entry, built in the sandbox) and tvm-default libraries."""
    from evaluator import suite
    from evaluator.formats.bundle import load_bundle
    from evaluator.pipeline import Builder

    w = suite.get_workload(task)
    builder = Builder("cpu-llvm")
    entry = load_bundle(str(ROOT / "examples" / "bundles" / "hand-tuned")).entry_for(w, "cpu-llvm")
    built = builder.build(w, entry)
    if built.artifact is None:
        raise SystemExit(f"{task}: {built.record.reason}")
    (name, data), = built.artifact.files
    (folder / name).write_bytes(data)
    return {"candidate": str(folder / name), "tvm-default": str(builder.baseline_artifact(w))}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--task", default="batch-matmul/batch-matmul@b12m128n128k64")
    ap.add_argument("--pads", type=int, nargs="*", default=[0, 16, 32, 48])
    ap.add_argument("--processes", type=int, default=2, help="fresh processes per combination")
    ap.add_argument("--seconds", type=float, default=0.5, help="timed loop per process")
    ap.add_argument("--child", nargs=3, metavar=("LIBRARY", "THREAD", "SECONDS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.task, args.child[0], args.child[1] == "serve", float(args.child[2]))
        return 0
    started = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    rows = []
    with tempfile.TemporaryDirectory() as d:
        libraries = build(args.task, Path(d))
        for kernel, library in libraries.items():
            for thread in ("main", "serve"):
                for pad in args.pads:
                    env = {**os.environ, "PYTHONPATH": str(ROOT), "STACK_PAD": "x" * pad,
                           "TVM_THREAD_POOL_SPIN_COUNT": "0"}  # as the serve step runs kernels
                    us = [json.loads(subprocess.run(
                        [sys.executable, __file__, "--task", args.task, "--child", library, thread, str(args.seconds)],
                        env=env, capture_output=True, text=True, check=True).stdout.splitlines()[-1])["us"]
                          for _ in range(args.processes)]
                    rows.append({"kernel": kernel, "thread": thread, "pad": pad, "us": us})
                    print(f"{kernel} {thread} pad {pad}: " + ", ".join(f"{u:.1f}" for u in us), file=sys.stderr)
    spread = {}
    for kernel in libraries:
        for thread in ("main", "serve"):
            us = [u for r in rows if r["kernel"] == kernel and r["thread"] == thread for u in r["us"]]
            spread[f"{kernel} {thread}"] = max(us) / min(us)
    report = {"benchmark": "stack_alignment", "date": started,
              "command": "python bench/stack_alignment.py " + " ".join(sys.argv[1:]),
              "machine": {"platform": platform.platform(), "cpus": os.cpu_count()}, "task": args.task,
              "rows": rows, "max_over_min": spread}
    out = ROOT / "bench" / "results" / f"stack_alignment-{started.split()[0]}"
    out.with_suffix(".json").write_text(json.dumps(report, indent=1))
    md = [f"# stack_alignment — {started}", "", f"Command: `{report['command']}`  ",
          f"Machine: {report['machine']['platform']}, {report['machine']['cpus']} CPUs  ", f"Task: {args.task}", "",
          "Median µs a call in each fresh process, by the thread that calls the kernel and the bytes of extra "
          "environment (which move the main thread's stack).", "",
          "| kernel | thread | " + " | ".join(f"pad {p}" for p in args.pads) + " |",
          "|---|---|" + "---|" * len(args.pads)]
    for kernel in libraries:
        for thread in ("main", "serve"):
            cells = [", ".join(f"{u:.1f}" for u in r["us"]) for r in rows
                     if r["kernel"] == kernel and r["thread"] == thread]
            md.append(f"| {kernel} | {thread} | " + " | ".join(cells) + " |")
    md += ["", "max/min over every process: " + ", ".join(f"{k} {v:.3f}" for k, v in spread.items())]
    out.with_suffix(".md").write_text("\n".join(md) + "\n")
    print(f"wrote {out}.md and .json", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
