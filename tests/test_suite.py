"""The task suite: size/coverage minimums, and every workload's canonical IR, unscheduled, matches
its independent NumPy reference (and the vendor call matches too)."""

import re

import numpy as np
import pytest

from evaluator import suite
from evaluator.suite.base import GraphPattern
from evaluator.suite.inputs import generate

ALL = suite.workloads(include_hidden=True)
IDS = [w.id for w in ALL]
TOL = dict(atol=1e-4, rtol=1e-4)


def test_summary_minimums():
    s = suite.summary()
    assert s["patterns"] >= 24
    assert s["workloads"] >= 40
    assert set(s["levels"]) == {"L1", "L2", "L3"}
    assert len(s["domains"]) >= 4
    assert 0 < s["hidden"] < s["workloads"]


def test_hidden_excluded_by_default():
    public = suite.workloads()
    assert not any(w.hidden for w in public)
    assert len(public) == len(ALL) - sum(w.hidden for w in ALL)


def test_ids_domains_and_public_coverage():
    assert len(set(IDS)) == len(IDS)
    for w in ALL:
        assert re.fullmatch(r"[a-z0-9-]+/[a-z0-9-]+@[a-z0-9-]+", w.id), w.id
        assert w.id.startswith(w.family + "/")
        assert len(w.domains) >= 1, w.id
    for p in suite.patterns():
        assert any(not spec.hidden for spec in p.workloads), f"{p.id} has only hidden workloads"


@pytest.mark.parametrize("wid", IDS)
def test_counts_positive(wid):
    w = suite.get_workload(wid)
    assert w.flops > 0
    assert w.bytes > 0


def _target():
    import tvm

    return tvm.target.Target({"kind": "llvm"})


@pytest.mark.parametrize("wid", IDS)
def test_canonical_matches_reference(wid):
    import tvm

    w = suite.get_workload(wid)
    arrays = generate(w, seed=0)
    assert [a.shape for a in arrays] == [t.shape for t in w.inputs]
    expected = w.reference(arrays)
    assert len(expected) == len(w.outputs)

    dev = tvm.cpu()
    ex = tvm.compile(w.canonical_module(), target=_target())
    ins = [tvm.runtime.tensor(a, dev) for a in arrays]
    if isinstance(w.pattern, GraphPattern):
        vm = tvm.relax.VirtualMachine(ex, dev)
        out = vm["main"](*ins)
        got = [out.numpy()] if hasattr(out, "numpy") else [o.numpy() for o in out]
    else:
        outs = [tvm.runtime.tensor(np.zeros(t.shape, t.dtype), dev) for t in w.outputs]
        ex["main"](*ins, *outs)
        got = [o.numpy() for o in outs]

    for g, e, spec in zip(got, expected, w.outputs):
        assert g.shape == spec.shape and str(g.dtype) == spec.dtype
        assert np.isfinite(e).all()
        np.testing.assert_allclose(g, e, **TOL, err_msg=f"{wid}: output {spec.name}")

    vendor = w.vendor_call()
    if vendor is not None:
        v = vendor(*arrays)
        vs = list(v) if isinstance(v, (list, tuple)) else [v]
        assert len(vs) == len(expected)
        for g, e in zip(vs, expected):
            np.testing.assert_allclose(np.asarray(g), e, **TOL, err_msg=f"{wid}: vendor")
