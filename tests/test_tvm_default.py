"""The CPU default rule set: valid on every workload, and the shipped bundle is exactly it."""

import json
from pathlib import Path

import pytest

from evaluator import suite
from evaluator.baselines.tvm_default import default_document
from evaluator.examples import default_entry
from evaluator.formats.bundle import load_bundle
from evaluator.ir import layered_trace as lt

BUNDLE = Path(__file__).resolve().parents[1] / "examples" / "bundles" / "tvm-default"


@pytest.mark.parametrize("wid", [w.id for w in suite.workloads(include_hidden=True)])
def test_rule_set_is_a_valid_trace_that_schedules(wid):
    w = suite.get_workload(wid)
    mod = w.canonical_module()
    doc = default_document(mod)
    assert lt.check(json.dumps(doc)) == []
    scheduled = lt.apply(mod, doc)
    if w.level != "L3":  # every op gets at least one parallel or vector loop
        text = scheduled.script()
        assert "T.parallel" in text or "T.vectorized" in text, wid


def test_shipped_bundle_is_the_rule_set():
    """examples/bundles/tvm-default must be regenerated (`python -m evaluator default-bundle`)
    whenever the rules or the suite change (the opencl entries are the dlight schedules)."""
    bundle = load_bundle(str(BUNDLE))
    assert {e.workload for e in bundle.entries if e.backend == "cpu-llvm"} == {w.id for w in suite.workloads()}
    expected_opencl = {w.id for w in suite.workloads() if default_entry(w, "opencl")}
    assert {e.workload for e in bundle.entries if e.backend == "opencl"} == expected_opencl
    for e in bundle.entries:
        fmt, _, text = default_entry(suite.get_workload(e.workload), e.backend)
        assert e.format == fmt, (e.workload, e.backend)
        if fmt == "layered-trace":
            assert json.loads(e.source) == json.loads(text), e.workload
        else:
            assert e.source == text, (e.workload, e.backend)
