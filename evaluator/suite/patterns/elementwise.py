"""Elementwise binary and ternary ops, same-shape and broadcasting: residual adds, bias and scale
vectors, masks and blends — the glue between layers on the edge.

Each formula is written once and evaluated with NumPy (float64, the reference) and TE (the
compute). Broadcasting is explicit in the index expressions, as a kernel would write it.
float16 workloads compute in float32 (see ``suite.declare``).
"""

import numpy as np
import tvm
from tvm import te

from evaluator.suite.base import OpPattern, Tensor, Workload
from evaluator.suite.declare import dtype_of, narrow, numel, widen, wl

# --- same-shape binary ops -----------------------------------------------------------------------

_NP = {"pow": np.power, "copysign": np.copysign, "atan2": np.arctan2, "hypot": np.hypot,
       "logaddexp": np.logaddexp, "maximum": np.maximum, "minimum": np.minimum}
_TE = {"pow": te.power, "copysign": tvm.tirx.copysign, "atan2": tvm.tirx.atan2, "hypot": tvm.tirx.hypot,
       "logaddexp": te.logaddexp, "maximum": te.max, "minimum": te.min}

_TOK = dict(shape=(128, 768), domains=("language",))
_IMG = dict(shape=(1, 64, 56, 56), domains=("vision",))
_SPEC = dict(shape=(98, 257), domains=("audio", "signal-processing"))
_FEAT = dict(shape=(64, 512), domains=("recommendation",))
_TAGS = {(128, 768): "m128n768", (1, 64, 56, 56): "n1c64h56w56", (98, 257): "t98f257",
         (64, 512): "b64n512", (1, 32, 112, 112): "n1c32h112w112", (256, 1024): "m256n1024"}


def _same(shape, domains, dtype="float32"):
    params = {"shape": shape} if dtype == "float32" else {"shape": shape, "dtype": dtype}
    return Workload(_TAGS[shape] + ("" if dtype == "float32" else "-f16"), params, domains=domains)


def _binary(name, fn, ops, summary, workloads, inits=("normal", "normal")):
    """``fn(a, b, ops)`` with ``ops`` a name → function table (NumPy or TE)."""

    def compute(p, A, B):
        a, b = widen(A), widen(B)
        y = te.compute(A.shape, lambda *i: fn(a(*i), b(*i), _TE), name="T_" + name.replace("-", "_"))
        return narrow(y, dtype_of(p))

    return OpPattern(
        id=f"elementwise/{name}", family="elementwise", level="L1", domains=(), summary=summary,
        inputs=lambda p: [Tensor("A", tuple(p["shape"]), dtype_of(p), init=inits[0]),
                          Tensor("B", tuple(p["shape"]), dtype_of(p), init=inits[1])],
        compute=compute,
        reference=lambda p, A, B: fn(A, B, _NP),
        vendor=lambda p, A, B: fn(A, B, _NP),
        flops=lambda p: ops * numel(p["shape"]),
        workloads=[_same(**w) for w in workloads],
    )


def _ternary(name, fn, ops, summary, workloads, inits=("normal", "normal", "normal"), dtypes=None,
             names="ABC"):
    def compute(p, A, B, C):
        a, b, c = widen(A), widen(B), widen(C)
        y = te.compute(A.shape, lambda *i: fn(a(*i), b(*i), c(*i), _TE), name="T_" + name.replace("-", "_"))
        return narrow(y, dtype_of(p))

    def inputs(p):
        dts = dtypes or (dtype_of(p),) * 3
        kw = [dict(low=0, high=2) if init == "randint" else {} for init in inits]
        return [Tensor(n, tuple(p["shape"]), dt, init=init, **k)
                for n, dt, init, k in zip(names, dts, inits, kw)]

    return OpPattern(
        id=f"elementwise/{name}", family="elementwise", level="L1", domains=(), summary=summary,
        inputs=inputs, compute=compute,
        reference=lambda p, A, B, C: fn(A, B, C, _NP),
        vendor=lambda p, A, B, C: fn(A, B, C, _NP),
        flops=lambda p: ops * numel(p["shape"]),
        workloads=[_same(**w) for w in workloads],
    )


def _where(m, t, a, b):
    return (te.if_then_else if m is _TE else np.where)(t, a, b)


# --- broadcasting ops ----------------------------------------------------------------------------

def _bcast(name, summary, inputs, compute, reference, flops, workloads):
    return OpPattern(id=f"elementwise/{name}", family="elementwise", level="L1", domains=(),
                     summary=summary, inputs=inputs, compute=compute, reference=reference,
                     vendor=reference, flops=flops, workloads=workloads)


def _nchw(p):
    return (p["n"], p["c"], p["h"], p["w"])


_VIS = ("vision",)

PATTERNS = [
    OpPattern(
        id="elementwise/add-bias",
        family="elementwise",
        level="L1",
        domains=("language",),
        summary="Y[m, n] = X[m, n] + b[n] (row-broadcast bias)",
        inputs=lambda p: [Tensor("X", (p["m"], p["n"])), Tensor("b", (p["n"],))],
        compute=lambda p, X, b: te.compute(X.shape, lambda i, j: X[i, j] + b[j], name="T_add"),
        reference=lambda p, X, b: X + b[None, :],
        vendor=lambda p, X, b: X + b,
        flops=lambda p: p["m"] * p["n"],
        workloads=[
            Workload("m128n768", {"m": 128, "n": 768}),
            Workload("m256n1024", {"m": 256, "n": 1024}, domains=("recommendation",)),
        ],
    ),
    OpPattern(
        id="elementwise/mul-channel",
        family="elementwise",
        level="L1",
        domains=("vision",),
        summary="Y[n, c, h, w] = X[n, c, h, w] * s[c] (per-channel scale, e.g. squeeze-excite)",
        inputs=lambda p: [Tensor("X", (p["n"], p["c"], p["h"], p["w"])), Tensor("s", (p["c"],))],
        compute=lambda p, X, s: te.compute(
            X.shape, lambda n, c, h, w: X[n, c, h, w] * s[c], name="T_multiply"),
        reference=lambda p, X, s: X * s[None, :, None, None],
        vendor=lambda p, X, s: X * s[:, None, None],
        flops=lambda p: p["n"] * p["c"] * p["h"] * p["w"],
        workloads=[
            Workload("n1c64h56w56", {"n": 1, "c": 64, "h": 56, "w": 56}),
            Workload("n1c256h14w14", {"n": 1, "c": 256, "h": 14, "w": 14}),
        ],
    ),
    _binary("add", lambda a, b, m: a + b, 1, "Y = A + B (residual connection)",
            [_IMG, _TOK, dict(_TOK, dtype="float16"), dict(_IMG, dtype="float16")]),
    _binary("sub", lambda a, b, m: a - b, 1, "Y = A - B", [_SPEC, _FEAT, dict(_FEAT, dtype="float16")]),
    _binary("mul", lambda a, b, m: a * b, 1, "Y = A * B (gating)", [_TOK, dict(_TOK, dtype="float16")]),
    _binary("div", lambda a, b, m: a / b, 1, "Y = A / B, B > 0", [_SPEC, _FEAT], inits=("normal", "positive")),
    _binary("maximum", lambda a, b, m: m["maximum"](a, b), 1, "Y = max(A, B)",
            [_IMG, _SPEC, dict(_IMG, dtype="float16")]),
    _binary("minimum", lambda a, b, m: m["minimum"](a, b), 1, "Y = min(A, B)", [_IMG]),
    _binary("pow", lambda a, b, m: m["pow"](a, b), 1, "Y = A ^ B, A > 0", [_SPEC],
            inits=("positive", "uniform")),
    _binary("squared-diff", lambda a, b, m: (a - b) * (a - b), 2, "Y = (A - B)^2",
            [_FEAT, _SPEC, dict(_FEAT, dtype="float16")]),
    _binary("copysign", lambda a, b, m: m["copysign"](a, b), 1, "Y = |A| with the sign of B", [_SPEC]),
    _binary("atan2", lambda a, b, m: m["atan2"](a, b), 1, "Y = atan2(A, B) (phase of B + iA)", [_SPEC]),
    _binary("hypot", lambda a, b, m: m["hypot"](a, b), 3, "Y = sqrt(A^2 + B^2) (magnitude of A + iB)",
            [_SPEC]),
    _binary("logaddexp", lambda a, b, m: m["logaddexp"](a, b), 4, "Y = log(exp(A) + exp(B)) (CTC, HMMs)",
            [_SPEC, _TOK]),
    _ternary("where", lambda c, a, b, m: _where(m, c != 0, a, b), 1,
             "Y = A if M != 0 else B (M int8 mask)", [_TOK, _IMG],
             inits=("randint", "normal", "normal"), dtypes=("int8", "float32", "float32"), names="MAB"),
    _ternary("fma", lambda a, b, c, m: a * b + c, 2, "Y = A * B + C", [_TOK, _FEAT, dict(_TOK, dtype="float16")]),
    _ternary("lerp", lambda a, b, t, m: a + t * (b - a), 3, "Y = A + T (B - A) (blending, EMA)",
             [_IMG, _SPEC], inits=("normal", "normal", "uniform")),
    _ternary("add3", lambda a, b, c, m: a + b + c, 2,
             "Y = A + B + C (token + position + segment embeddings)", [_TOK, dict(_TOK, dtype="float16")]),
    _bcast("add-channel", "Y[n, c, h, w] = X[n, c, h, w] + b[c] (NCHW bias)",
           lambda p: [Tensor("X", _nchw(p)), Tensor("b", (p["c"],))],
           lambda p, X, b: te.compute(X.shape, lambda n, c, h, w: X[n, c, h, w] + b[c], name="T_add"),
           lambda p, X, b: X + b[None, :, None, None],
           lambda p: numel(_nchw(p)),
           [wl(n=1, c=64, h=56, w=56, domains=_VIS), wl(n=1, c=256, h=14, w=14, domains=_VIS),
            wl(n=1, c=32, h=32, w=32, domains=_VIS), wl(n=1, c=16, h=64, w=64, domains=_VIS),
            wl(n=1, c=2, h=64, w=64, domains=_VIS)]),
    _bcast("add-col", "Y[m, n] = X[m, n] + b[m] (column-broadcast, e.g. per-row offset)",
           lambda p: [Tensor("X", (p["m"], p["n"])), Tensor("b", (p["m"],))],
           lambda p, X, b: te.compute(X.shape, lambda i, j: X[i, j] + b[i], name="T_add"),
           lambda p, X, b: X + b[:, None],
           lambda p: p["m"] * p["n"],
           [wl(m=98, n=257, domains=("audio",)), wl(m=512, n=512, domains=("linear-algebra",))]),
    _bcast("outer-add", "Y[m, n] = a[m] + b[n]",
           lambda p: [Tensor("a", (p["m"],)), Tensor("b", (p["n"],))],
           lambda p, a, b: te.compute((p["m"], p["n"]), lambda i, j: a[i] + b[j], name="T_add"),
           lambda p, a, b: a[:, None] + b[None, :],
           lambda p: p["m"] * p["n"],
           [wl(m=512, n=512, domains=("linear-algebra",))]),
    _bcast("mul-row", "Y[m, n] = X[m, n] * s[n] (per-feature scale, window, lifter)",
           lambda p: [Tensor("X", (p["m"], p["n"])), Tensor("s", (p["n"],))],
           lambda p, X, s: te.compute(X.shape, lambda i, j: X[i, j] * s[j], name="T_multiply"),
           lambda p, X, s: X * s[None, :],
           lambda p: p["m"] * p["n"],
           [wl(m=98, n=400, domains=("audio", "signal-processing")), wl(m=128, n=768, domains=("language",))]),
    _bcast("prelu-channel", "Y = X if X > 0 else a[c] X, NCHW (PReLU)",
           lambda p: [Tensor("X", _nchw(p)), Tensor("a", (p["c"],), init="uniform")],
           lambda p, X, a: te.compute(X.shape, lambda n, c, h, w: te.if_then_else(
               X[n, c, h, w] > 0.0, X[n, c, h, w], a[c] * X[n, c, h, w]), name="T_prelu"),
           lambda p, X, a: np.where(X > 0, X, a[None, :, None, None] * X),
           lambda p: 2 * numel(_nchw(p)),
           [wl(n=1, c=32, h=112, w=112, domains=_VIS), wl(n=1, c=64, h=56, w=56, domains=_VIS)]),
    _bcast("scale-shift-channel", "Y[n, c, h, w] = X[n, c, h, w] * s[c] + b[c] (folded BatchNorm)",
           lambda p: [Tensor("X", _nchw(p)), Tensor("s", (p["c"],), init="positive"), Tensor("b", (p["c"],))],
           lambda p, X, s, b: te.compute(X.shape, lambda n, c, h, w: X[n, c, h, w] * s[c] + b[c],
                                         name="T_scale_shift"),
           lambda p, X, s, b: X * s[None, :, None, None] + b[None, :, None, None],
           lambda p: 2 * numel(_nchw(p)),
           [wl(n=1, c=64, h=56, w=56, domains=_VIS), wl(n=1, c=128, h=28, w=28, domains=_VIS)]),
    _bcast("axpy", "Y = alpha * X + Z, alpha a 1-element tensor (BLAS axpy)",
           lambda p: [Tensor("alpha", (1,)), Tensor("X", (p["n"],)), Tensor("Z", (p["n"],))],
           lambda p, alpha, X, Z: te.compute(X.shape, lambda i: alpha[0] * X[i] + Z[i], name="T_axpy"),
           lambda p, alpha, X, Z: alpha[0] * X + Z,
           lambda p: 2 * p["n"],
           [wl(n=65536, domains=("linear-algebra",)), wl(n=16000, domains=("signal-processing",))]),
]
