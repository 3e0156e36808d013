"""Elementwise unary functions: activations and the math functions models and DSP code apply
to every element. Memory-bound epilogues that follow nearly every conv/dense layer.

One formula per pattern, written once and evaluated twice: with NumPy (float64) for the reference
and with TE for the compute. FLOPs count the arithmetic operations of each formula per element
(a transcendental counts as 1). float16 workloads compute in float32 (see ``suite.declare``).
"""

import math
from types import SimpleNamespace

import numpy as np
import tvm
from tvm import te

from evaluator.suite import refs
from evaluator.suite.base import OpPattern, Tensor, Workload
from evaluator.suite.declare import dtype_of, narrow, numel, widen

_C = math.sqrt(2.0 / math.pi)  # GELU tanh-approximation constant
_SELU_A, _SELU_L = 1.6732632423543772, 1.0507009873554805
_SHRINK = 0.5


def _relu(x, m):
    return m.maximum(x, 0.0)


def _relu6(x, m):
    return m.minimum(m.maximum(x, 0.0), 6.0)


def _gelu_tanh(x, m):
    return 0.5 * x * (1.0 + m.tanh(_C * (x + 0.044715 * x * x * x)))


def _sigmoid(x, m):
    return 1.0 / (1.0 + m.exp(-x))


def _hard_swish(x, m):
    return x * m.minimum(m.maximum(x + 3.0, 0.0), 6.0) / 6.0


def _softplus(x, m):
    return m.log1p(m.exp(x))


# The formulas take their scalar ops from `m`: NumPy for the reference, TE for the compute.
_NP = SimpleNamespace(maximum=np.maximum, minimum=np.minimum, tanh=np.tanh, exp=np.exp, log=np.log,
                      log1p=np.log1p, expm1=np.expm1, sqrt=np.sqrt, erf=refs.erf, sin=np.sin,
                      cos=np.cos, abs=np.abs, floor=np.floor, ceil=np.ceil, rint=np.rint,
                      atan=np.arctan, where=np.where)
_TE = SimpleNamespace(maximum=te.max, minimum=te.min, tanh=te.tanh, exp=te.exp, log=te.log,
                      log1p=tvm.tirx.log1p, expm1=lambda x: te.exp(x) - 1.0, sqrt=te.sqrt,
                      erf=te.erf, sin=te.sin, cos=te.cos, abs=te.abs, floor=te.floor, ceil=te.ceil,
                      rint=te.nearbyint, atan=tvm.tirx.atan, where=te.if_then_else)


def _shape(tag, shape, domains, dtype="float32"):
    params = {"shape": shape} if dtype == "float32" else {"shape": shape, "dtype": dtype}
    return Workload(tag if dtype == "float32" else f"{tag}-f16", params, domains=domains)


_NCHW = _shape("n1c64h56w56", (1, 64, 56, 56), ("vision",))
_TOKENS = _shape("m128n768", (128, 768), ("language",))
_NCHW_SMALL = _shape("n1c96h28w28", (1, 96, 28, 28), ("vision",))
_TOKENS16 = _shape("m128n768", (128, 768), ("language",), "float16")
_NCHW16 = _shape("n1c96h28w28", (1, 96, 28, 28), ("vision",), "float16")
_FRAMES = _shape("t98f257", (98, 257), ("audio", "signal-processing"))
_FEATURES = _shape("b64n512", (64, 512), ("recommendation",))
_SIGNAL = _shape("n16000", (16000,), ("signal-processing", "audio"))


def _pattern(name, fn, ops, summary, workloads, domains=(), init="normal", scale=1.0):
    """``scale``: of the standard-normal inputs, so that every piece of a piecewise formula is
    reached by a few percent of the elements (relu6's clamp at 6 is never reached at 1; a
    kernel without it was correct on every input set)."""
    def compute(p, X):
        x = widen(X)
        y = te.compute(X.shape, lambda *i: fn(x(*i), _TE), name="T_" + name.replace("-", "_"))
        return narrow(y, dtype_of(p))

    return OpPattern(
        id=f"activation/{name}",
        family="activation",
        level="L1",
        domains=domains,
        summary=summary,
        inputs=lambda p: [Tensor("X", tuple(p["shape"]), dtype_of(p), init=init, scale=scale)],
        compute=compute,
        reference=lambda p, X: fn(X, _NP),  # evaluated in float64
        vendor=lambda p, X: fn(X, _NP),
        flops=lambda p: ops * numel(p["shape"]),
        workloads=workloads,
    )


PATTERNS = [
    _pattern("relu", _relu, 1, "Y = max(X, 0)", [_NCHW, _TOKENS, _TOKENS16]),
    _pattern("relu6", _relu6, 2, "Y = min(max(X, 0), 6) (MobileNet)", [_NCHW, _NCHW_SMALL, _NCHW16], scale=4.0),
    _pattern("gelu-tanh", _gelu_tanh, 9, "Y = 0.5 X (1 + tanh(sqrt(2/pi) (X + 0.044715 X^3)))",
             [_TOKENS, _TOKENS16]),
    _pattern("sigmoid", _sigmoid, 4, "Y = 1 / (1 + exp(-X))", [_NCHW, _TOKENS, _TOKENS16]),
    _pattern("hard-swish", _hard_swish, 5, "Y = X relu6(X + 3) / 6 (MobileNetV3)", [_NCHW_SMALL, _NCHW16],
             scale=2.0),
    _pattern("leaky-relu", lambda x, m: m.where(x > 0.0, x, 0.1 * x), 2,
             "Y = X if X > 0 else 0.1 X (YOLO-tiny)", [_NCHW, _NCHW16]),
    _pattern("elu", lambda x, m: m.where(x > 0.0, x, m.exp(x) - 1.0), 3,
             "Y = X if X > 0 else exp(X) - 1", [_NCHW_SMALL, _FEATURES, _NCHW16]),
    _pattern("selu", lambda x, m: _SELU_L * m.where(x > 0.0, x, _SELU_A * (m.exp(x) - 1.0)), 4,
             "Y = 1.0507 (X if X > 0 else 1.6733 (exp(X) - 1))", [_FEATURES]),
    _pattern("gelu-erf", lambda x, m: 0.5 * x * (1.0 + m.erf(x * (1.0 / math.sqrt(2.0)))), 5,
             "Y = 0.5 X (1 + erf(X / sqrt(2))) (BERT, ViT)", [_TOKENS, _TOKENS16]),
    _pattern("quick-gelu", lambda x, m: x * _sigmoid(1.702 * x, m), 6,
             "Y = X sigmoid(1.702 X) (CLIP)", [_TOKENS, _TOKENS16]),
    _pattern("silu", lambda x, m: x * _sigmoid(x, m), 5, "Y = X sigmoid(X) (swish; EfficientNet, LLaMA)",
             [_NCHW_SMALL, _TOKENS16]),
    _pattern("mish", lambda x, m: x * m.tanh(_softplus(x, m)), 5, "Y = X tanh(log(1 + exp(X))) (YOLOv4)",
             [_NCHW_SMALL, _NCHW16]),
    _pattern("softplus", _softplus, 3, "Y = log(1 + exp(X))", [_FEATURES, _FRAMES]),
    _pattern("softsign", lambda x, m: x / (1.0 + m.abs(x)), 3, "Y = X / (1 + |X|)", [_FEATURES]),
    _pattern("tanh", lambda x, m: m.tanh(x), 1, "Y = tanh(X) (RNN gates)", [_TOKENS, _FRAMES, _TOKENS16]),
    _pattern("hard-sigmoid", lambda x, m: m.minimum(m.maximum(x + 3.0, 0.0), 6.0) / 6.0, 4,
             "Y = relu6(X + 3) / 6 (MobileNetV3 squeeze-excite gate)", [_NCHW_SMALL, _NCHW16], scale=2.0),
    _pattern("hard-tanh", lambda x, m: m.minimum(m.maximum(x, -1.0), 1.0), 2, "Y = min(max(X, -1), 1)",
             [_FRAMES]),
    _pattern("log-sigmoid", lambda x, m: -m.log1p(m.exp(-x)), 4, "Y = -log(1 + exp(-X))", [_FEATURES]),
    _pattern("tanh-shrink", lambda x, m: x - m.tanh(x), 2, "Y = X - tanh(X)", [_FRAMES]),
    _pattern("soft-shrink", lambda x, m: m.where(x > _SHRINK, x - _SHRINK,
                                                 m.where(x < -_SHRINK, x + _SHRINK, 0.0 * x)), 3,
             "Y = X - 0.5 if X > 0.5, X + 0.5 if X < -0.5, else 0 (denoising)", [_FRAMES]),
    _pattern("hard-shrink", lambda x, m: m.where(m.abs(x) > _SHRINK, x, 0.0 * x), 2,
             "Y = X if |X| > 0.5 else 0", [_FRAMES]),
    _pattern("exp", lambda x, m: m.exp(x), 1, "Y = exp(X)", [_TOKENS, _FRAMES, _TOKENS16]),
    _pattern("log", lambda x, m: m.log(x), 1, "Y = log(X), X > 0 (log-mel, log-probabilities)",
             [_FRAMES, _TOKENS16], init="positive"),
    _pattern("sqrt", lambda x, m: m.sqrt(x), 1, "Y = sqrt(X), X > 0", [_FRAMES], init="positive"),
    _pattern("rsqrt", lambda x, m: 1.0 / m.sqrt(x), 2, "Y = 1 / sqrt(X), X > 0", [_FEATURES], init="positive"),
    _pattern("reciprocal", lambda x, m: 1.0 / x, 1, "Y = 1 / X, X > 0", [_FEATURES], init="positive"),
    _pattern("abs", lambda x, m: m.abs(x), 1, "Y = |X|", [_SIGNAL, _FRAMES]),
    _pattern("square", lambda x, m: x * x, 1, "Y = X^2", [_SIGNAL, _TOKENS, _TOKENS16]),
    _pattern("erf", lambda x, m: m.erf(x), 1, "Y = erf(X)", [_TOKENS, _TOKENS16]),
    _pattern("sin", lambda x, m: m.sin(x), 1, "Y = sin(X) (positional encodings, oscillators)",
             [_TOKENS, _SIGNAL, _TOKENS16]),
    _pattern("cos", lambda x, m: m.cos(x), 1, "Y = cos(X)", [_TOKENS, _SIGNAL, _TOKENS16]),
    _pattern("sign", lambda x, m: m.where(x > 0.0, 1.0 + 0.0 * x, m.where(x < 0.0, -1.0 + 0.0 * x, 0.0 * x)),
             2, "Y = 1 if X > 0, -1 if X < 0, else 0", [_SIGNAL]),
    _pattern("log1p", lambda x, m: m.log1p(x), 1, "Y = log(1 + X), X > 0 (log compression)", [_FRAMES],
             init="positive"),
    _pattern("expm1", lambda x, m: m.expm1(x), 2, "Y = exp(X) - 1", [_FEATURES]),
    _pattern("atan", lambda x, m: m.atan(x), 1, "Y = arctan(X)", [_SIGNAL]),
    _pattern("floor", lambda x, m: m.floor(x), 1, "Y = floor(X)", [_FEATURES]),
    _pattern("ceil", lambda x, m: m.ceil(x), 1, "Y = ceil(X)", [_FEATURES]),
    _pattern("round", lambda x, m: m.rint(x), 1, "Y = X rounded to the nearest integer, halves to even",
             [_FEATURES, _NCHW16]),
    _pattern("relu-squared", lambda x, m: m.maximum(x, 0.0) * m.maximum(x, 0.0), 2,
             "Y = max(X, 0)^2 (Primer)", [_TOKENS, _TOKENS16]),
]
