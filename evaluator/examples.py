"""Writers for the shipped example bundles that are generated rather than hand-written."""

from __future__ import annotations

import json
from pathlib import Path

from evaluator import suite
from evaluator.baselines.tvm_default import default_document

SCHEMA = "edgekernelbench/bundle@1"


def write_default_bundle(out: Path, backend: str = "cpu-llvm") -> int:
    """The ``tvm-default`` rule set for every public workload, as a layered-trace bundle."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "schedules").mkdir(exist_ok=True)
    entries = []
    for w in suite.workloads():
        fname = "schedules/" + w.id.replace("/", "__").replace("@", "--") + ".json"
        doc = default_document(w.canonical_module())
        (out / fname).write_text(json.dumps(doc, indent=1) + "\n")
        entries.append({"workload": w.id, "backend": backend, "format": "layered-trace", "file": fname})
    manifest = {"schema": SCHEMA, "name": "tvm-default",
                "description": "TVM's default CPU rule set (evaluator/baselines/tvm_default.py) "
                               "written as a submission: every task correct, speedups about 1.",
                "entries": entries}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return len(entries)
