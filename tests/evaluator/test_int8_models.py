"""The int8 MLPerf Tiny graphs (``evaluator/suite/patterns/mlperf_tiny_int8.py``) and their int8
layers (``quant_layers.py``): TVM's unscheduled build matches the NumPy integer reference bit for
bit on the protocol's seeds; the reference's integer helpers match loop-by-loop code written from
TFLite's kernels (Python integers, nothing shared with the reference but the inputs); the outputs
carry information (they move with the data, weights held fixed, and are not pinned to one value).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from evaluator import suite
from evaluator.suite.inputs import generate
from suite_helpers import build, run
from evaluator.suite.patterns import mlperf_tiny_int8 as m8
from evaluator.suite.patterns import quant_layers as ql

SEEDS = (0, 1, 2)  # the protocol's correctness seeds
MODELS = ["model/anomaly-autoencoder-int8@b1", "model/resnet8-int8@n1h32w32", "model/ds-cnn-kws-int8@n1h49w10",
          "model/mobilenet-v1-vww-int8@n1h96w96", "model/streaming-wakeword-int8@n1c40t30"]
LAYER_PATTERNS = [p.id for p in ql.PATTERNS]


def _assert_bit_exact(w):
    ex = build(w.canonical_module())
    for seed in SEEDS:
        arrays = generate(w, seed)
        expected = w.reference(arrays)
        got = run(w, ex, arrays)
        assert len(got) == len(expected) == len(w.outputs)
        for g, e, spec in zip(got, expected, w.outputs):
            assert spec.dtype == "int8" and str(g.dtype) == "int8" and g.shape == e.shape, w.id
            bad = np.flatnonzero(g != e)
            assert bad.size == 0, f"{w.id} seed {seed}: {bad.size} of {e.size} differ, first at {bad[0]}: " \
                                  f"got {g.ravel()[bad[0]]}, expected {e.ravel()[bad[0]]}"


# --- bit-exact: TVM's build against the reference ------------------------------------------------------

@pytest.mark.parametrize("wid", MODELS)
def test_int8_graph_is_bit_exact_on_the_protocol_seeds(wid):
    _assert_bit_exact(suite.get_workload(wid))


@pytest.mark.parametrize("pid", LAYER_PATTERNS)
def test_int8_layers_are_bit_exact_on_the_protocol_seeds(pid):
    for spec in next(p for p in ql.PATTERNS if p.id == pid).workloads:
        _assert_bit_exact(suite.get_workload(f"{pid}@{spec.tag}"))


# --- the reference against code written from TFLite's kernels ------------------------------------------

def _mbqm(x: int, m: int, tflite_shift: int) -> int:
    """tflite::MultiplyByQuantizedMultiplier, TFLITE_SINGLE_ROUNDING (kernels/internal/common.h)."""
    assert 0 <= m < 2 ** 31 and -31 <= tflite_shift <= 30
    total = 31 - tflite_shift
    return (x * m + (1 << (total - 1))) >> total


def _clamp(v, lo, hi):
    return max(lo, min(hi, v))


def _loop_conv(x, w, bias, mult, shift, stride, pads, groups, relu, zx, zy):
    """Per-channel requantised int8 conv2d, NCHW/OIHW, element by element (TFLite's reference
    integer conv: out-of-image taps are skipped, which is reading the zero point)."""
    n, c, h, wd = x.shape
    k, cg, kh, kw = w.shape
    top, left, bottom, right = pads
    oh, ow = (h + top + bottom - kh) // stride + 1, (wd + left + right - kw) // stride + 1
    out = np.zeros((n, k, oh, ow), np.int64)
    kg = k // groups
    for b, o, y, xx in itertools.product(range(n), range(k), range(oh), range(ow)):
        acc = int(bias[o])
        g = o // kg
        for ci, dy, dx in itertools.product(range(cg), range(kh), range(kw)):
            iy, ix = y * stride + dy - top, xx * stride + dx - left
            if 0 <= iy < h and 0 <= ix < wd:
                acc += (int(x[b, g * cg + ci, iy, ix]) - zx) * int(w[o, ci, dy, dx])
        v = _mbqm(acc, int(mult[o]), 31 - int(shift[o])) + zy
        out[b, o, y, xx] = _clamp(v, zy if relu else -128, 127)
    return out


def _loop_add(a, b, za, zb, zy):
    """tflite::reference_integer_ops::AddElementwise (int8, left shift 20) with a fused ReLU."""
    out = np.zeros(a.shape, np.int64)
    for i in np.ndindex(a.shape):
        a1 = _mbqm((int(a[i]) - za) * (1 << ql.ADD["left"]), ql.ADD["ma"], 31 - ql.ADD["sa"])
        b1 = _mbqm((int(b[i]) - zb) * (1 << ql.ADD["left"]), ql.ADD["mb"], 31 - ql.ADD["sb"])
        out[i] = _clamp(_mbqm(a1 + b1, ql.ADD["mo"], 31 - ql.ADD["so"]) + zy, zy, 127)
    return out


def _loop_head(x, w, bias, mult, shift, zx, zy):
    """tflite::reference_integer_ops::AveragePool (halves away from zero) over the whole map, then
    an int8 fully-connected with per-channel requantisation."""
    n, c, h, wd = x.shape
    cnt = h * wd
    out = np.zeros((n, w.shape[0]), np.int64)
    for b in range(n):
        pooled = []
        for ch in range(c):
            s = sum(int(v) for v in x[b, ch].ravel())
            pooled.append(_clamp((s + cnt // 2) // cnt if s > 0 else -((-s + cnt // 2) // cnt), -128, 127))
        for o in range(w.shape[0]):
            acc = int(bias[o]) + sum((pooled[j] - zx) * int(w[o, j]) for j in range(c))
            out[b, o] = _clamp(_mbqm(acc, int(mult[o]), 31 - int(shift[o])) + zy, -128, 127)
    return out


def _draw_layer(rng, k, fan_in, rms_x=ql.rms_uniform_int8(ql.ZA)):
    """bias, multiplier, shift as the suite draws them for such a layer (so the values spread)."""
    return [rng.integers(lo, hi, k) for lo, hi in ql.quant_draws(fan_in, rms_x).values()]


@pytest.mark.parametrize("case", [
    dict(c=3, k=4, h=7, w=6, r=(3, 3), s=1, pads=(1, 1, 1, 1), groups=1, relu=True),
    dict(c=2, k=3, h=9, w=5, r=(4, 2), s=2, pads=(1, 0, 2, 1), groups=1, relu=False),  # asymmetric "same"
    dict(c=4, k=4, h=6, w=6, r=(3, 3), s=2, pads=(0, 0, 1, 1), groups=4, relu=True),   # depthwise, Keras s2
    dict(c=5, k=5, h=9, w=1, r=(4, 1), s=1, pads=(0, 0, 0, 0), groups=5, relu=False),  # DS-TCN k x 1, linear
    dict(c=5, k=6, h=6, w=1, r=(1, 1), s=1, pads=(0, 0, 0, 0), groups=1, relu=True, zx=ql.ZB),  # its pointwise
])
def test_reference_conv_matches_loops_from_tflite(case):
    rng = np.random.default_rng(7)
    zx, zy = case.get("zx", ql.ZA), (ql.ZA if case["relu"] else ql.ZB)
    x = rng.integers(-128, 128, (1, case["c"], case["h"], case["w"]))
    w = rng.integers(-127, 128, (case["k"], case["c"] // case["groups"]) + case["r"])
    bias, mult, shift = _draw_layer(rng, case["k"], math.prod(w.shape[1:]))
    t, left, b, r = case["pads"]
    got = ql.qconv_np(x, w, bias, mult, shift, case["s"], [(t, b), (left, r)], case["groups"], case["relu"], zx=zx)
    want = _loop_conv(x, w, bias, mult, shift, case["s"], case["pads"], case["groups"], case["relu"], zx, zy)
    assert np.array_equal(got, want)
    # the case exercises rounding ties, both clamps and the ReLU fold, or it proves little
    assert (want == 127).any() or (want == -128).any() or (want == zy).any()
    assert len(np.unique(want)) > want.size // 4


def test_reference_rounding_is_tflites_at_the_ties():
    """Exact halves round towards +inf (single rounding), negative ones included."""
    acc = np.array([[3, -3, 5, -5, 1, -1, 0, 7]], np.int64)  # times 2^30 / 2^31 = acc / 2
    got = ql.requant_np(acc, np.full(8, 1 << 30), np.full(8, 31), 0, False, axis=1)
    assert got.tolist() == [[2, -1, 3, -2, 1, 0, 0, 4]]
    assert [_mbqm(int(a), 1 << 30, 0) for a in acc[0]] == got[0].tolist()


def test_reference_dense_add_and_head_match_loops_from_tflite():
    rng = np.random.default_rng(11)
    x = rng.integers(-128, 128, (2, 10))
    w = rng.integers(-127, 128, (5, 10))
    bias, mult, shift = _draw_layer(rng, 5, 10)
    want = _loop_conv(x[:, :, None, None], w[:, :, None, None], bias, mult, shift, 1, (0, 0, 0, 0), 1, True,
                      ql.ZA, ql.ZA)[:, :, 0, 0]
    assert np.array_equal(ql.qdense_np(x, w, bias, mult, shift, relu=True), want)

    a, b = rng.integers(-128, 128, (2, 3, 4, 5))
    for zb in (ql.ZA, ql.ZB):
        assert np.array_equal(ql.qadd_relu_np(a, b, ql.ZB, zb, ql.ZA), _loop_add(a, b, ql.ZB, zb, ql.ZA))

    x = rng.integers(-128, 128, (1, 6, 3, 5))
    x[0, 0] = 3  # sum 45 over 15: an exact average; other channels hit halves of either sign
    w = rng.integers(-127, 128, (4, 6))
    bias, mult, shift = _draw_layer(rng, 4, 6, ql.pooled_rms(ql.SPREAD, 15))
    assert np.array_equal(ql.qhead_np(x, w, bias, mult, shift), _loop_head(x, w, bias, mult, shift, ql.ZA, ql.ZB))
    pooled = ql.qmean_np(np.array([[[[1, 2]], [[-1, -2]], [[2, 3]], [[-3, -4]]]]), (2, 3))
    assert pooled.tolist() == [[2, -2, 3, -4]]  # 1.5 → 2, -1.5 → -2, 2.5 → 3, -3.5 → -4: away from zero


def test_model_reference_is_its_layers_run_one_by_one():
    """The ResNet-8 reference equals its layers' own L2 references chained by hand (the graph's
    parameters fed to each layer workload's reference): the graph is the layers it lists."""
    w = suite.get_workload("model/resnet8-int8@n1h32w32")
    arrays = generate(w, 0)
    x, params = arrays[0], list(arrays[1:])
    refs = {p.id: p.reference for p in ql.PATTERNS}

    def layer(pid, p, *args):
        return np.asarray(refs[pid](p, *[np.asarray(a, np.int64) for a in args]), np.int64)

    stem, stacks, head = m8.resnet_plan(w.params)
    take = lambda: [params.pop(0) for _ in range(4)]  # noqa: E731
    lay = lambda spec, x: layer(spec.layer().pattern, spec.layer().params, x, *take())  # noqa: E731
    x = lay(stem, x)
    for s in stacks:
        y = lay(s.conv2, lay(s.conv1, x))
        skip = x if s.shortcut is None else lay(s.shortcut, x)
        add = m8.add_layer(s.c_out, s.o, s.zb)
        x = layer(add.pattern, add.params, y, skip)
    out = lay(head, x)
    assert not params
    assert np.array_equal(out, w.reference(arrays)[0])


# --- the outputs carry information -----------------------------------------------------------------------

@pytest.mark.parametrize("wid", MODELS)
def test_int8_outputs_move_with_the_data_and_are_not_pinned(wid):
    """Weights held at seed 0's draw, the data of each seed: the outputs differ, use many int8
    values, and are mostly not saturated (an int8 graph whose activations collapse to one value
    would test nothing). And every seed's own draw differs too."""
    w = suite.get_workload(wid)
    base = generate(w, 0)
    outs = []
    for seed in SEEDS:
        arrays = list(base)
        arrays[0] = generate(w, seed)[0]  # the data only
        outs.append(w.reference(arrays)[0])
    for a, b in itertools.combinations(outs, 2):
        assert not np.array_equal(a, b), wid
    full = [w.reference(generate(w, seed))[0] for seed in SEEDS]
    for o in outs + full:
        sat = float(np.mean((o == 127) | (o == -128)))
        assert sat < 0.25, (wid, sat)
        assert len(np.unique(o)) >= min(o.size, 32) // 2 + 1, (wid, np.unique(o))
    assert not np.array_equal(full[0], full[1])


@pytest.mark.parametrize("wid", MODELS)
def test_int8_graph_counts_and_layers(wid):
    """Inputs: int8 data, then int8 weights and int32 bias/multiplier/shift per layer; multipliers
    normalised as TFLite's (in [2^30, 2^31)); FLOPs are the layers' FLOPs."""
    w = suite.get_workload(wid)
    data = [t for t in w.inputs if not t.name.startswith("p_")]
    assert [t.dtype for t in data] == ["int8"] and data[0].init == "randint"
    params = [t for t in w.inputs if t.name.startswith("p_")]
    assert len(params) % 4 == 0
    for wt, bias, mult, shift in zip(*[iter(params)] * 4):
        assert (wt.dtype, bias.dtype, mult.dtype, shift.dtype) == ("int8", "int32", "int32", "int32")
        assert (mult.low, mult.high) == (ql.M_LOW, ql.M_HIGH) and 1 < shift.low < shift.high <= 63
        assert wt.low == -127  # symmetric weights
    layers = suite.layers_of(w)
    assert all(lw.pattern.id in LAYER_PATTERNS for lw, _ in layers)
    assert sum(n * lw.flops for lw, n in layers) == w.flops


def test_int8_graphs_are_the_fp32_models_less_batchnorm():
    """Parameter counts: each int8 graph has the fp32 model's weights, a bias per output channel,
    and a multiplier and shift per output channel in place of BatchNorm's four vectors."""
    def count(wid, leaves=None):
        w = suite.get_workload(wid)
        return sum(math.prod(t.shape) for t in w.inputs if t.name.startswith("p_")
                   and (leaves is None or t.name.rsplit("_", 1)[-1] in leaves))
    for fp32, int8 in [("model/anomaly-autoencoder@b1", "model/anomaly-autoencoder-int8@b1"),
                       ("model/resnet8@n1h32w32", "model/resnet8-int8@n1h32w32"),
                       ("model/ds-cnn-kws@n1h49w10", "model/ds-cnn-kws-int8@n1h49w10"),
                       ("model/mobilenet-v1-vww@n1h96w96", "model/mobilenet-v1-vww-int8@n1h96w96")]:
        assert count(fp32, {"weight"}) == count(int8, {"weight"}), int8
        assert count(fp32, {"bias"}) == count(int8, {"bias"}), int8
        assert count(int8, {"mult"}) == count(int8, {"shift"}) == count(int8, {"bias"})


def test_streaming_wakeword_is_the_reference_ds_tcn():
    """mlcommons/tiny streaming_wakeword ds_tcn (default config): depthwise kernels 3, 5, 10, 15 over 30
    frames leave one frame of 32 channels for the Dense 3; its weights are the Keras model's
    (2,360 depthwise + 19,456 pointwise + 96 dense)."""
    w = suite.get_workload("model/streaming-wakeword-int8@n1c40t30")
    assert [t.shape for t in w.inputs if not t.name.startswith("p_")] == [(1, 40, 30, 1)]
    assert [t.shape for t in w.outputs] == [(1, 3)]
    weights = [t.shape for t in w.inputs if t.name.endswith("_weight")]
    assert weights == [(40, 1, 3, 1), (128, 40, 1, 1), (128, 1, 5, 1), (64, 128, 1, 1), (64, 1, 10, 1),
                       (64, 64, 1, 1), (64, 1, 15, 1), (32, 64, 1, 1), (3, 32)]
    assert sum(math.prod(s) for s in weights) == 2360 + 19456 + 96
