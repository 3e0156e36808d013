"""The layered-trace format: static validation messages and applying schedules to real IR."""

import json

import numpy as np
import pytest
import tvm

from evaluator import suite
from evaluator.ir import layered_trace as lt
from evaluator.suite.inputs import generate

MATMUL = "matmul/matmul@m128n512k128"


def doc(**layers):
    return json.dumps({"format": "layered-trace", "version": 1, "layers": layers})


def test_valid_document_has_no_errors():
    text = doc(schedule=[{"op": "get_loops", "block": "T_matmul", "into": ["i", "j", "k"]},
                         {"op": "split", "loop": "j", "factors": [None, 16], "into": ["jo", "ji"]},
                         {"op": "vectorize", "loop": "ji"}])
    assert lt.check(text) == []


@pytest.mark.parametrize("text, expected", [
    ("{not json", "invalid JSON at line 1"),
    (json.dumps({"format": "other", "version": 1, "layers": {}}), '"format" must be "layered-trace"'),
    (json.dumps({"format": "layered-trace", "version": 2, "layers": {}}), '"version" must be 1'),
    (json.dumps({"format": "layered-trace", "version": 1}), 'exactly one of "layers"'),
    (doc(speed=[]), "unknown layers ['speed']"),
    (doc(schedule=[{"op": "teleport", "loop": "i"}]), "schedule step 1: unknown primitive 'teleport'"),
    (doc(compute=[{"op": "cache_read", "block": "A", "buffer_index": 0, "scope": "local", "into": "x"}]),
     "'cache_read' does not belong to the compute layer (allowed in: memory)"),
    (doc(schedule=[{"op": "split", "loop": "i", "factors": [None, None], "into": ["a", "b"]}]),
     "at most one factor may be null"),
    (doc(schedule=[{"op": "split", "loop": "i", "factors": [4, 0], "into": ["a", "b"]}]),
     "factors must be integers in 1.."),
    (doc(schedule=[{"op": "split", "loop": "i", "factors": [4, 8, 2], "into": ["a", "b"]}]),
     "'factors' and 'into' must have the same length"),
    (doc(schedule=[{"op": "parallel"}]), "missing argument 'loop' for 'parallel'"),
    (doc(schedule=[{"op": "parallel", "loop": "i", "speed": 3}]), "unknown arguments ['speed']"),
    (doc(schedule=[{"op": "bind", "loop": "i", "thread": "warpIdx.q"}]), "argument 'thread': must be one of"),
    (doc(schedule=[{"op": "parallel", "loop": "i; import os"}]), "argument 'loop': must be a name"),
    (doc(schedule=[{"op": "parallel", "loop": "i"}] * (lt.MAX_STEPS + 1)), f"the limit is {lt.MAX_STEPS}"),
])
def test_static_errors_name_the_problem(text, expected):
    errors = lt.check(text)
    assert any(expected in e for e in errors), errors


def _run(mod, w):
    ex = tvm.compile(mod, target=tvm.target.Target({"kind": "llvm"}))
    ins = generate(w, 0)
    dev = tvm.cpu()
    outs = [tvm.runtime.tensor(np.zeros(o.shape, o.dtype), dev) for o in w.outputs]
    ex["main"](*[tvm.runtime.tensor(a, dev) for a in ins], *outs)
    np.testing.assert_allclose(outs[0].numpy(), w.reference(ins)[0], atol=1e-4, rtol=1e-4)


def test_apply_tiles_matmul_and_stays_correct():
    w = suite.get_workload(MATMUL)
    mod = lt.apply(w.canonical_module(), json.loads(doc(
        schedule=[{"op": "get_loops", "block": "T_matmul", "into": ["i", "j", "k"]},
                  {"op": "split", "loop": "i", "factors": [None, 8], "into": ["io", "ii"]},
                  {"op": "split", "loop": "j", "factors": [None, 16], "into": ["jo", "ji"]},
                  {"op": "reorder", "loops": ["io", "ii", "jo", "k", "ji"]},
                  {"op": "parallel", "loop": "io"}],
        memory=[{"op": "decompose_reduction", "block": "T_matmul", "loop": "k", "into": "init"},
                {"op": "get_loops", "block": "init", "into": ["a", "b", "c", "d"]},
                {"op": "vectorize", "loop": "d"}])))
    text = mod.script()
    assert "T.parallel" in text and "T.vectorized" in text
    _run(mod, w)


def test_apply_error_names_the_step():
    w = suite.get_workload(MATMUL)
    bad = json.loads(doc(schedule=[{"op": "get_loops", "block": "T_matmul", "into": ["i", "j", "k"]},
                                   {"op": "vectorize", "loop": "q"}]))
    with pytest.raises(lt.TraceApplyError, match=r"schedule step 2 \(vectorize\): loop 'q' is not defined"):
        lt.apply(w.canonical_module(), bad)


def test_unknown_block_is_a_clear_error():
    w = suite.get_workload(MATMUL)
    bad = json.loads(doc(compute=[{"op": "compute_inline", "block": "nope"}]))
    with pytest.raises(lt.TraceApplyError, match=r"compute step 1 \(compute_inline\)"):
        lt.apply(w.canonical_module(), bad)


def test_graph_needs_functions_and_names_them():
    w = suite.get_workload("model/anomaly-autoencoder@b1")
    with pytest.raises(lt.TraceApplyError, match='use "functions"'):
        lt.apply(w.canonical_module(), json.loads(doc()))
    bad = {"format": "layered-trace", "version": 1, "functions": {"no_such_fn": {}}}
    with pytest.raises(lt.TraceApplyError, match=r"functions \['no_such_fn'\] are not in the model"):
        lt.apply(w.canonical_module(), bad)
