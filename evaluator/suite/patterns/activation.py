"""Elementwise activations: memory-bound epilogues that follow nearly every conv/dense layer.

FLOPs count the arithmetic operations of each formula per element (a transcendental counts as 1).
"""

import math
from types import SimpleNamespace

import numpy as np
from tvm import te

from evaluator.suite.base import OpPattern, Tensor, Workload

_C = math.sqrt(2.0 / math.pi)  # GELU tanh-approximation constant


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


# The formulas above take their scalar ops from `m`: NumPy for the reference, TE for the compute.
_TE = SimpleNamespace(maximum=te.max, minimum=te.min, tanh=te.tanh, exp=te.exp)


_NCHW = Workload("n1c64h56w56", {"shape": (1, 64, 56, 56)}, domains=("vision",))
_TOKENS = Workload("m128n768", {"shape": (128, 768)}, domains=("language",))
_NCHW_SMALL = Workload("n1c96h28w28", {"shape": (1, 96, 28, 28)}, domains=("vision",))


def _pattern(name, fn, ops, summary, workloads, domains=()):
    def compute(p, X):
        return te.compute(X.shape, lambda *i: fn(X(*i), _TE), name="T_" + name.replace("-", "_"))

    return OpPattern(
        id=f"activation/{name}",
        family="activation",
        level="L1",
        domains=domains,
        summary=summary,
        inputs=lambda p: [Tensor("X", tuple(p["shape"]))],
        compute=compute,
        reference=lambda p, X: fn(X, np),  # evaluated in float64
        vendor=lambda p, X: fn(X, np),
        flops=lambda p: ops * int(np.prod(p["shape"])),
        workloads=workloads,
    )


PATTERNS = [
    _pattern("relu", _relu, 1, "Y = max(X, 0)", [_NCHW, _TOKENS]),
    _pattern("relu6", _relu6, 2, "Y = min(max(X, 0), 6) (MobileNet)", [_NCHW, _NCHW_SMALL]),
    _pattern("gelu-tanh", _gelu_tanh, 9, "Y = 0.5 X (1 + tanh(sqrt(2/pi) (X + 0.044715 X^3)))",
             [_TOKENS]),
    _pattern("sigmoid", _sigmoid, 4, "Y = 1 / (1 + exp(-X))", [_NCHW, _TOKENS]),
    _pattern("hard-swish", _hard_swish, 5, "Y = X relu6(X + 3) / 6 (MobileNetV3)", [_NCHW_SMALL]),
]
