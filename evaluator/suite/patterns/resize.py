"""Resizing and resampling: nearest, bilinear (half-pixel and align-corners) and bicubic image
resize, linear 1-D resampling of audio, and bilinear grid sampling (spatial transformers, optical
flow warping) — the upsampling of decoders, FPNs and segmentation heads.

Coordinates follow ONNX/PyTorch: half-pixel ``x_in = (x + 0.5) * in/out - 0.5``, align-corners
``x_in = x * (in - 1)/(out - 1)``; neighbours outside the input are clamped to the border
(grid sampling instead reads zeros there). Bicubic uses A = -0.75 (PyTorch, OpenCV).
"""

import numpy as np
from tvm import topi

from evaluator.suite.base import OpPattern, Tensor
from evaluator.suite.declare import wl

A = -0.75  # bicubic kernel parameter


def _coords(n_in, n_out, mode):
    o = np.arange(n_out, dtype=np.float64)
    if mode == "align_corners":
        return o * ((n_in - 1) / (n_out - 1)) if n_out > 1 else 0 * o
    return (o + 0.5) * (n_in / n_out) - 0.5


def _linear_taps(n_in, n_out, mode):
    """(indices, weights), each (n_out, 2): the two clamped neighbours of every output sample."""
    x = _coords(n_in, n_out, mode)
    x0 = np.floor(x)
    idx = np.stack([np.clip(x0, 0, n_in - 1), np.clip(x0 + 1, 0, n_in - 1)], axis=1).astype(int)
    return idx, np.stack([1 - (x - x0), x - x0], axis=1)


def _cubic(t):
    t = np.abs(t)
    return np.where(t <= 1, ((A + 2) * t - (A + 3)) * t * t + 1,
                    np.where(t < 2, ((A * t - 5 * A) * t + 8 * A) * t - 4 * A, 0.0))


def _cubic_taps(n_in, n_out):
    x = _coords(n_in, n_out, "half_pixel")
    x0 = np.floor(x)
    ks = np.arange(-1, 3)[None, :]
    idx = np.clip(x0[:, None] + ks, 0, n_in - 1).astype(int)
    return idx, _cubic(x[:, None] - (x0[:, None] + ks))


def _apply(X, axis, taps):
    """Y along ``axis`` = sum over taps of weight * X[index]."""
    idx, wgt = taps
    g = np.take(X, idx, axis=axis)  # the axis becomes (n_out, taps)
    shape = [1] * g.ndim
    shape[axis], shape[axis + 1] = wgt.shape
    return (g * wgt.reshape(shape)).sum(axis=axis + 1)


def _separable(X, th, tw):
    return _apply(_apply(X, 2, th), 3, tw)


def _grid_sample_ref(p, X, G):
    n, c, h, w = X.shape
    out = np.zeros((n, c) + G.shape[2:])
    gx = ((G[:, 0] + 1) * w - 1) / 2  # align_corners=False
    gy = ((G[:, 1] + 1) * h - 1) / 2
    x0, y0 = np.floor(gx), np.floor(gy)
    for dy in (0, 1):
        for dx in (0, 1):
            xi, yi = x0 + dx, y0 + dy
            wgt = (1 - np.abs(gx - xi)) * (1 - np.abs(gy - yi))
            ok = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
            xc, yc = np.clip(xi, 0, w - 1).astype(int), np.clip(yi, 0, h - 1).astype(int)
            for b in range(n):
                out[b] += np.where(ok[b], wgt[b], 0.0)[None] * X[b][:, yc[b], xc[b]]
    return out


def _resize2d(p, X, method, mode, rounding=""):
    return topi.image.resize2d(X, (0.0, 0.0, 0.0, 0.0), (p["oh"], p["ow"]), "NCHW", method, mode, rounding)


def _pattern(name, summary, inputs, compute, reference, flops, workloads, domains=("vision",)):
    return OpPattern(id=f"resize/{name}", family="resize", level="L1", domains=domains, summary=summary,
                     inputs=inputs, compute=compute, reference=reference, vendor=reference, flops=flops,
                     workloads=workloads)


def _nchw(p):
    return [Tensor("X", (p["n"], p["c"], p["h"], p["w"]))]


def _out(p, per=1):
    return per * p["n"] * p["c"] * p["oh"] * p["ow"]


PATTERNS = [
    _pattern("upsample-nearest", "Y[n, c, y, x] = X[n, c, floor(y H/OH), floor(x W/OW)] (integer factors)", _nchw,
             lambda p, X: _resize2d(p, X, "nearest_neighbor", "asymmetric", "floor"),
             lambda p, X: X[:, :, (np.arange(p["oh"]) * p["h"]) // p["oh"]][:, :, :,
                                                                            (np.arange(p["ow"]) * p["w"]) // p["ow"]],
             lambda p: 0, [wl(n=1, c=64, h=28, w=28, oh=56, ow=56), wl(n=1, c=128, h=13, w=13, oh=26, ow=26)]),
    _pattern("resize-bilinear", "bilinear resize, half-pixel centres (align_corners=False)", _nchw,
             lambda p, X: _resize2d(p, X, "linear", "half_pixel"),
             lambda p, X: _separable(X, _linear_taps(p["h"], p["oh"], "half_pixel"),
                                     _linear_taps(p["w"], p["ow"], "half_pixel")),
             lambda p: _out(p, 7),
             [wl(n=1, c=21, h=32, w=32, oh=128, ow=128), wl(n=1, c=64, h=56, w=56, oh=40, ow=40)]),
    _pattern("resize-bilinear-align-corners", "bilinear resize, corner pixels aligned (align_corners=True)", _nchw,
             lambda p, X: _resize2d(p, X, "linear", "align_corners"),
             lambda p, X: _separable(X, _linear_taps(p["h"], p["oh"], "align_corners"),
                                     _linear_taps(p["w"], p["ow"], "align_corners")),
             lambda p: _out(p, 7), [wl(n=1, c=32, h=33, w=33, oh=65, ow=65)]),
    _pattern("resize-bicubic", "bicubic resize (4 x 4 neighbours, A = -0.75), half-pixel centres", _nchw,
             lambda p, X: _resize2d(p, X, "cubic", "half_pixel"),
             lambda p, X: _separable(X, _cubic_taps(p["h"], p["oh"]), _cubic_taps(p["w"], p["ow"])),
             lambda p: _out(p, 40), [wl(n=1, c=3, h=64, w=64, oh=128, ow=128)]),
    _pattern("upsample-linear-1d", "linear resampling along time, half-pixel (e.g. 2x audio upsampling)",
             lambda p: [Tensor("X", (p["n"], p["c"], p["w"]))],
             lambda p, X: topi.image.resize1d(X, (0.0, 0.0), (p["ow"],), "NCW", "linear", "half_pixel"),
             lambda p, X: _apply(X, 2, _linear_taps(p["w"], p["ow"], "half_pixel")),
             lambda p: 3 * p["n"] * p["c"] * p["ow"], [wl(n=1, c=1, w=8000, ow=16000), wl(n=1, c=80, w=100, ow=400)],
             domains=("audio", "signal-processing")),
    _pattern("grid-sample", "Y[n, c, y, x] = bilinear sample of X at grid[n, :, y, x] in [-1, 1] (zeros outside)",
             lambda p: [Tensor("X", (p["n"], p["c"], p["h"], p["w"])),
                        Tensor("grid", (p["n"], 2, p["oh"], p["ow"]), init="uniform")],
             lambda p, X, G: topi.image.grid_sample(X, G, "bilinear", "NCHW", "zeros", False),
             _grid_sample_ref, lambda p: _out(p, 10), [wl(n=1, c=32, h=32, w=32, oh=32, ow=32)]),
]
