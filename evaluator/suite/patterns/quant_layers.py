"""int8 layers with per-channel requantisation, as TFLite Micro and CMSIS-NN run a fully int8 model:
the layers the int8 MLPerf Tiny graphs (``mlperf_tiny_int8``) are made of, each an L2 workload.

Integer semantics (shared with the graphs, which import the helpers below):

* weights int8, symmetric per output channel, drawn in [-127, 127]; activations int8, asymmetric
  with a zero point: ``ZA`` for every ReLU output and model input, ``ZB`` for every output without
  ReLU (a residual branch before its add, logits, the autoencoder's reconstruction);
* ``acc = sum (x - zx) * w + bias`` in int32 (bias int32; padding reads the zero point, i.e. adds 0);
  ``zx`` is ZA, or ZB for a pointwise conv reading a depthwise conv without activation (DS-TCN);
* requantisation per output channel: ``(acc * M + 2^(shift-1)) >> shift`` in int64, ``M`` in
  [2^30, 2^31) and ``shift`` the total right shift. This is TFLite's ``MultiplyByQuantizedMultiplier``
  as built with ``TFLITE_SINGLE_ROUNDING`` (tensorflow/lite/kernels/internal/common.h: one rounding,
  halves towards +inf; TFLite's ``shift`` argument is ``31 - shift``) and the convention
  ``quant.py`` uses;
* then ``+ zy`` and a clamp to [zy, 127] with ReLU (ReLU folded into the clamp, as TFLite folds
  a fused activation) or [-128, 127] without, stored as int8;
* the residual add is TFLite's int8 ADD: both inputs ``(x - z) << 20`` rescaled by their own
  multiplier, summed, rescaled to the output, each step the same single-rounding multiply;
* int8 average pooling rounds halves away from zero in integer arithmetic (TFLite's reference
  AVERAGE_POOL_2D, as ``quant/qavg-pool2d``); input and output share scale and zero point.

Draws: per-channel multipliers in [2^30, 2^31) and shifts in {s0, s0 + 1}, ``s0`` set from the
layer's fan-in and its input's expected spread so the requantised values have a spread of about
:data:`SPREAD` int8 steps (activations neither collapse to the zero point nor saturate), whatever
shape a held-out draw gives the layer. It is an estimate, not a calibration: through a deep graph
of random weights the spread wanders (10 to 50 steps through MobileNet's 27 layers), never to
nothing; ``tests/evaluator/test_int8_models.py`` checks that the outputs still move with the data.

The graphs use the TE operators here for their integer steps (``requant_te``, ``qadd_relu_te``,
``qmean_te``) between Relax convolutions and matmuls; the references are NumPy only.
"""

from __future__ import annotations

import math

import numpy as np
from tvm import te, topi

from evaluator.suite import refs
from evaluator.suite.base import OpPattern, Tensor
from evaluator.suite.declare import wl
from evaluator.suite.heldout import ShapeSpace

ZA = -100          # zero point of ReLU outputs and model inputs (ReLU clamps at it: the fold is visible)
ZB = 5             # zero point of outputs without ReLU
SPREAD = 64.0      # target standard deviation of a requantised value, in int8 steps
RMS_W = math.sqrt(127 * 128 / 3)  # rms of a weight drawn uniformly in [-127, 127]
# rms of the per-channel scale M / 2^shift relative to 2^(31 - s0): M / 2^31 uniform in [1/2, 1),
# shift - s0 in {0, 1}
RMS_SCALE = math.sqrt(7 / 12 * 5 / 8)
BIAS_VAR = 1 / 48  # a bias drawn in +-sigma/4 adds sigma^2/48 to the accumulator's variance
M_LOW, M_HIGH = 1 << 30, 1 << 31
# TFLite ADD (left shift 20): out = a * 0.7 + b * 0.56 in int8 steps, ReLU folded
ADD = dict(left=20, ma=1 << 30, sa=31, mb=1717986918, sb=32, mo=1503238554, so=50)
ADD_GAIN = (ADD["ma"] / 2.0 ** ADD["sa"] * ADD["mo"] / 2.0 ** (ADD["so"] - ADD["left"]),
            ADD["mb"] / 2.0 ** ADD["sb"] * ADD["mo"] / 2.0 ** (ADD["so"] - ADD["left"]))


def rms_uniform_int8(zp: int) -> float:
    """rms of ``x - zp`` for x drawn uniformly in [-128, 127]."""
    x = np.arange(-128, 128, dtype=np.float64) - zp
    return float(np.sqrt((x * x).mean()))


def _shift0(fan_in: int, rms_x: float) -> tuple[float, int]:
    sigma = math.sqrt(fan_in * (1 + BIAS_VAR)) * rms_x * RMS_W  # spread of the int32 accumulator
    return sigma, int(round(31 + math.log2(RMS_SCALE * sigma / SPREAD)))


def quant_draws(fan_in: int, rms_x: float) -> dict[str, tuple[int, int]]:
    """[low, high) of the int32 bias, multiplier and shift draws of a layer whose input ``x - zx``
    has rms ``rms_x`` (see the module doc)."""
    sigma, s0 = _shift0(fan_in, rms_x)
    b = max(1, int(math.sqrt(fan_in) * rms_x * RMS_W / 4))
    return {"bias": (-b, b), "mult": (M_LOW, M_HIGH), "shift": (s0, s0 + 2)}


def requant_spread(fan_in: int, rms_x: float) -> float:
    """Expected standard deviation of the layer's requantised values (before its zero point and
    clamp): a deep graph passes it on, so a power-of-two shift's rounding never compounds."""
    sigma, s0 = _shift0(fan_in, rms_x)
    return RMS_SCALE * sigma * 2.0 ** (31 - s0)


def relu_rms(spread: float) -> float:
    """rms of ``x - ZA`` after a ReLU whose input has standard deviation ``spread`` (zero mean)."""
    return spread / math.sqrt(2.0)


def pooled_rms(spread: float, count: int) -> float:
    """rms of ``avg(x) - ZA`` over ``count`` positions of such a ReLU output."""
    mean2 = 1 / (2 * math.pi)
    return spread * math.sqrt(mean2 + (0.5 - mean2) / count)


def add_spread(spread_a: float, rms_b: float) -> float:
    """Standard deviation of a residual add's rescaled sum (before its ReLU)."""
    return math.hypot(ADD_GAIN[0] * spread_a, ADD_GAIN[1] * rms_b)


def quant_inputs(prefix: str, c_out: int, fan_in: int, rms_x: float) -> list[Tensor]:
    """bias, mult and shift of a layer with ``c_out`` output channels, as workload inputs."""
    return [Tensor(prefix + leaf, (c_out,), "int32", init="randint", low=lo, high=hi)
            for leaf, (lo, hi) in quant_draws(fan_in, rms_x).items()]


def i8(name, shape, low=-128, high=128) -> Tensor:
    return Tensor(name, tuple(shape), "int8", init="randint", low=low, high=high)


def weight(name, shape) -> Tensor:
    return i8(name, shape, -127, 128)  # symmetric: -128 never used (TFLite's weight range)


# --- NumPy (the references: int64 throughout, never TVM) -----------------------------------------

def requant_np(acc, mult, shift, zy, relu, axis=1):
    """int64 accumulator (bias included) → int8 values, per channel along ``axis``."""
    c = lambda v: refs.channel(np.asarray(v, np.int64), np.ndim(acc), axis)  # noqa: E731
    m, s = c(mult), c(shift)
    q = (np.asarray(acc, np.int64) * m + np.left_shift(np.int64(1), s - 1)) >> s
    return np.clip(q + zy, zy if relu else -128, 127)


def rq_scalar_np(x, mult, shift):
    return (np.asarray(x, np.int64) * mult + (1 << (shift - 1))) >> shift


def qconv_np(x, w, bias, mult, shift, stride=1, pad=0, groups=1, relu=True, zx=ZA, zy=None):
    """int8 conv2d (NCHW, OIHW) + bias + per-channel requantisation (+ ReLU); ``pad`` as refs.conv."""
    zy = (ZA if relu else ZB) if zy is None else zy
    acc = np.rint(refs.conv(x - zx, w, stride, pad, 1, groups)).astype(np.int64)
    return requant_np(acc + refs.channel(bias), mult, shift, zy, relu)


def qdense_np(x, w, bias, mult, shift, relu=True, zx=ZA, zy=None):
    zy = (ZA if relu else ZB) if zy is None else zy
    acc = (np.asarray(x, np.int64) - zx) @ np.asarray(w, np.int64).T + bias
    return requant_np(acc, mult, shift, zy, relu, axis=-1)


def qadd_relu_np(a, b, za=ZB, zb=ZA, zy=ZA):
    """TFLite int8 ADD with a fused ReLU."""
    a1 = rq_scalar_np((np.asarray(a, np.int64) - za) << ADD["left"], ADD["ma"], ADD["sa"])
    b1 = rq_scalar_np((np.asarray(b, np.int64) - zb) << ADD["left"], ADD["mb"], ADD["sb"])
    return np.clip(rq_scalar_np(a1 + b1, ADD["mo"], ADD["so"]) + zy, zy, 127)


def qmean_np(x, axes):
    """int8 average over ``axes``, halves away from zero (TFLite's AVERAGE_POOL_2D)."""
    s = np.asarray(x, np.int64).sum(axis=axes)
    cnt = int(np.prod([x.shape[a] for a in axes]))
    return np.sign(s) * ((np.abs(s) + cnt // 2) // cnt)


def qhead_np(x, w, bias, mult, shift, zx=ZA, zy=ZB):
    """Global average pool (int8) → dense → requantised int8 logits."""
    return qdense_np(qmean_np(x, (2, 3)), w, bias, mult, shift, relu=False, zx=zx, zy=zy)


# --- TE (the L2 layers' canonical computes) --------------------------------------------------------

def requant_te(acc, bias, mult, shift, zy, relu, name="T_requantize"):
    """acc (N, C, ...) or (M, C) int32 → int8 with the channel on axis 1 (also the graphs' operator)."""
    def f(*i):
        k = i[1]
        wide = (acc(*i) + bias[k]).astype("int64") * mult[k].astype("int64")
        sh = shift[k].astype("int64")
        q = ((wide + (te.const(1, "int64") << (sh - 1))) >> sh).astype("int32") + zy
        return te.max(te.min(q, 127), zy if relu else -128).astype("int8")
    return te.compute(acc.shape, f, name=name)


def _shifted(X, zp):
    return te.compute(X.shape, lambda *i: X(*i).astype("int32") - zp, name="T_shift")


def _i32(W):
    return te.compute(W.shape, lambda *i: W(*i).astype("int32"), name="T_widen")


def _conv_te(relu):
    def compute(p, X, W, bias, mult, shift):
        acc = topi.nn.conv2d_nchw(_shifted(X, zx_of(p)), _i32(W), p["s"], p["p"], 1, out_dtype="int32")
        return requant_te(acc, bias, mult, shift, ZA if relu else ZB, relu)
    return compute


def _dw_te(relu):
    def compute(p, X, W, bias, mult, shift):
        acc = topi.nn.depthwise_conv2d_nchw(_shifted(X, ZA), _i32(W), p["s"], p["p"], 1, out_dtype="int32")
        return requant_te(acc, bias, mult, shift, ZA if relu else ZB, relu)
    return compute


def _dense_te(relu):
    def compute(p, X, W, bias, mult, shift):
        k = te.reduce_axis((0, p["k"]), name="k")
        acc = te.compute((p["m"], p["n"]), lambda i, j: te.sum((X[i, k].astype("int32") - ZA) * W[j, k].astype("int32"),
                                                               axis=k), name="T_qdense")
        return requant_te(acc, bias, mult, shift, ZA if relu else ZB, relu)
    return compute


def _rq_scalar_te(x, mult, shift):
    return (x * te.const(mult, "int64") + te.const(1 << (shift - 1), "int64")) >> shift


def qadd_relu_te(A, B, zb):
    """TFLite int8 ADD with a fused ReLU (also the graphs' operator)."""
    def f(*i):
        a = _rq_scalar_te((A(*i).astype("int64") - ZB) << ADD["left"], ADD["ma"], ADD["sa"])
        b = _rq_scalar_te((B(*i).astype("int64") - zb) << ADD["left"], ADD["mb"], ADD["sb"])
        q = (_rq_scalar_te(a + b, ADD["mo"], ADD["so"]) + ZA).astype("int32")
        return te.max(te.min(q, 127), ZA).astype("int8")
    return te.compute(A.shape, f, name="T_qadd_relu")


def _add_te(p, A, B):
    return qadd_relu_te(A, B, p["zb"])


def qmean_te(X):
    """int8 (N, C, H, W) → int32 (N, C) average, halves away from zero (also the graphs' operator)."""
    n, c, h, w = (int(d) for d in X.shape)
    ry, rx = te.reduce_axis((0, h), "ry"), te.reduce_axis((0, w), "rx")
    s = te.compute((n, c), lambda b, k: te.sum(X[b, k, ry, rx].astype("int32"), axis=[ry, rx]), name="T_sum")
    cnt = h * w
    return te.compute(s.shape, lambda b, k: te.if_then_else(s[b, k] < 0, -te.floordiv(cnt // 2 - s[b, k], cnt),
                                                               te.floordiv(s[b, k] + cnt // 2, cnt)), name="T_avg")


def _head_te(p, X, W, bias, mult, shift):
    pooled = qmean_te(X)
    j = te.reduce_axis((0, p["c"]), name="j")
    acc = te.compute((p["n"], p["k"]), lambda n, k: te.sum((pooled[n, j] - ZA) * W[k, j].astype("int32"), axis=j),
                     name="T_qdense")
    return requant_te(acc, bias, mult, shift, ZB, False)


# --- shapes, inputs, FLOPs ---------------------------------------------------------------------------

REQUANT = 4   # per output: bias add, multiply, rounding add, shift (as quant/qdense-requant counts)
QADD = 6      # per element, as quant/qadd counts


def zx_of(p) -> int:
    """A layer's input zero point: ZA (it follows a ReLU or is a model input) unless ``zx`` says
    otherwise (a pointwise conv after a depthwise conv without activation, as in DS-TCN)."""
    return p.get("zx", ZA)


def pads(p) -> tuple[int, int, int, int]:
    """(top, left, bottom, right) of a layer's ``p``: an int or a 4-tuple."""
    return (p["p"],) * 4 if isinstance(p["p"], int) else tuple(p["p"])


def kernel(p) -> tuple[int, int]:
    return (p["r"], p["r"]) if isinstance(p["r"], int) else tuple(p["r"])


def conv_out(p) -> tuple[int, int]:
    (t, left, b, r), (kh, kw) = pads(p), kernel(p)
    return (p["h"] + t + b - kh) // p["s"] + 1, (p["w"] + left + r - kw) // p["s"] + 1


def _ref_pad(p):
    t, left, b, r = pads(p)
    return [(t, b), (left, r)]


def _conv_inputs(p, groups=1):
    kh, kw = kernel(p)
    cg = p["c"] // groups
    fan_in = cg * kh * kw
    return ([i8("X", (p["n"], p["c"], p["h"], p["w"])), weight("W", (p["k"], cg, kh, kw))]
            + quant_inputs("", p["k"], fan_in, rms_uniform_int8(zx_of(p))))


def _conv_flops(p, groups=1):
    oh, ow = conv_out(p)
    kh, kw = kernel(p)
    out = p["n"] * p["k"] * oh * ow
    return 2 * out * (p["c"] // groups) * kh * kw + REQUANT * out


def _dw_params(p):
    return {**p, "k": p["c"]}


def _dense_inputs(p):
    return ([i8("X", (p["m"], p["k"])), weight("W", (p["n"], p["k"]))]
            + quant_inputs("", p["n"], p["k"], rms_uniform_int8(ZA)))


def _dense_flops(p):
    return 2 * p["m"] * p["n"] * p["k"] + REQUANT * p["m"] * p["n"]


def _head_inputs(p):
    # the pooled value of a uniform draw is about its mean: (mean - ZA) sets the spread
    return ([i8("X", (p["n"], p["c"], p["h"], p["w"])), weight("W", (p["k"], p["c"]))]
            + quant_inputs("", p["k"], p["c"], -0.5 - ZA))


def head_flops(p):
    """Pool (one add per element, one divide per channel), dense, requantisation of the logits."""
    return p["n"] * (p["c"] * p["h"] * p["w"] + p["c"] + 2 * p["c"] * p["k"] + REQUANT * p["k"])


def add_flops(p):
    return QADD * p["n"] * p["c"] * p["h"] * p["w"]


# held out: kernel, stride and padding stay those of the layer (a 10x4 kernel is not a size)
_CONV_SPACE = ShapeSpace(fixed=frozenset({"r", "s", "p", "zx"}))
_ADD_SPACE = ShapeSpace(fixed=frozenset({"zb"}))

_VIS, _AUD, _AD = ("vision",), ("audio",), ("anomaly-detection",)
ONE, DOWN = (1, 1, 1, 1), (0, 0, 1, 1)  # "same" 3x3: stride 1, and stride 2 at even sizes (Keras)


def _conv_wl(domains, n, c, h, w, k, r, s, p):
    return wl(domains=domains, n=n, c=c, h=h, w=w, k=k, r=r, s=s, p=p)


def _pattern(name, summary, inputs, compute, reference, flops, workloads, space=None, vendor=False):
    """``vendor``: the reference's NumPy expression as the vendor call (``refs.as_vendor``), only
    where NumPy has the op's call; an integer conv or matmul is NumPy's naive loop, not a library."""
    return OpPattern(id=f"quant/{name}", family="quant", level="L2", domains=(), summary=summary, inputs=inputs,
                     compute=compute, reference=reference, flops=flops, workloads=workloads,
                     vendor=refs.as_vendor(reference) if vendor else None, shape_space=space)


# The public workloads are the layers of the five int8 MLPerf Tiny graphs (every shape one of them has).
_CONV_RELU = [
    # ResNet-8 (IC)
    _conv_wl(_VIS, 1, 3, 32, 32, 16, 3, 1, ONE), _conv_wl(_VIS, 1, 16, 32, 32, 16, 3, 1, ONE),
    _conv_wl(_VIS, 1, 16, 32, 32, 32, 3, 2, DOWN), _conv_wl(_VIS, 1, 32, 16, 16, 64, 3, 2, DOWN),
    # DS-CNN (KWS): the 10x4 stride-2 stem, Keras "same" (4 top, 5 bottom), and the pointwise convs
    _conv_wl(_AUD, 1, 1, 49, 10, 64, (10, 4), 2, (4, 1, 5, 1)), _conv_wl(_AUD, 1, 64, 25, 5, 64, 1, 1, 0),
    # MobileNetV1-0.25 (VWW): the stem and the pointwise convs
    _conv_wl(_VIS, 1, 3, 96, 96, 8, 3, 2, DOWN), _conv_wl(_VIS, 1, 8, 48, 48, 16, 1, 1, 0),
    _conv_wl(_VIS, 1, 16, 24, 24, 32, 1, 1, 0), _conv_wl(_VIS, 1, 32, 24, 24, 32, 1, 1, 0),
    _conv_wl(_VIS, 1, 32, 12, 12, 64, 1, 1, 0), _conv_wl(_VIS, 1, 64, 12, 12, 64, 1, 1, 0),
    _conv_wl(_VIS, 1, 64, 6, 6, 128, 1, 1, 0), _conv_wl(_VIS, 1, 128, 6, 6, 128, 1, 1, 0),
    _conv_wl(_VIS, 1, 128, 3, 3, 256, 1, 1, 0), _conv_wl(_VIS, 1, 256, 3, 3, 256, 1, 1, 0),
    # streaming wake word DS-TCN: the pointwise convs, reading a depthwise output (zero point ZB)
    *[wl(domains=_AUD, n=1, c=c, h=h, w=1, k=k, r=1, s=1, p=0, zx=ZB)
      for c, h, k in ((40, 28, 128), (128, 24, 64), (64, 15, 64), (64, 1, 32))],
]
_CONV = [  # ResNet-8: the second conv of each stack and the 1x1 stride-2 shortcuts
    _conv_wl(_VIS, 1, 16, 32, 32, 16, 3, 1, ONE), _conv_wl(_VIS, 1, 32, 16, 16, 32, 3, 1, ONE),
    _conv_wl(_VIS, 1, 64, 8, 8, 64, 3, 1, ONE), _conv_wl(_VIS, 1, 16, 32, 32, 32, 1, 2, 0),
    _conv_wl(_VIS, 1, 32, 16, 16, 64, 1, 2, 0),
]
_DW = [
    wl(domains=_AUD, n=1, c=64, h=25, w=5, r=3, s=1, p=ONE),  # DS-CNN
    # MobileNetV1-0.25
    wl(domains=_VIS, n=1, c=8, h=48, w=48, r=3, s=1, p=ONE), wl(domains=_VIS, n=1, c=16, h=48, w=48, r=3, s=2, p=DOWN),
    wl(domains=_VIS, n=1, c=32, h=24, w=24, r=3, s=1, p=ONE), wl(domains=_VIS, n=1, c=32, h=24, w=24, r=3, s=2, p=DOWN),
    wl(domains=_VIS, n=1, c=64, h=12, w=12, r=3, s=1, p=ONE), wl(domains=_VIS, n=1, c=64, h=12, w=12, r=3, s=2, p=DOWN),
    wl(domains=_VIS, n=1, c=128, h=6, w=6, r=3, s=1, p=ONE), wl(domains=_VIS, n=1, c=128, h=6, w=6, r=3, s=2, p=DOWN),
    wl(domains=_VIS, n=1, c=256, h=3, w=3, r=3, s=1, p=ONE),
]
_DW_LINEAR = [  # streaming wake word DS-TCN: k x 1 temporal depthwise convs, "valid", no activation
    wl(domains=_AUD, n=1, c=c, h=h, w=1, r=(k, 1), s=1, p=0) for c, h, k in ((40, 30, 3), (128, 28, 5), (64, 24, 10),
                                                                            (64, 15, 15))
]

PATTERNS = [
    _pattern("qconv2d-pc-requant-relu",
             f"Y = clamp(requant_pc(conv2d(X - zx, W) + bias) + ({ZA}), {ZA}, 127) (int8 conv, per-channel "
             f"multiplier and shift, ReLU folded; zx = {ZA}, or {ZB} after a linear depthwise)",
             _conv_inputs, _conv_te(True),
             lambda p, X, W, b, m, s: qconv_np(X, W, b, m, s, p["s"], _ref_pad(p), relu=True, zx=zx_of(p)),
             _conv_flops, _CONV_RELU, _CONV_SPACE),
    _pattern("qconv2d-pc-requant",
             f"Y = sat8(requant_pc(conv2d(X - ({ZA}), W) + bias) + {ZB}) (int8 conv, per-channel requantisation, "
             "no activation: a residual branch)",
             _conv_inputs, _conv_te(False),
             lambda p, X, W, b, m, s: qconv_np(X, W, b, m, s, p["s"], _ref_pad(p), relu=False),
             _conv_flops, _CONV, _CONV_SPACE),
    _pattern("qdepthwise-conv2d-pc-requant-relu",
             f"Y = clamp(requant_pc(depthwise_conv2d(X - ({ZA}), W) + bias) + ({ZA}), {ZA}, 127) (int8 depthwise, "
             "per-channel requantisation, ReLU folded)",
             lambda p: _conv_inputs(_dw_params(p), groups=p["c"]), _dw_te(True),
             lambda p, X, W, b, m, s: qconv_np(X, W, b, m, s, p["s"], _ref_pad(p), groups=p["c"], relu=True),
             lambda p: _conv_flops(_dw_params(p), groups=p["c"]), _DW, _CONV_SPACE),
    _pattern("qdepthwise-conv2d-pc-requant",
             f"Y = sat8(requant_pc(depthwise_conv2d(X - ({ZA}), W) + bias) + {ZB}) (int8 depthwise, per-channel "
             "requantisation, no activation: DS-TCN's k x 1 temporal filter)",
             lambda p: _conv_inputs(_dw_params(p), groups=p["c"]), _dw_te(False),
             lambda p, X, W, b, m, s: qconv_np(X, W, b, m, s, p["s"], _ref_pad(p), groups=p["c"], relu=False),
             lambda p: _conv_flops(_dw_params(p), groups=p["c"]), _DW_LINEAR, _CONV_SPACE),
    _pattern("qdense-pc-requant-relu",
             f"Y = clamp(requant_pc((X - ({ZA})) W^T + bias) + ({ZA}), {ZA}, 127) (int8 fully-connected, "
             "per-channel requantisation, ReLU folded)",
             _dense_inputs, _dense_te(True),
             lambda p, X, W, b, m, s: qdense_np(X, W, b, m, s, relu=True),
             _dense_flops, [wl(domains=_AD, m=1, n=128, k=640), wl(domains=_AD, m=1, n=128, k=128),
                            wl(domains=_AD, m=1, n=8, k=128), wl(domains=_AD, m=1, n=128, k=8)]),
    _pattern("qdense-pc-requant",
             f"Y = sat8(requant_pc((X - ({ZA})) W^T + bias) + {ZB}) (int8 fully-connected, per-channel "
             "requantisation, no activation)",
             _dense_inputs, _dense_te(False),
             lambda p, X, W, b, m, s: qdense_np(X, W, b, m, s, relu=False),
             _dense_flops, [wl(domains=_AD, m=1, n=640, k=128), wl(domains=_AUD, m=1, n=3, k=32)]),
    _pattern("qresidual-add-relu",
             f"Y = clamp(rq(rq((A - {ZB}) << 20) + rq((B - zb) << 20)) + ({ZA}), {ZA}, 127) (TFLite int8 ADD, "
             "three single-rounding rescales, ReLU folded)",
             lambda p: [i8("A", (p["n"], p["c"], p["h"], p["w"])), i8("B", (p["n"], p["c"], p["h"], p["w"]))],
             _add_te, lambda p, A, B: qadd_relu_np(A, B, ZB, p["zb"], ZA), add_flops,
             [wl(domains=_VIS, n=1, c=16, h=32, w=32, zb=ZA), wl(domains=_VIS, n=1, c=32, h=16, w=16, zb=ZB),
              wl(domains=_VIS, n=1, c=64, h=8, w=8, zb=ZB)], _ADD_SPACE, vendor=True),
    _pattern("qclassifier-head",
             f"Y = sat8(requant_pc((avgpool_int8(X) - ({ZA})) W^T + bias) + {ZB}) (int8 global average pool, "
             "halves away from zero, then int8 logits)",
             _head_inputs, _head_te, lambda p, X, W, b, m, s: qhead_np(X, W, b, m, s), head_flops,
             [wl(domains=_VIS, n=1, c=64, h=8, w=8, k=10), wl(domains=_AUD, n=1, c=64, h=25, w=5, k=12),
              wl(domains=_VIS, n=1, c=256, h=3, w=3, k=2)]),
]
