"""The opencl backend's run half on another machine's OpenCL device (e.g. a GPU), built here.

    .venv/bin/python bench/opencl_device.py build DIR     # here: TVM + the example bundles
    python3 bench/opencl_device.py run DIR OUT            # there: pyopencl + NumPy only

``build`` writes, per task, the artifact the ``opencl`` backend builds (dlight ``tvm-default``,
the ``hand-tuned`` opencl schedules, the ``opencl-source`` examples) with seeded inputs and the
NumPy reference outputs. ``run`` loads each artifact on the device the backend picks (a GPU when
there is one; ``EKB_OPENCL_DEVICE`` overrides), checks it against the reference with the
protocol's tolerances, times it with the backend's timer (OpenCL profiling events, cross-checked
against host wall time) and writes ``opencl_device-<date>-<device>.json`` and ``.md`` into OUT.
Trusted artifacts only: this runs without the sandbox.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

EXAMPLES = ROOT / "examples" / "bundles"
DEFAULT_TASKS = ["matmul/matmul@m256n256k256", "matmul/matmul@m128n512k128",
                 "batch-matmul/batch-matmul@b12m128n128k64", "softmax/softmax@m256n512",
                 "reduction/sum-lastaxis@m512n1024", "norm/layer-norm@m128n768",
                 "fused/depthwise-separable@n1c64h25w5k64", "conv2d/conv2d-nchw@n1c32h28w28k32r3s1",
                 "gemv/gemv@m1024k1024", "embedding/embedding-bag-sum@r10000d64b32l20",
                 "activation/gelu-tanh@m128n768"]


def build(out: Path) -> None:
    from evaluator import suite
    from evaluator.backends.opencl import OpenCL, lower_to_artifact
    from evaluator.formats.bundle import load_bundle
    from evaluator.ir import lower
    from evaluator.suite.inputs import generate

    backend = OpenCL()
    out.mkdir(parents=True, exist_ok=True)
    candidates = [(wid, "tvm-default", None) for wid in DEFAULT_TASKS]
    for name in ("hand-tuned", "opencl-source"):
        candidates += [(e.workload, name, e) for e in load_bundle(str(EXAMPLES / name)).entries
                       if e.backend == "opencl"]
    index = []
    for wid, kind, entry in candidates:
        w = suite.get_workload(wid)
        stem = f"{kind}__{wid.replace('/', '__').replace('@', '--')}"
        if entry is None:
            doc = lower_to_artifact(backend.default_module(w.canonical_module()), backend.target())
        elif entry.format == "opencl-source":
            backend.build_source(entry.format, entry.source, entry.launch, w.signature(), str(out / "tmp.json"))
            doc = json.loads((out / "tmp.json").read_text())
        else:
            doc = lower_to_artifact(lower.lower(entry.format, entry.source, w.canonical_module()), backend.target())
        (out / f"{stem}.json").write_text(json.dumps(doc))
        arrays = generate(w, 0)
        np.savez(out / f"{stem}.in.npz", *arrays)
        np.savez(out / f"{stem}.ref.npz", *w.reference(arrays))
        index.append({"workload": wid, "kind": kind, "stem": stem, "flops": w.flops,
                      "outputs": [o.name for o in w.outputs], "inputs": [t.name for t in w.inputs]})
    (out / "tmp.json").unlink(missing_ok=True)
    (out / "index.json").write_text(json.dumps(index, indent=1))
    print(f"built {len(index)} artifacts into {out}")


def _time(kernel, ins, outs) -> tuple[float, float]:
    """Median device seconds per call over 9 samples of >= 20 ms, and the samples' host wall."""
    number = 1
    while True:
        per_call = kernel.timer(ins, outs, number)()
        if per_call * number >= 0.02 or number >= 1 << 16:
            break
        number *= 2
    samples, walls = [], []
    for _ in range(9):
        t0 = time.perf_counter()
        samples.append(kernel.timer(ins, outs, number)())
        walls.append((time.perf_counter() - t0) / number)
    return statistics.median(samples), statistics.median(walls)


def run(src: Path, out: Path, note: str = "") -> None:
    from evaluator.backends import opencl_runtime as ocl
    from evaluator.harness.check import check_set

    rt = ocl.runtime()
    rows = []
    for item in json.loads((src / "index.json").read_text()):
        stem = item["stem"]
        row = {"workload": item["workload"], "kind": item["kind"]}
        try:
            t0 = time.perf_counter()
            kernel = ocl.ClKernel(rt, ocl.parse_artifact((src / f"{stem}.json").read_text()))
            row["load_s"] = time.perf_counter() - t0
            arrays = list(np.load(src / f"{stem}.in.npz").values())
            refs = list(np.load(src / f"{stem}.ref.npz").values())
            ins = [ocl.ClTensor(rt, a) for a in arrays]
            outs = [ocl.ClTensor(rt, np.full(r.shape, np.nan if r.dtype.kind == "f" else 0, r.dtype)) for r in refs]
            kernel(ins, outs)
            got = {f"out{i}": t.numpy() for i, t in enumerate(outs)} | {f"in{i}": t.numpy() for i, t in enumerate(ins)}
            outcome = check_set(1, arrays, item["inputs"], refs, item["outputs"], [got])
            row["correct"], row["reason"] = outcome.ok, outcome.reason
            row["kernels"] = len(kernel.launches)
            device_s, wall_s = _time(kernel, ins, outs)
            row.update(median_ms=device_s * 1e3, host_wall_ms=wall_s * 1e3,
                       gflops=item["flops"] / device_s / 1e9 if device_s > 0 else None)
        except Exception as e:  # noqa: BLE001 - one task's failure is that task's row
            row.update(correct=False, reason=f"{type(e).__name__}: {e}"[:500])
        rows.append(row)
        print(json.dumps(row), flush=True)
    date = time.strftime("%Y-%m-%d")
    slug = re.sub(r"[^a-z0-9]+", "-", rt.device.name.lower()).strip("-")[:40]
    report = {"date": date, "device": rt.identity, "arch": rt.arch, "driver": rt.device.driver_version,
              "machine": platform.platform(), "python": platform.python_version(),
              "command": "python3 bench/opencl_device.py run DIR OUT (artifacts from: "
                         ".venv/bin/python bench/opencl_device.py build DIR)", "note": note,
              "platforms_listed_by": "OCL_ICD_VENDORS" if os.environ.get("OCL_ICD_VENDORS") else "/etc/OpenCL/vendors",
              "tasks": rows}
    out.mkdir(parents=True, exist_ok=True)
    (out / f"opencl_device-{date}-{slug}.json").write_text(json.dumps(report, indent=1))
    lines = [f"# opencl backend on {rt.identity} ({date})", "",
             f"Machine: {report['machine']}, Python {report['python']}, driver {report['driver']}.",
             f"Command: `{report['command']}`.", *([note, ""] if note else [""]),
             "Times: median of 9 batches; per call, the sum of the launches' profiled durations "
             "(events) and the host's wall clock around the batch (includes pyopencl's enqueue cost).", "",
             "| workload | kernel | correct | kernels | median ms (events) | host wall ms | GFLOP/s |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        ms = f"{r['median_ms']:.4f}" if "median_ms" in r else "–"
        wall = f"{r['host_wall_ms']:.4f}" if "host_wall_ms" in r else "–"
        gf = f"{r['gflops']:.1f}" if r.get("gflops") else "–"
        ok = "yes" if r["correct"] else f"no: {r['reason'][:80]}"
        lines.append(f"| {r['workload']} | {r['kind']} | {ok} | {r.get('kernels', '–')} | {ms} | {wall} | {gf} |")
    (out / f"opencl_device-{date}-{slug}.md").write_text("\n".join(lines) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("build")
    p.add_argument("dir", type=Path)
    p = sub.add_parser("run")
    p.add_argument("dir", type=Path)
    p.add_argument("out", type=Path)
    p.add_argument("--note", default="", help="a line on how the machine was set up")
    args = parser.parse_args()
    build(args.dir) if args.cmd == "build" else run(args.dir, args.out, args.note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
