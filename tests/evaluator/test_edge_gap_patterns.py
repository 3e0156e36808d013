"""The edge vision and signal patterns of issue 18 (item 4): detection (box IoU, NMS, RoIAlign), the
Mamba selective scan, and the rectangular / large depthwise and 7 x 7 stem convolutions.

Each reference is checked against something written independently of it — a hand-worked example
or a direct loop — and the NMS draws against the margin that keeps its integer answer unique.
The canonical computes are checked against the references in ``test_suite.py``; here TVM's build
is run only on the hand-worked cases that random draws rarely hit.
"""

import itertools
import math

import numpy as np
import pytest

from evaluator import suite
from evaluator.suite.base import Workload, WorkloadDef
from evaluator.suite.inputs import generate
from evaluator.suite.patterns import detection, ssm


def _pattern(pid):
    return next(p for p in suite.patterns() if p.id == pid)


def _at(pid, **params):
    """A workload of pattern ``pid`` at ``params`` (not one of the suite's)."""
    return WorkloadDef(_pattern(pid), Workload("test", params))


def _tvm(w, *arrays):
    """TVM's build of the canonical compute (unscheduled) on ``arrays``."""
    import tvm

    ex = tvm.compile(w.canonical_module(), target=tvm.target.Target({"kind": "llvm"}))
    dev = tvm.cpu()
    outs = [tvm.runtime.tensor(np.zeros(t.shape, t.dtype), dev) for t in w.outputs]
    ex["main"](*[tvm.runtime.tensor(np.asarray(a, dtype=t.dtype), dev) for a, t in zip(arrays, w.inputs)], *outs)
    return [o.numpy() for o in outs]


# --- IoU and NMS ------------------------------------------------------------------------------------

def test_box_iou_reference_on_hand_worked_pairs():
    a = np.array([[0, 0, 2, 2], [0, 0, 4, 4]], dtype=float)
    b = np.array([[1, 1, 2, 2], [5, 5, 1, 1], [0, 0, 2, 2]], dtype=float)
    expected = [[1 / 7, 0.0, 1.0],          # a 1 x 1 corner shared by two 2 x 2 boxes: 1 / (4 + 4 - 1)
                [4 / 16, 0.0, 4 / 16]]      # a box inside another: its area over the outer one's
    assert np.allclose(detection.iou_np(a, b), expected, rtol=0, atol=1e-15)


# x, y, w, h in score order. A keeps; B overlaps A by 70/130 > 0.501 and goes; C overlaps B by
# as much but A only by 40/160, and B was suppressed, so C stays (a "suppressed by any earlier box"
# kernel would drop it); D is far from all.
HAND_BOXES = np.array([[0, 0, 10, 10], [3, 0, 10, 10], [6, 0, 10, 10], [30, 30, 2, 2]], dtype=float)


@pytest.mark.parametrize("k, kept", [(4, [0, 2, 3, -1]), (2, [0, 2]), (1, [0])])
def test_nms_reference_and_kernel_on_a_hand_worked_row(k, kept):
    iou = detection.iou_np(HAND_BOXES, HAND_BOXES)
    assert iou[0, 1] == iou[1, 2] == 70 / 130 > detection.NMS_THRESHOLD > iou[0, 2] == 40 / 160
    w = _at("detection/nms", c=2, n=4, k=k)
    boxes = np.stack([HAND_BOXES, HAND_BOXES[::-1]])  # second row: D first, then C, B, A
    # reversed: D, C keep; B overlaps C by 70/130 and goes; A overlaps B only, so it stays
    second = [0, 1, 3, -1][:k]
    (ref,) = w.reference([boxes.astype(np.float32)])
    assert ref.tolist() == [kept, second]
    (got,) = _tvm(w, boxes)
    assert got.tolist() == [kept, second]


def test_nms_threshold_is_never_near_an_iou_of_its_draws():
    # integer boxes of sides 1 .. GRID-1: intersections and unions are integers, a union of
    # overlapping boxes is below 2 (GRID - 1)^2; every such ratio stays clear of the threshold
    max_union = 2 * (detection.GRID - 1) ** 2
    assert max_union <= 450
    thr = detection.NMS_THRESHOLD
    gap = min(abs(inter / union - thr) for union in range(1, max_union + 1) for inter in range(union + 1))
    assert gap >= 1 / (451 * 450) > 50 * np.finfo(np.float32).eps * thr  # float32 quotients err by ~eps * thr
    assert abs(float(np.float32(thr)) - thr) < gap / 100  # the kernel's float32 threshold is the same one


def test_nms_draws_are_grid_boxes_and_exercise_both_ends():
    """Every public NMS workload draws integer boxes of the grid; together they reach max_out in
    some rows and pad with -1 in others."""
    full = padded = 0
    for w in suite.workloads():
        if w.pattern.id != "detection/nms":
            continue
        for seed in range(3):
            (boxes,) = generate(w, seed)
            assert boxes.dtype == np.float32 and (boxes == np.round(boxes)).all()
            assert boxes.min() >= 1 and boxes.max() <= detection.GRID - 1
            (idx,) = w.reference([boxes])
            count = (idx >= 0).sum(axis=1)
            assert ((idx >= 0) == (np.arange(w.params["k"]) < count[:, None])).all()  # -1 only at the end
            assert all((np.diff(row[row >= 0]) > 0).all() for row in idx)  # kept in score order
            full += int((count == w.params["k"]).sum())
            padded += int((count < w.params["k"]).sum())
    assert full > 0 and padded > 0


# --- RoIAlign ---------------------------------------------------------------------------------------

def _squares(h=4, w=4):
    """X[y, x] = (4y + x)^2: curved, so a wrong bilinear weight shows."""
    y, x = np.mgrid[:h, :w]
    return ((4 * y + x) ** 2).astype(float)[None, None]


def test_roi_align_reference_on_hand_computed_samples():
    X = _squares()
    # box 3 x 1 at the origin, one bin: the height grows to 1 pixel anyway; samples y = 0.25, 0.75
    # (rows 0 and 1 weigh 1/2 each on average) and x = 0.75, 2.25 (columns weigh 1/8, 3/8, 3/8, 1/8):
    # row 0: 0/8 + 3/8 + 12/8 + 9/8 = 3; row 1: 16/8 + 75/8 + 108/8 + 49/8 = 31; mean 17
    assert detection.roi_align_np(X, np.array([[0.0, 0.0, 3.0, 1.0]]), 1, 1.0)[0, 0, 0, 0] == pytest.approx(17.0)
    # 2 x 2 box at the origin: samples at the 4 pixel-square centres (0.5 / 1.5), each the mean of
    # its 4 pixels: (0+1+16+25)/4, (1+4+25+36)/4, (16+25+64+81)/4, (25+36+81+100)/4 -> 33.5
    assert detection.roi_align_np(X, np.array([[0.0, 0.0, 2.0, 2.0]]), 1, 1.0)[0, 0, 0, 0] == pytest.approx(33.5)
    # off the bottom edge: y = 3.5 is clamped to the last row, y = 4.5 lies beyond it and reads 0,
    # and still counts in the mean: ((144+169)/2 + (169+196)/2 + 0 + 0) / 4 = 84.75
    assert detection.roi_align_np(X, np.array([[0.0, 3.0, 2.0, 2.0]]), 1, 1.0)[0, 0, 0, 0] == pytest.approx(84.75)
    # a stride-2 map: the same box in image pixels is twice as large
    assert detection.roi_align_np(X, np.array([[0.0, 0.0, 4.0, 4.0]]), 1, 0.5)[0, 0, 0, 0] == pytest.approx(33.5)


def _roi_align_loops(X, boxes, o, scale, samples=2):
    """torchvision's roi_align CPU kernel (aligned=False, avg), transcribed sample by sample."""
    _, C, H, W = X.shape

    def bilinear(c, y, x):
        if y < -1.0 or y > H or x < -1.0 or x > W:
            return 0.0
        y, x = max(y, 0.0), max(x, 0.0)
        y_low, x_low = int(y), int(x)
        if y_low >= H - 1:
            y_high = y_low = H - 1
            y = float(y_low)
        else:
            y_high = y_low + 1
        if x_low >= W - 1:
            x_high = x_low = W - 1
            x = float(x_low)
        else:
            x_high = x_low + 1
        ly, lx = y - y_low, x - x_low
        hy, hx = 1.0 - ly, 1.0 - lx
        return (hy * hx * X[0, c, y_low, x_low] + hy * lx * X[0, c, y_low, x_high]
                + ly * hx * X[0, c, y_high, x_low] + ly * lx * X[0, c, y_high, x_high])

    out = np.zeros((len(boxes), C, o, o))
    for r, (x1, y1, bw, bh) in enumerate(boxes):
        x2, y2 = x1 + bw, y1 + bh
        start_w, start_h = x1 * scale, y1 * scale
        roi_w, roi_h = max(x2 * scale - start_w, 1.0), max(y2 * scale - start_h, 1.0)
        bin_w, bin_h = roi_w / o, roi_h / o
        for c, ph, pw in itertools.product(range(C), range(o), range(o)):
            acc = 0.0
            for iy, ix in itertools.product(range(samples), range(samples)):
                y = start_h + ph * bin_h + (iy + 0.5) * bin_h / samples
                x = start_w + pw * bin_w + (ix + 0.5) * bin_w / samples
                acc += bilinear(c, y, x)
            out[r, c, ph, pw] = acc / samples ** 2
    return out


def test_roi_align_reference_matches_torchvisions_loops():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((1, 3, 9, 7))
    # boxes inside, across the edges and tiny (grown to one pixel), in image pixels at stride 4
    boxes = np.concatenate([rng.uniform(-8, 36, (12, 2)), rng.uniform(0.5, 30, (12, 2))], axis=1)
    boxes[0] = [4, 4, 1, 2]
    expected = _roi_align_loops(X, boxes, 3, 0.25)
    assert np.allclose(detection.roi_align_np(X, boxes, 3, 0.25), expected, rtol=1e-12, atol=1e-12)
    # and TVM's TOPI compute (the canonical one) agrees on the same boxes
    w = _at("detection/roi-align", c=3, h=9, k=12, o=3, st=4)
    X9 = rng.standard_normal((1, 3, 9, 9))
    (got,) = _tvm(w, X9, boxes)
    want = _roi_align_loops(X9.astype(np.float32).astype(float), boxes.astype(np.float32).astype(float), 3, 0.25)
    assert np.allclose(got, want, rtol=1e-4, atol=1e-4)


# --- selective scan ---------------------------------------------------------------------------------

def _scan_closed_form(u, delta, A_log, B, C, D):
    """y_t = sum_{s <= t} C_t . (exp(A (dt_{s+1} + ... + dt_t)) dt_s B_s u_s) + D u_t: the recurrence
    unrolled, one (batch, channel, step) at a time in plain Python."""
    b, d, length = u.shape
    n = A_log.shape[1]
    y = np.zeros_like(u)
    for bi, di, t in itertools.product(range(b), range(d), range(length)):
        dt = [math.log1p(math.exp(delta[bi, di, s])) for s in range(length)]
        total = D[di] * u[bi, di, t]
        for s in range(t + 1):
            decay = sum(dt[s + 1:t + 1])
            for k in range(n):
                a = -math.exp(A_log[di, k])
                total += C[bi, k, t] * math.exp(a * decay) * dt[s] * B[bi, k, s] * u[bi, di, s]
        y[bi, di, t] = total
    return y


def test_selective_scan_reference_on_a_hand_worked_sequence():
    # one channel, one state, A = -1, dt = softplus(log(e - 1)) = 1, B = C = 1, D = 1/2, u = (1, 2):
    # h1 = 1 * 1 = 1, y1 = 1 + 0.5; h2 = e^-1 * 1 + 2 = 2.3679, y2 = h2 + 1
    args = (np.array([[[1.0, 2.0]]]), np.full((1, 1, 2), math.log(math.e - 1)), np.zeros((1, 1)),
            np.ones((1, 1, 2)), np.ones((1, 1, 2)), np.array([0.5]))
    assert ssm.selective_scan_np(*args)[0, 0].tolist() == pytest.approx([1.5, math.exp(-1) + 3])


def test_selective_scan_reference_matches_the_unrolled_recurrence():
    rng = np.random.default_rng(1)
    b, d, length, n = 2, 3, 9, 4
    args = (rng.standard_normal((b, d, length)), rng.standard_normal((b, d, length)), rng.uniform(-1, 1, (d, n)),
            rng.standard_normal((b, n, length)), rng.standard_normal((b, n, length)), rng.standard_normal(d))
    assert np.allclose(ssm.selective_scan_np(*args), _scan_closed_form(*args), rtol=1e-12, atol=1e-12)
    # and the canonical kernel at these sizes (the suite's workloads are far larger)
    w = _at("ssm/selective-scan", b=b, d=d, l=length, n=n)
    f32 = [a.astype(np.float32) for a in args]
    (got,) = _tvm(w, *f32)
    assert np.allclose(got, _scan_closed_form(*[a.astype(float) for a in f32]), rtol=1e-5, atol=1e-5)


# --- convolutions -----------------------------------------------------------------------------------

def _depthwise_nhwc_loops(X, W, s):
    """Direct NHWC depthwise loop, zero padding of kh // 2 and kw // 2 (PyTorch's padding=k // 2)."""
    n, h, w, c = X.shape
    kh, kw = W.shape[:2]
    ph, pw = kh // 2, kw // 2
    oh, ow = (h + 2 * ph - kh) // s + 1, (w + 2 * pw - kw) // s + 1
    out = np.zeros((n, oh, ow, c))
    for b, y, x, ch in itertools.product(range(n), range(oh), range(ow), range(c)):
        for i, j in itertools.product(range(kh), range(kw)):
            yy, xx = y * s + i - ph, x * s + j - pw
            if 0 <= yy < h and 0 <= xx < w:
                out[b, y, x, ch] += X[b, yy, xx, ch] * W[i, j, ch, 0]
    return out


@pytest.mark.parametrize("kh, kw, s", [(3, 1, 1), (5, 1, 2), (1, 3, 1), (9, 1, 1), (1, 7, 2), (5, 5, 2)])
def test_rectangular_depthwise_matches_a_direct_loop(kh, kw, s):
    rng = np.random.default_rng(kh * 10 + kw)
    if kh == kw:
        w = _at("depthwise-conv2d/depthwise-conv2d-nhwc-5x5", n=1, h=11, w=9, c=4, r=kh, s=s)
    else:
        w = _at("depthwise-conv2d/depthwise-conv2d-nhwc-asym", n=1, h=11, w=9, c=4, kh=kh, kw=kw, s=s)
    X, W = (rng.standard_normal(t.shape) for t in w.inputs)
    assert W.shape == (kh, kw, 4, 1)
    expected = _depthwise_nhwc_loops(X, W, s)
    ref = w.pattern.reference(w.params, X, W)
    assert ref.shape == expected.shape == w.outputs[0].shape
    assert np.allclose(ref, expected, rtol=1e-12, atol=1e-12)
    (got,) = _tvm(w, X, W)
    assert np.allclose(got, expected, rtol=1e-4, atol=1e-4)


def test_7x7_depthwise_matches_a_direct_loop():
    rng = np.random.default_rng(7)
    w = _at("depthwise-conv2d/depthwise-conv2d-nchw-7x7", n=1, c=3, h=8, w=10, r=7, s=1)
    X, W = (rng.standard_normal(t.shape) for t in w.inputs)
    nhwc = _depthwise_nhwc_loops(X.transpose(0, 2, 3, 1), W.transpose(2, 3, 0, 1), 1).transpose(0, 3, 1, 2)
    ref = w.pattern.reference(w.params, X, W)
    assert np.allclose(ref, nhwc, rtol=1e-12, atol=1e-12)


def test_stem_shapes_and_flops():
    w = suite.get_workload("conv2d/conv2d-nchw-stem7x7@n1c3h112w112k64r7s2p3")
    assert [t.shape for t in w.inputs] == [(1, 3, 112, 112), (64, 3, 7, 7)]
    assert w.outputs[0].shape == (1, 64, 56, 56)
    assert w.flops == 2 * 64 * 56 * 56 * 3 * 7 * 7
    # a single output pixel by hand: the window at (y, x) = (0, 0) starts 3 pixels into the padding
    X, W = generate(w, 0)
    ref = w.pattern.reference(w.params, X.astype(float), W.astype(float))
    window = np.pad(X.astype(float), ((0, 0), (0, 0), (3, 3), (3, 3)))[0, :, 0:7, 0:7]
    assert ref[0, 5, 0, 0] == pytest.approx((window * W[5]).sum(), rel=1e-12)
    window = np.pad(X.astype(float), ((0, 0), (0, 0), (3, 3), (3, 3)))[0, :, 20:27, 40:47]
    assert ref[0, 9, 10, 20] == pytest.approx((window * W[9]).sum(), rel=1e-12)
