"""The task suite: size and coverage minimums, ids and domains, references that are independent of
TVM and distinct from each other, every pattern's canonical IR (unscheduled) matching its
reference, and the model graphs' layer decompositions and published sizes.

The tvm-default build of the workloads is checked on a deterministic sample in
``test_tvm_default.py`` and on all of them by ``bench/suite_sweep.py``.
"""

import itertools
import re
import sys
import types
from collections import defaultdict

import numpy as np
import pytest

from evaluator import suite
from evaluator.suite.base import GraphPattern
from evaluator.suite.inputs import generate
from suite_helpers import assert_matches_reference

ALL = suite.workloads(include_hidden=True)
IDS = [w.id for w in ALL]


def _cheapest(p):
    """A pattern's cheapest public workload (by bytes moved): the one the per-pattern checks use."""
    return min((suite.get_workload(f"{p.id}@{s.tag}") for s in p.workloads if not s.hidden),
               key=lambda w: (w.bytes, w.flops))


PATTERN_IDS = [p.id for p in suite.patterns()]


def test_summary_minimums():
    s = suite.summary(include_hidden=True)
    levels = defaultdict(int)
    for p in suite.patterns():
        levels[p.level] += 1
    assert s["patterns"] >= 331
    assert s["workloads"] >= 650
    assert levels["L2"] >= 40 and levels["L3"] >= 8, dict(levels)
    assert set(s["domains"]) == set(suite.DOMAINS)
    assert s["hidden"] >= 0.20 * s["workloads"] and s["hidden_share"] >= 0.20, (s["hidden"], s["workloads"])
    assert s["hidden"] < s["workloads"]
    assert s["hidden_per_pattern_min"] >= 1


def test_hidden_excluded_by_default():
    public = suite.workloads()
    assert not any(w.hidden for w in public)
    assert len(public) == len(ALL) - sum(w.hidden for w in ALL)
    assert suite.summary(include_hidden=False)["workloads"] == len(public)


def test_ids_domains_and_public_coverage():
    assert len(set(IDS)) == len(IDS)
    for w in ALL:
        assert re.fullmatch(r"[a-z0-9-]+/[a-z0-9-]+@[a-z0-9-]+", w.id), w.id
        assert w.id.startswith(w.family + "/")
        assert len(w.domains) >= 1, w.id
        assert set(w.domains) <= set(suite.DOMAINS), w.id
    for p in suite.patterns():
        assert any(not spec.hidden for spec in p.workloads), f"{p.id} has only hidden workloads"


def test_counts_are_sane():
    for w in ALL:
        assert w.flops >= 0 and w.bytes > 0, w.id
        # data movement (layout, gathers) may do no arithmetic; everything else must count some
        if w.family not in ("layout", "index", "embedding", "resize", "signal", "quant"):
            assert w.flops > 0, w.id


class _NoTVM:
    """Stands in for every TVM name a suite module imported: any use fails the test."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        raise AssertionError(f"a reference used TVM ({self._name}.{attr})")

    def __call__(self, *a, **k):
        raise AssertionError(f"a reference used TVM ({self._name}())")


def _is_tvm(value) -> bool:
    mod = value.__name__ if isinstance(value, types.ModuleType) else getattr(value, "__module__", None)
    return isinstance(mod, str) and (mod == "tvm" or mod.startswith("tvm."))


def test_references_are_independent_of_tvm(monkeypatch):
    """Every reference runs with every TVM name in the suite's modules replaced by a trap."""
    work = [_cheapest(p) for p in suite.patterns()]
    outputs = {w.id: w.outputs for w in work}  # output specs come from the compute: take them first
    for name, module in list(sys.modules.items()):
        if name.startswith("evaluator.suite"):
            for attr, value in list(vars(module).items()):
                if _is_tvm(value):
                    monkeypatch.setattr(module, attr, _NoTVM(attr))
    for w in work:
        got = w.reference(generate(w, 0))
        assert [g.shape for g in got] == [o.shape for o in outputs[w.id]], w.id


def _signature(w):
    return (tuple((t.shape, t.dtype) for t in w.inputs), tuple((t.shape, t.dtype) for t in w.outputs))


def _same(a, b):
    return all(x.shape == y.shape and np.allclose(x.astype(np.float64), y.astype(np.float64), rtol=1e-6, atol=1e-9,
                                                  equal_nan=True) for x, y in zip(a, b))


def _draws(a, b):
    """Shared inputs for two patterns: each one's own draw, and the first scaled up (so, e.g., a
    clamp at 6 is exercised) — floating inputs only; indices stay in range."""
    first = generate(a, 0)
    wide = [x * 8 if np.issubdtype(x.dtype, np.floating) else x for x in first]
    return [first, generate(b, 0), wide]


def test_no_two_patterns_compute_the_same_thing():
    """Patterns whose workloads share an input/output signature must disagree on shared inputs
    (drawn as either pattern draws them)."""
    groups = defaultdict(list)
    for w in ALL:
        groups[_signature(w)].append(w)
    compared, dupes = 0, []
    for ws in groups.values():
        one_each = {w.pattern.id: w for w in ws}
        for a, b in itertools.combinations(sorted(one_each.values(), key=lambda w: w.id), 2):
            agree = []
            for arrays in _draws(a, b):
                try:
                    with np.errstate(all="ignore"):  # e.g. a square root fed another pattern's negatives
                        agree.append(_same(a.reference(arrays), b.reference(arrays)))
                except (IndexError, ValueError, FloatingPointError, OverflowError):
                    agree.append(False)  # one of them cannot even take the other's inputs
            compared += 1
            if all(agree):
                dupes.append((a.pattern.id, b.pattern.id))
    assert compared > 100  # the suite shares shapes on purpose, so this check has teeth
    assert not dupes, dupes


@pytest.mark.parametrize("pid", PATTERN_IDS)
def test_canonical_matches_reference(pid):
    """TVM's build of the canonical compute, unscheduled, against the NumPy reference (and the
    vendor call against it too), within the protocol's dtype tolerances."""
    assert_matches_reference(_cheapest(next(p for p in suite.patterns() if p.id == pid)))


def test_models_are_their_layers():
    """Each model lists the public L1/L2 workloads it is made of (ids as ever); their FLOPs add up to
    the model's exactly: a model counts its ops by its layers' patterns' rules (``suite.graphs``),
    so e.g. VWW's BatchNorm + ReLU after each depthwise conv counts in both, after each pointwise
    conv in neither (conv-block/depthwise-separable-bn counts none there)."""
    expected = {"model/mobilenet-v1-vww@n1h96w96": 15_410_186, "model/ds-cnn-kws@n1h49w10": 5_481_596}
    for p in suite.patterns():
        if not isinstance(p, GraphPattern):
            continue
        assert p.layers is not None, f"{p.id} does not list its layers"
        for spec in p.workloads:
            w = suite.get_workload(f"{p.id}@{spec.tag}")
            layers = suite.layers_of(w)  # raises UnknownWorkload if a layer is not in the suite
            assert [d["workload"] for d in w.describe()["layers"]] == [lw.id for lw, _ in layers]
            for (layer, _), (lw, _) in zip(p.layers(w.params), layers):
                assert lw.level in ("L1", "L2") and not lw.hidden, lw.id
                assert lw is suite.get_workload(lw.id) and (lw.pattern.id, lw.params) == (layer.pattern, layer.params)
            assert sum(n * lw.flops for lw, n in layers) == w.flops, w.id
            assert w.flops == expected.get(w.id, w.flops), w.id
    # the graph-to-layer ids stay those it always had, including custom-tagged workloads
    dlrm = [lw.id for lw, _ in suite.layers_of(suite.get_workload("model/dlrm-small@b1"))]
    assert "embedding/embedding-lookup@r26000d16t26" in dlrm
    unet = [lw.id for lw, _ in suite.layers_of(suite.get_workload("model/unet-small@n1h64w64"))]
    assert unet[:3] == ["fused/conv2d-bias-relu@n1c3h64w64k16r3s1", "fused/conv2d-bias-relu@n1c16h64w64k16r3s1",
                        "pool/max-pool2d@n1c16h64w64k2s2"]


def test_ds_cnn_matches_the_published_model():
    """MLPerf Tiny's DS-CNN: Keras counts 24,908 parameters (23,756 trainable + 1,152 BatchNorm
    moving statistics) and outputs 12 class probabilities."""
    w = suite.get_workload("model/ds-cnn-kws@n1h49w10")
    params = sum(int(np.prod(t.shape)) for t in w.inputs if t.name.startswith("p_"))
    assert params == 24_908
    assert [t.shape for t in w.outputs] == [(1, 12)]
    assert [t.shape for t in w.inputs if not t.name.startswith("p_")] == [(1, 1, 49, 10)]


def test_sample_is_deterministic_and_representative():
    a, b = suite.sample(40), suite.sample(40)
    assert [w.id for w in a] == [w.id for w in b] and len(a) == 40
    assert {w.family for w in a} == {p.family for p in suite.patterns()}
    assert sum(w.level == "L3" for w in a) == 1
    public = suite.sample(40, include_hidden=False)
    assert not any(w.hidden for w in public)
    assert len(suite.sample(60)) == 60


def test_served_selects_a_deployments_tasks():
    assert suite.served("") == suite.workloads()
    picked = suite.served("sample:10, matmul/matmul@*")
    ids = [w.id for w in picked]
    assert len(ids) == len(set(ids))
    assert {w.id for w in suite.sample(10, include_hidden=False)} <= set(ids)
    assert {w.id for w in suite.select(["matmul/matmul@*"])} <= set(ids)
    assert not any(w.hidden for w in picked)
    order = [w.id for w in suite.workloads()]
    assert ids == sorted(ids, key=order.index)  # in suite order, whatever the spec's order
    with pytest.raises(ValueError, match="nothing/here"):
        suite.served("nothing/here*")


def test_an_argsort_input_has_one_answer_in_every_checked_and_timed_set():
    # a tenth of 16x1000 float32 normal draws hold a tie, and a tie's two indices may come in
    # either order: an honest argsort was once wrong in a timed round ("2 of 16000 elements")
    from evaluator.harness.timing import InputPool
    from evaluator.suite.base import Tensor
    from evaluator.suite.inputs import draw

    w = suite.get_workload("index/argsort@m16n1000")
    assert [t.init for t in w.inputs] == ["distinct"]
    for seed in range(3):
        (x,) = generate(w, seed)
        assert all(len(np.unique(row)) == row.size for row in x)
    # float16 draws tie in nearly every row: drawn again until none does
    t = Tensor("X", (16, 1000), "float16", init="distinct")
    x = draw(t, np.random.default_rng(0))
    assert x.dtype == np.float16 and all(len(np.unique(row)) == row.size for row in x)
    pool = InputPool([t], draw, np.random.default_rng(1))
    for off in pool.draw_offsets(50)[0]:  # the timed phase's windows stay whole rows
        (x,) = pool.arrays([int(off)])
        assert all(len(np.unique(row)) == row.size for row in x)


def test_a_dynamic_quantisation_has_one_answer_in_every_checked_and_timed_set():
    # with normal draws one quotient x / (max|row| / 127) was 15.4999... in IEEE float32 and
    # TVM's own kernel read 16 on the H200: an integer answer must not hang on how a device divides
    from evaluator.harness.timing import InputPool
    from evaluator.suite.inputs import draw

    def far_from_halves(x):
        x = x.astype(np.float32)
        scale = np.abs(x).max(axis=1, keepdims=True) / np.float32(127.0)
        q = (x / scale).astype(np.float64)
        return np.abs(np.abs(q - np.floor(q)) - 0.5).min() >= 0.1

    for wid in ("quant/dynamic-quantize@m128n768", "quant/dynamic-quantize@m16n4096"):
        w = suite.get_workload(wid)
        assert [t.init for t in w.inputs] == ["quantizable"]
        for seed in range(3):
            (x,) = generate(w, seed)
            assert far_from_halves(x)
            assert len(np.unique(np.abs(x).max(axis=1))) > 1  # rows differ in scale
        pool = InputPool(w.inputs, draw, np.random.default_rng(1))
        for off in pool.draw_offsets(50)[0]:  # the timed phase's windows stay whole rows
            (x,) = pool.arrays([int(off)])
            assert far_from_halves(x)
