"""Object-detection post-processing and RoI ops: the pairwise IoU matrix (anchor matching, NMS),
greedy non-maximum suppression over score-sorted boxes, and RoIAlign (the box head of two-stage
detectors).

Boxes are ``(x, y, w, h)``: top-left corner and size (COCO), so every drawn box is valid whatever
its four numbers. IoU draws them from [0.5, 1.5) (most pairs overlap, some do not).

NMS returns indices, compared exactly, so its inputs have one answer: boxes lie on the pixel grid
(integers, sides 1..15), so intersections and unions are exact integers and a union is at most
2 * 15**2 = 450. The threshold is 226/451 (~0.501; 226 and 451 coprime), so for every union u <= 450
the intersection differs from 226 u / 451 by at least 1/451 and |IoU - 226/451| >= 1 / (451 * 450)
~ 4.9e-6, where float32 rounds the quotient by ~3e-8: no IoU is near the threshold on any device. The boxes of
a row are taken as already sorted by descending score (the detector's top-k); the kernel keeps
box i if its IoU with every box kept before it is at most the threshold, up to ``k`` per row, and
pads the rest of the row with -1. Its canonical compute is a loop nest written with TVM's IR
builder, parallel over rows (classes), as TOPI writes its NMS.

RoIAlign is torchvision's ``roi_align(..., aligned=False)`` (its default; torchvision's Faster
and Mask R-CNN heads): average of a 2 x 2 grid of bilinear samples per bin, the RoI scaled by
1 / stride and grown to at least one feature pixel, samples beyond one pixel outside the map
reading zero. Its canonical compute is TOPI's ``roi_align_nchw`` (whose ``aligned=True`` lacks
torchvision's half-pixel shift, so it is not used). RoIs are integer pixel boxes inside the
image (``h * stride`` square), one image per call.
"""

import numpy as np
from tvm import te, tirx, topi
from tvm.script.ir_builder import IRBuilder
from tvm.script.ir_builder import tirx as T

from evaluator.suite.base import OpPattern, Tensor
from evaluator.suite.declare import wl
from evaluator.suite.heldout import ShapeSpace

NMS_THRESHOLD = 226 / 451  # ~0.501: clear of every inter/union with union <= 450 (docstring)
GRID = 16                  # NMS boxes: x, y, w, h integers in [1, GRID)
SAMPLES = 2                # RoIAlign sampling ratio
IOU_FLOPS = 12             # two corners, clamped overlaps, intersection, two areas, union, quotient


# --- IoU --------------------------------------------------------------------------------------------

def _iou_te(ax, ay, aw, ah, bx, by, bw, bh):
    iw = te.max(te.min(ax + aw, bx + bw) - te.max(ax, bx), 0.0)
    ih = te.max(te.min(ay + ah, by + bh) - te.max(ay, by), 0.0)
    inter = iw * ih
    return inter / (aw * ah + bw * bh - inter)


def iou_np(a, b):
    """(n, m) IoU of (x, y, w, h) boxes a (n, 4) and b (m, 4)."""
    lo = np.maximum(a[:, None, :2], b[None, :, :2])
    hi = np.minimum(a[:, None, :2] + a[:, None, 2:], b[None, :, :2] + b[None, :, 2:])
    inter = np.clip(hi - lo, 0.0, None).prod(axis=-1)
    return inter / (a[:, 2:].prod(-1)[:, None] + b[:, 2:].prod(-1)[None, :] - inter)


def _iou(p, A, B):
    return te.compute((p["n"], p["m"]),
                      lambda i, j: _iou_te(*(A[i, c] for c in range(4)), *(B[j, c] for c in range(4))),
                      name="T_iou")


# --- NMS --------------------------------------------------------------------------------------------

def _nms(p, boxes):
    rows, n, k = p["c"], p["n"], p["k"]
    thr = T.float32(NMS_THRESHOLD)

    def gen(ins, outs):
        with IRBuilder() as ib:
            bx, out = T.buffer_proxy(ins[0]), T.buffer_proxy(outs[0])
            with T.parallel(0, rows) as r:
                count = T.buffer_proxy(T.alloc_buffer((1,), "int32", scope="local"))
                keep = T.buffer_proxy(T.alloc_buffer((1,), "int32", scope="local"))
                count[0] = T.int32(0)
                with T.serial(0, k) as j:
                    out[r, j] = T.int32(-1)
                with T.serial(0, n) as i:
                    with T.If(count[0] < k):
                        with T.Then():
                            keep[0] = T.int32(1)
                            with T.serial(0, k) as j:  # the boxes kept so far: out[r, :count]
                                with T.If(tirx.all(j < count[0], keep[0] == 1)):
                                    with T.Then():
                                        kept = out[r, j]
                                        iou = _iou_te(*(bx[r, i, c] for c in range(4)),
                                                      *(bx[r, kept, c] for c in range(4)))
                                        with T.If(iou > thr):
                                            with T.Then():
                                                keep[0] = T.int32(0)
                            with T.If(keep[0] == 1):
                                with T.Then():
                                    out[r, count[0]] = i
                                    count[0] = count[0] + 1
        return ib.get()

    out = tirx.decl_buffer((rows, k), "int32", "out_buf")
    return te.extern([(rows, k)], [boxes], gen, dtype="int32", out_buffers=[out], name="T_nms")


def _nms_ref(p, boxes):
    out = np.full((p["c"], p["k"]), -1, dtype=np.int64)
    for r in range(p["c"]):
        iou = iou_np(boxes[r], boxes[r])
        kept = []
        for i in range(p["n"]):
            if len(kept) == p["k"]:
                break
            if not kept or iou[i, kept].max() <= NMS_THRESHOLD:
                kept.append(i)
        out[r, :len(kept)] = kept
    return out


def _nms_flops(p):
    # at most k kept boxes to test each candidate against; counted as if every candidate met k
    return IOU_FLOPS * p["c"] * p["n"] * p["k"]


# --- RoIAlign ---------------------------------------------------------------------------------------

def _roi_align(p, X, boxes):
    # torchvision's (x1, y1, x2, y2) RoIs with the batch index (0: one image) that TOPI takes
    def col(i, j):
        x, y, w, h = (boxes[i, c] for c in range(4))
        return tirx.Select(j == 1, x, tirx.Select(j == 2, y, tirx.Select(j == 3, x + w, tirx.Select(
            j == 4, y + h, tirx.const(0.0, "float32")))))
    rois = te.compute((p["k"], 5), col, name="T_rois")
    return topi.vision.roi_align_nchw(X, rois, p["o"], 1.0 / p["st"], "avg", SAMPLES, aligned=False)


def _interp(coords, size):
    """(m, size) bilinear weights of each coordinate on a line of ``size`` pixels (torchvision's
    ``bilinear_interpolate``, one axis: zero beyond one pixel outside, clamped at the edges)."""
    wts = np.zeros((coords.size, size))
    for row, v in enumerate(coords):
        if v < -1.0 or v > size:
            continue
        v = max(v, 0.0)
        lo = int(v)
        if lo >= size - 1:
            wts[row, size - 1] = 1.0
            continue
        wts[row, lo] += 1.0 - (v - lo)
        wts[row, lo + 1] += v - lo
    return wts


def roi_align_np(X, boxes, o, scale, samples=SAMPLES):
    """torchvision's roi_align(aligned=False, avg) on one image X (1, C, H, W), (x, y, w, h) boxes.

    Bilinear sampling is separable and so is the grid average: each bin is R_y X R_x^T with R the
    per-axis weights averaged over the bin's samples."""
    _, _, h, w = X.shape
    out = np.zeros((boxes.shape[0], X.shape[1], o, o))
    grid = (np.arange(o)[:, None] + (np.arange(samples)[None, :] + 0.5) / samples)  # bins, samples
    for i, (x0, y0, bw, bh) in enumerate(boxes):
        x0, y0 = x0 * scale, y0 * scale
        bw, bh = max(bw * scale, 1.0), max(bh * scale, 1.0)
        ry = _interp((y0 + grid * bh / o).ravel(), h).reshape(o, samples, h).mean(axis=1)
        rx = _interp((x0 + grid * bw / o).ravel(), w).reshape(o, samples, w).mean(axis=1)
        out[i] = np.einsum("ay,cyx,bx->cab", ry, X[0], rx)
    return out


def _roi_boxes(p):
    # integer (x, y, w, h) in [1, size / 2): inside the size x size image (size = h * stride)
    return Tensor("boxes", (p["k"], 4), init="randint", low=1, high=p["h"] * p["st"] // 2)


# --- patterns ---------------------------------------------------------------------------------------

def _pattern(name, summary, inputs, compute, reference, flops, workloads, shape_space=None):
    return OpPattern(id=f"detection/{name}", family="detection", level="L1", domains=("vision",), summary=summary,
                     inputs=inputs, compute=compute, reference=reference, vendor=reference, flops=flops,
                     workloads=workloads, shape_space=shape_space)


PATTERNS = [
    _pattern("box-iou", "IoU[i, j] = |A_i n B_j| / |A_i u B_j| for (x, y, w, h) boxes (anchor matching, NMS)",
             lambda p: [Tensor("A", (p["n"], 4), init="positive"), Tensor("B", (p["m"], 4), init="positive")],
             _iou, lambda p, A, B: iou_np(A, B), lambda p: IOU_FLOPS * p["n"] * p["m"],
             [wl(n=1917, m=16),   # SSD-MobileNet's anchors against a frame's ground-truth boxes
              wl(n=300, m=300)]),  # detections against each other
    _pattern("nms", "Y[r, :] = indices of the boxes greedy NMS keeps (IoU > 226/451 suppresses) from each row's "
             "score-sorted boxes, at most k, padded with -1 (int32)",
             lambda p: [Tensor("boxes", (p["c"], p["n"], 4), init="randint", low=1, high=GRID)],
             _nms, _nms_ref, _nms_flops,
             [wl(c=1, n=896, k=100),   # one class over BlazeFace's anchor count; max_out reached
              wl(c=1, n=256, k=200),   # fewer kept than k: padded
              wl(c=8, n=100, k=100)],  # per-class NMS, 8 classes x top-100
             shape_space=ShapeSpace(valid=lambda p: p["k"] <= p["n"])),
    _pattern("roi-align", "Y[r, c, i, j] = mean of 2 x 2 bilinear samples of X in bin (i, j) of RoI r "
             "(torchvision roi_align, aligned=False, RoIs scaled by 1/stride)",
             lambda p: [Tensor("X", (1, p["c"], p["h"], p["h"])), _roi_boxes(p)],
             _roi_align, lambda p, X, boxes: roi_align_np(X, boxes, p["o"], 1.0 / p["st"]),
             lambda p: 8 * SAMPLES * SAMPLES * p["k"] * p["c"] * p["o"] * p["o"],  # 4 multiply-adds a sample
             [wl(c=64, h=32, k=32, o=7, st=8),     # 256 x 256 image, stride-8 map, 7 x 7 box head
              wl(c=128, h=20, k=100, o=7, st=16),  # 320 x 320 image, stride 16, 100 proposals
              wl(c=32, h=56, k=16, o=14, st=4)],   # 224 x 224 image, stride 4, 14 x 14 mask head
             shape_space=ShapeSpace(fixed=frozenset({"st", "o"}))),
]
