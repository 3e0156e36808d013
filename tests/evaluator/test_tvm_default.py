"""The CPU default rule set: a valid trace that schedules every workload, correct builds on a
deterministic sample that covers every family and level, and the shipped bundle is exactly it.

The whole suite is built and checked through the real pipeline by ``bench/suite_sweep.py``.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from evaluator import suite
from evaluator.baselines.tvm_default import _blocks, default_document, default_layers
from evaluator.examples import default_entries
from evaluator.formats.bundle import load_bundle
from evaluator.harness.check import _mismatch
from evaluator.harness.protocol import Protocol
from evaluator.ir import layered_trace as lt
from evaluator import formats
from evaluator.suite.base import GraphPattern
from evaluator.suite.inputs import generate

BUNDLE = Path(__file__).resolve().parents[2] / "examples" / "bundles" / "tvm-default"
SAMPLE_SIZE = 90
# the cheapest workload of every family, one model graph, the rest by a hash of the ids
EVERY = {w.id: w for w in suite.workloads(include_hidden=True)}  # held out: the tests' secret
SAMPLE = [w.id for w in suite.sample(SAMPLE_SIZE, include_hidden=True)]


def test_sample_covers_every_family_and_level():
    families = {EVERY[wid].family for wid in SAMPLE}
    levels = {EVERY[wid].level for wid in SAMPLE}
    assert families == {w.family for w in suite.workloads(include_hidden=True)}
    assert levels == {"L1", "L2", "L3"}
    assert len(SAMPLE) == SAMPLE_SIZE == len(set(SAMPLE))


@pytest.mark.parametrize("wid", list(EVERY))
def test_rule_set_is_a_valid_trace_that_schedules(wid):
    from tvm import s_tir

    w = EVERY[wid]
    mod = w.canonical_module()
    doc = default_document(mod)
    assert lt.check(json.dumps(doc)) == []
    scheduled = lt.apply(mod, doc)
    if w.level == "L3":
        return
    if not _blocks(s_tir.Schedule(mod)):
        # an opaque body (TOPI's scans and sorts: their own loop nest or a runtime library call)
        # is left as TVM lowers it, so the rule set has nothing to say about it
        assert doc["layers"] == {"compute": [], "schedule": [], "memory": []}, wid
        return
    text = scheduled.script()  # every other op gets at least one parallel or vector loop
    assert "T.parallel" in text or "T.vectorized" in text, wid


@pytest.mark.parametrize("wid", SAMPLE)
def test_default_build_matches_reference(wid):
    """The tvm-default build (the baseline every speedup is measured against) is correct on every
    protocol input set — built and run in-process, as the sweep does through the pipeline."""
    import tvm

    from evaluator.backends import get_backend

    w = EVERY[wid]
    mod = w.canonical_module()
    scheduled = formats.lower("layered-trace", json.dumps(default_document(mod)), mod, default_layers=default_layers)
    ex = tvm.compile(scheduled, target=tvm.target.Target(get_backend("cpu-llvm").target()))
    dev = tvm.cpu()
    for seed in Protocol().seeds:
        arrays = generate(w, seed)
        ins = [tvm.runtime.tensor(a, dev) for a in arrays]
        if isinstance(w.pattern, GraphPattern):
            out = tvm.relax.VirtualMachine(ex, dev)["main"](*ins)
            got = [out.numpy()] if hasattr(out, "numpy") else [o.numpy() for o in out]
        else:
            outs = [tvm.runtime.tensor(np.full(t.shape, np.nan if "float" in t.dtype else 0, t.dtype), dev)
                    for t in w.outputs]
            ex["main"](*ins, *outs)
            got = [o.numpy() for o in outs]
        for g, e, spec in zip(got, w.reference(arrays), w.outputs):
            assert _mismatch(g, e, spec.dtype) is None, f"{wid} seed {seed} {spec.name}: {_mismatch(g, e, spec.dtype)}"


def test_shipped_bundle_is_the_rule_set():
    """examples/bundles/tvm-default must be regenerated (`python -m evaluator default-bundle`)
    whenever the rules or the suite change (the opencl entries are the dlight schedules)."""
    bundle = load_bundle(str(BUNDLE))
    expected = {(wid, b): made for wid, b, made in default_entries()}
    assert {wid for wid, b in expected if b == "cpu-llvm"} == {w.id for w in suite.workloads()}
    assert {(e.workload, e.backend) for e in bundle.entries} == set(expected)
    for e in bundle.entries:
        fmt, _, text = expected[e.workload, e.backend]
        assert e.format == fmt, (e.workload, e.backend)
        if fmt == "layered-trace":
            assert json.loads(e.source) == json.loads(text), e.workload
        else:
            assert e.source == text, (e.workload, e.backend)
