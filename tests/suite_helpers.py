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
