"""Convolution shapes of edge models the square 3 x 3 patterns leave out: rectangular depthwise
kernels (k x 1 over time and 1 x k over frequency, as keyword-spotting DS-TCN / TC-ResNet-style
models use), 5 x 5 depthwise (MobileNetV3, EfficientNet-Lite; NHWC as TFLite runs them) and 7 x 7
depthwise (ConvNeXt; NCHW as PyTorch runs them), and the 7 x 7 stride-2 ResNet stem at edge
resolutions (96 to 128 pixels).

Padding is PyTorch's ``k // 2`` per axis (symmetric; the stem's 3). The patterns belong to the
depthwise-conv2d and conv2d families; their references are ``refs.conv`` in NCHW with the layouts
transposed around it.
"""

from tvm import topi

from evaluator.suite import refs
from evaluator.suite.base import OpPattern, Tensor
from evaluator.suite.declare import wl
from evaluator.suite.heldout import ShapeSpace


def _out(size, k, s, pad):
    return (size + 2 * pad - k) // s + 1


def _kernel(p):
    """(kernel height, kernel width): ``kh``/``kw`` for rectangular kernels, else ``r`` square."""
    return (p["kh"], p["kw"]) if "kh" in p else (p["r"], p["r"])


def _pads(p):
    """(top and bottom, left and right) padding: ``p`` where given, else half the kernel."""
    if "p" in p:
        return p["p"], p["p"]
    kh, kw = _kernel(p)
    return kh // 2, kw // 2


def _flops(p, groups=1):
    (kh, kw), (ph, pw) = _kernel(p), _pads(p)
    oh, ow = _out(p["h"], kh, p["s"], ph), _out(p["w"], kw, p["s"], pw)
    return 2 * p["n"] * p.get("k", p["c"]) * oh * ow * (p["c"] // groups) * kh * kw


def _pattern(pid, summary, inputs, compute, reference, workloads, flops, shape_space=None):
    return OpPattern(id=pid, family=pid.split("/")[0], level="L1", domains=("vision",), summary=summary, inputs=inputs,
                     compute=compute, reference=reference, vendor=None, flops=flops, workloads=workloads,
                     shape_space=shape_space)


# --- depthwise --------------------------------------------------------------------------------------

def _dw_nhwc_inputs(p):
    kh, kw = _kernel(p)
    return [Tensor("X", (p["n"], p["h"], p["w"], p["c"])),
            Tensor("W", (kh, kw, p["c"], 1), scale=(1.0 / (kh * kw)) ** 0.5)]


def _dw_nhwc(p, X, W):
    return topi.nn.depthwise_conv2d_nhwc(X, W, p["s"], _pads(p), 1, out_dtype="float32")


def _dw_nhwc_ref(p, X, W):
    w = W.transpose(2, 3, 0, 1)  # (kh, kw, C, 1) -> (C, 1, kh, kw)
    return refs.conv(X.transpose(0, 3, 1, 2), w, p["s"], list(_pads(p)), 1, p["c"]).transpose(0, 2, 3, 1)


def _dw_nchw(p, X, W):
    return topi.nn.depthwise_conv2d_nchw(X, W, p["s"], _pads(p), 1)


def _dw_nchw_ref(p, X, W):
    return refs.conv(X, W, p["s"], list(_pads(p)), 1, p["c"])


def _dw_flops(p):
    return _flops(p, p["c"])


# --- conv2d -----------------------------------------------------------------------------------------

def _stem(p, X, W):
    return topi.nn.conv2d_nchw(X, W, p["s"], p["p"], 1)


PATTERNS = [
    _pattern("depthwise-conv2d/depthwise-conv2d-nhwc-asym",
             "Y[n, y, x, c] = sum_{i < kh, j < kw} X[n, y*s + i - kh/2, x*s + j - kw/2, c] * W[i, j, c, 0] "
             "(rectangular k x 1 / 1 x k kernels: temporal and frequency convs of keyword spotters)",
             _dw_nhwc_inputs, _dw_nhwc, _dw_nhwc_ref,
             [wl(n=1, h=98, w=1, c=64, kh=3, kw=1, s=1, domains=("audio",)),    # 98 frames x 1, MFCCs as channels
              wl(n=1, h=98, w=1, c=128, kh=5, kw=1, s=2, domains=("audio",)),   # strided 5 x 1 (time downsampling)
              wl(n=1, h=49, w=10, c=64, kh=1, kw=3, s=1, domains=("audio",)),   # 1 x 3 across the 10 MFCC bins
              wl(n=1, h=49, w=10, c=64, kh=9, kw=1, s=1, domains=("audio",)),   # TC-ResNet's 9-frame window
              wl(n=1, h=28, w=28, c=96, kh=1, kw=7, s=1)],                      # factorised 1 x 7 (Inception-style)
             _dw_flops, ShapeSpace(fixed=frozenset({"kh", "kw"}))),
    _pattern("depthwise-conv2d/depthwise-conv2d-nhwc-5x5",
             "Y[n, y, x, c] = sum_{i, j < 5} X[n, y*s + i - 2, x*s + j - 2, c] * W[i, j, c, 0] "
             "(MobileNetV3, EfficientNet-Lite)",
             _dw_nhwc_inputs, _dw_nhwc, _dw_nhwc_ref,
             [wl(n=1, h=56, w=56, c=72, r=5, s=2),     # MobileNetV3-Large at 224: the first 5 x 5 (stride 2)
              wl(n=1, h=28, w=28, c=120, r=5, s=1),    # and the next (stride 1)
              wl(n=1, h=14, w=14, c=576, r=5, s=2)],   # MobileNetV3-Small: into its 7 x 7 stage
             _dw_flops),
    _pattern("depthwise-conv2d/depthwise-conv2d-nchw-7x7",
             "Y[n, c, y, x] = sum_{i, j < 7} X[n, c, y*s + i - 3, x*s + j - 3] * W[c, 0, i, j] "
             "(ConvNeXt's token mixer)",
             lambda p: [Tensor("X", (p["n"], p["c"], p["h"], p["w"])),
                        Tensor("W", (p["c"], 1, p["r"], p["r"]), scale=1.0 / p["r"])],
             _dw_nchw, _dw_nchw_ref,
             [wl(n=1, c=40, h=56, w=56, r=7, s=1),     # ConvNeXt-atto at 224: stages 1 to 3
              wl(n=1, c=80, h=28, w=28, r=7, s=1),
              wl(n=1, c=160, h=14, w=14, r=7, s=1)],
             _dw_flops),
    _pattern("conv2d/conv2d-nchw-stem7x7",
             "Y[n, k, y, x] = sum_{c, i, j < 7} X[n, c, 2y + i - 3, 2x + j - 3] * W[k, c, i, j] "
             "(ResNet-style stem, stride 2)",
             lambda p: [Tensor("X", (p["n"], p["c"], p["h"], p["w"])),
                        Tensor("W", (p["k"], p["c"], p["r"], p["r"]), scale=(2.0 / (p["c"] * p["r"] ** 2)) ** 0.5)],
             _stem, lambda p, X, W: refs.conv(X, W, p["s"], p["p"]),
             [wl(n=1, c=3, h=112, w=112, k=64, r=7, s=2, p=3),   # ResNet's stem at 112 x 112
              wl(n=1, c=3, h=128, w=128, k=32, r=7, s=2, p=3),   # a slimmer stem at 128 x 128
              wl(n=1, c=1, h=96, w=96, k=24, r=7, s=2, p=3)],     # grayscale 96 x 96 (person detection)
             _flops),
]
