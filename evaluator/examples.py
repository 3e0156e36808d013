"""Writers for the shipped example bundles that are generated rather than hand-written."""

from __future__ import annotations

import json
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from evaluator import suite
from evaluator.backends.opencl import OpenCL
from evaluator.baselines.tvm_default import default_document
from evaluator.ir.layered_trace import document, schedulable_functions
from evaluator.vocabulary import BackendKind

SCHEMA = "edgekernelbench/bundle@1"
DEFAULT_BACKENDS = (BackendKind.CPU_LLVM, BackendKind.OPENCL)


def gpu_graph_default(canonical) -> dict:
    """A model graph's tvm-default entry on a GPU backend (opencl, cuda): a layered trace naming
    every fused function with no steps, which the backend's build schedules with dlight (the
    default's own rules are no layered-trace steps)."""
    doc = document(functions={f: {} for f in schedulable_functions(canonical)})
    doc["description"] = ("every fused function left to TVM's default GPU schedules (dlight), "
                          "which a GPU backend applies to functions without thread bindings")
    return doc


def default_entry(w: suite.WorkloadDef, backend: str) -> tuple[str, str, str] | None:
    """``(format, file name, text)`` of the ``tvm-default`` entry for a workload on a backend.

    cpu-llvm: the rule set as a layered trace. opencl: the dlight-scheduled PrimFunc as
    TVMScript (dlight uses primitives a layered trace does not have); for a model graph, a
    layered trace naming every fused function with no steps, which the opencl backend schedules
    with dlight (see ``backends/opencl/backend.py``)."""
    stem = w.id.replace("/", "__").replace("@", "--")
    canonical = w.canonical_module()
    if backend in (BackendKind.CPU_LLVM, BackendKind.CPU_EDGE):  # the CPU rule set: the same on both
        return "layered-trace", f"schedules/{stem}.json", json.dumps(default_document(canonical), indent=1) + "\n"
    if backend == BackendKind.OPENCL:
        if w.level == "L3":
            text = json.dumps(gpu_graph_default(canonical), indent=1) + "\n"
            return "layered-trace", f"schedules/opencl/{stem}.json", text
        return "tvmscript", f"schedules/opencl/{stem}.py", OpenCL().default_module(canonical, w).script() + "\n"
    raise ValueError(f"no tvm-default entries are defined for backend {backend!r}")


def default_entries(backends: tuple[str, ...] | list[str] = DEFAULT_BACKENDS,
                    jobs: int | None = None) -> list[tuple[str, str, tuple[str, str, str]]]:
    """``(workload id, backend, (format, file name, text))`` for every public workload that has a
    tvm-default entry on each backend, in suite order. Made by ``jobs`` processes (default: one
    per core): the opencl entries are dlight schedules, about 0.1 s of TVM work each."""
    ids = [w.id for w in suite.workloads()]
    jobs = max(1, min(jobs or os.cpu_count() or 1, 8))
    chunks = [(b, ids[i::jobs]) for b in backends for i in range(jobs)]
    if jobs == 1:
        made = [_entries_of(b, part) for b, part in chunks]
    else:  # fresh interpreters: a forked TVM may inherit a held lock of its thread pool
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
            made = list(pool.map(_entries_of, *zip(*chunks)))
    found = {(wid, b): e for part in made for wid, b, e in part}
    return [(wid, b, found[wid, b]) for b in backends for wid in ids if (wid, b) in found]


def _entries_of(backend: str, ids: list[str]) -> list[tuple[str, str, tuple[str, str, str]]]:
    out = []
    for wid in ids:
        made = default_entry(suite.get_workload(wid), backend)
        if made is not None:
            out.append((wid, backend, made))
    return out


def write_default_bundle(out: Path, backends: tuple[str, ...] | list[str] = DEFAULT_BACKENDS) -> int:
    """TVM's default path for every public workload on each backend, as a bundle."""
    out.mkdir(parents=True, exist_ok=True)
    entries = []
    for wid, backend, (fmt, fname, text) in default_entries(backends):
        (out / fname).parent.mkdir(parents=True, exist_ok=True)
        (out / fname).write_text(text)
        entries.append({"workload": wid, "backend": backend, "format": fmt, "file": fname})
    manifest = {"schema": SCHEMA, "name": "tvm-default",
                "description": "TVM's default path written as a submission: on cpu-llvm the CPU rule "
                               "set (evaluator/baselines/tvm_default.py) as layered traces, on opencl "
                               "the dlight default schedules (evaluator/baselines/dlight_default.py) as "
                               "TVMScript, or for model graphs (L3) as layered traces that leave every "
                               "fused function to them. Every task correct, speedups about 1.",
                "entries": entries}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return len(entries)
