"""A workload's module built for this CPU without a schedule and run on the protocol's inputs:
what the suite's tests hold references against (the harness's pipeline is tested elsewhere)."""

from __future__ import annotations

import numpy as np

from evaluator.suite.base import GraphPattern


def build(mod):
    """``mod`` (a workload's canonical module, or any module of its signature) for this CPU."""
    import tvm

    return tvm.compile(mod, target=tvm.target.Target({"kind": "llvm"}))


def run(w, ex, arrays: list[np.ndarray]) -> list[np.ndarray]:
    """The outputs of ``ex`` (built by :func:`build`) on ``arrays``, for workload ``w``."""
    import tvm

    dev = tvm.cpu()
    ins = [tvm.runtime.tensor(a, dev) for a in arrays]
    if isinstance(w.pattern, GraphPattern):
        out = tvm.relax.VirtualMachine(ex, dev)["main"](*ins)
        return [out.numpy()] if hasattr(out, "numpy") else [o.numpy() for o in out]
    outs = [tvm.runtime.tensor(np.zeros(t.shape, t.dtype), dev) for t in w.outputs]
    ex["main"](*ins, *outs)
    return [o.numpy() for o in outs]


def build_and_run(w, mod, arrays: list[np.ndarray]) -> list[np.ndarray]:
    return run(w, build(mod), arrays)


def assert_matches_reference(w) -> None:
    """TVM's unscheduled build of ``w``'s canonical module, and its vendor call, against the NumPy
    reference on seed 0, within the protocol's dtype tolerances."""
    from evaluator.harness.check import _mismatch
    from evaluator.suite.inputs import generate

    arrays = generate(w, seed=0)
    assert [a.shape for a in arrays] == [t.shape for t in w.inputs]
    expected = w.reference(arrays)
    assert len(expected) == len(w.outputs)
    got = build_and_run(w, w.canonical_module(), arrays)
    assert len(got) == len(expected)
    for g, e, spec in zip(got, expected, w.outputs):
        assert g.shape == spec.shape and str(g.dtype) == spec.dtype
        assert np.isfinite(e.astype(np.float64)).all(), f"{w.id}: reference not finite"
        assert _mismatch(g, e, spec.dtype) is None, f"{w.id} {spec.name}: {_mismatch(g, e, spec.dtype)}"
    vendor = w.vendor_call()
    if vendor is not None:
        v = vendor(*arrays)
        vs = list(v) if isinstance(v, (list, tuple)) else [v]
        assert len(vs) == len(expected)
        for g, e, spec in zip(vs, expected, w.outputs):
            assert _mismatch(np.asarray(g).astype(spec.dtype), e, spec.dtype) is None, f"{w.id}: vendor"
