"""Quantised (int8) ops as edge runtimes (TFLite Micro, CMSIS-NN, XNNPACK) run them: quantise and
dequantise (per tensor and per channel, static, dynamic and fake), int8 matmul/GEMV/conv with
int32 accumulation, requantisation with a fixed-point multiplier, the fused int8 layers
(dense/conv + bias + requantise + ReLU, quantised add), int8 pooling and table-lookup
activations, 4-bit weight unpacking and weight-only-quantised GEMV.

Integer outputs are compared exactly, so every reference follows the kernel's arithmetic bit for
bit: float-to-integer rounding is to nearest with halves to even (what ``te.round`` lowers to, and
what the vector conversions ``cvtps2dq``/``vcvtnq`` do), int8 average pooling rounds halves away
from zero in integer arithmetic (as TFLite's reference kernel), requantisation
is ``(acc * M + 2^(shift-1)) >> shift`` in int64, and float steps that feed a rounding are done in
float32 in the reference too (a power-of-two scale keeps them exact where the spec allows).
"""

import numpy as np
from tvm import te, topi

from evaluator.suite import refs
from evaluator.suite.base import OpPattern, Tensor
from evaluator.suite.declare import wl

INV_SCALE, ZP = 32.0, 3          # per-tensor quantisation: scale 1/32 (a power of two), zero point 3
A_ZP, B_ZP = -5, 0               # activations asymmetric, weights symmetric
MULT, SHIFT = 1518500250, 40     # requantisation: M / 2^shift ~ 1.38e-3 (M ~ 0.707 * 2^31)
OUT_ZP = -2
RELU6_HI = ZP + 96                # 6.0 at scale 1/16
QADD = dict(ma=1073741824, mb=1610612736, shift=31)  # out = a * 0.5 + b * 0.75 (in integer units)


def _i8(name, shape, low=-128, high=128):
    return Tensor(name, tuple(shape), "int8", init="randint", low=low, high=high)


def _i32(x):
    return x.astype("int32")


def _round(x):
    return te.round(x)  # to nearest, halves to even


def _sat8(x):
    return te.max(te.min(x, 127), -128).astype("int8")


def _requant(acc, zp=OUT_ZP, mult=MULT, shift=SHIFT):
    """int32 → int8: ((acc * M + 2^(shift-1)) >> shift) + zp, saturated (int64 intermediate)."""
    wide = acc.astype("int64") * te.const(mult, "int64") + te.const(1 << (shift - 1), "int64")
    return (wide >> shift).astype("int32") + zp


def _requant_ref(acc, zp=OUT_ZP, mult=MULT, shift=SHIFT):
    return refs.rounding_rshift(np.asarray(acc, np.int64) * mult, shift) + zp


def _f32(x):
    return np.asarray(x, np.float64).astype(np.float32)


def _quantize(p, X):
    return te.compute(X.shape, lambda *i: _sat8(_round(X(*i) * INV_SCALE).astype("int32") + ZP), name="T_quantize")


def _quantize_ref(p, X):
    return refs.saturate(np.rint(X * INV_SCALE) + ZP)


def _quantize_pc(p, W, inv):
    return te.compute(W.shape, lambda k, c: _sat8(_round(W[k, c] * inv[k]).astype("int32")), name="T_quantize")


def _quantize_pc_ref(p, W, inv):
    prod = _f32(W) * _f32(inv)[:, None]  # the kernel's float32 product, correctly rounded
    return refs.saturate(np.rint(prod.astype(np.float64)))


def _dynamic(p, X):
    k = te.reduce_axis((0, p["n"]), name="k")
    amax = te.compute((p["m"],), lambda i: te.max(te.abs(X[i, k]), axis=k), name="T_amax")
    scale = te.compute((p["m"],), lambda i: te.max(amax[i], 1e-8) / 127.0, name="T_scale")
    q = te.compute(X.shape, lambda i, j: _sat8(_round(X[i, j] / scale[i]).astype("int32")), name="T_quantize")
    return [q, scale]


def _dynamic_ref(p, X):
    x = _f32(X)
    scale = np.maximum(np.abs(x).max(axis=1), np.float32(1e-8)) / np.float32(127.0)
    q = refs.saturate(np.rint((x / scale[:, None]).astype(np.float64)))
    return [q, scale]


def _qmatmul(p, A, B):
    k = te.reduce_axis((0, p["k"]), name="k")
    return te.compute((p["m"], p["n"]), lambda i, j: te.sum((_i32(A[i, k]) - A_ZP) * (_i32(B[k, j]) - B_ZP), axis=k),
                      name="T_qmatmul")


def _qgemv(p, A, x):
    k = te.reduce_axis((0, p["k"]), name="k")
    return te.compute((p["m"],), lambda i: te.sum(_i32(A[i, k]) * _i32(x[k]), axis=k), name="T_qgemv")


def _qbmm(p, A, B):
    k = te.reduce_axis((0, p["k"]), name="k")
    return te.compute((p["b"], p["m"], p["n"]), lambda b, i, j: te.sum(_i32(A[b, i, k]) * _i32(B[b, j, k]), axis=k),
                      name="T_qbatch_matmul")


def _shifted(X, zp=A_ZP):
    return te.compute(X.shape, lambda *i: _i32(X(*i)) - zp, name="T_shift")


def _qconv2d(p, X, W):
    return topi.nn.conv2d_nchw(_shifted(X), _shifted(W, 0), p["s"], p["p"], 1, out_dtype="int32")


def _qdw(p, X, W):
    return topi.nn.depthwise_conv2d_nchw(_shifted(X), _shifted(W, 0), p["s"], p["p"], 1, out_dtype="int32")


def _qconv1d(p, X, W):
    return topi.nn.conv1d_ncw(_shifted(X), _shifted(W, 0), p["s"], p["p"], 1, out_dtype="int32")


def _qdense_requant(p, X, W, bias):
    k = te.reduce_axis((0, p["k"]), name="k")
    acc = te.compute((p["m"], p["n"]), lambda i, j: te.sum((_i32(X[i, k]) - A_ZP) * _i32(W[j, k]), axis=k),
                     name="T_qdense")
    return te.compute(acc.shape, lambda i, j: _sat8(_requant(acc[i, j] + bias[j])), name="T_requantize")


def _qconv_requant_relu(p, X, W, bias):
    acc = topi.nn.conv2d_nchw(_shifted(X), _shifted(W, 0), p["s"], p["p"], 1, out_dtype="int32")
    return te.compute(acc.shape, lambda n, k, y, x: te.max(_sat8(_requant(acc[n, k, y, x] + bias[k])),
                                                          te.const(OUT_ZP, "int8")), name="T_requantize_relu")


def _qadd(p, A, B):
    def f(*i):
        wide = ((_i32(A(*i)) - A_ZP).astype("int64") * QADD["ma"] + (_i32(B(*i)) - A_ZP).astype("int64") * QADD["mb"]
                + (1 << (QADD["shift"] - 1)))
        return _sat8((wide >> QADD["shift"]).astype("int32") + OUT_ZP)
    return te.compute(A.shape, f, name="T_qadd")


def _qadd_ref(p, A, B):
    wide = (A - A_ZP) * QADD["ma"] + (B - A_ZP) * QADD["mb"]
    return refs.saturate(refs.rounding_rshift(wide, QADD["shift"]) + OUT_ZP)


def _qavg_pool(p, X):
    k = p["k"]
    ry, rx = te.reduce_axis((0, k), "ry"), te.reduce_axis((0, k), "rx")
    oh, ow = p["h"] // k, p["w"] // k
    s = te.compute((p["n"], p["c"], oh, ow), lambda n, c, y, x: te.sum(_i32(X[n, c, y * k + ry, x * k + rx]),
                                                                      axis=[ry, rx]), name="T_sum")
    half, cnt = (k * k) // 2, k * k
    return te.compute(s.shape, lambda *i: te.if_then_else(s(*i) > 0, te.truncdiv(s(*i) + half, cnt),
                                                          te.truncdiv(s(*i) - half, cnt)).astype("int8"),
                      name="T_avg_pool")


def _qavg_pool_ref(p, X):
    k = p["k"]
    n, c, h, w = X.shape
    s = X.reshape(n, c, h // k, k, w // k, k).sum(axis=(3, 5))
    return np.sign(s) * ((np.abs(s) + (k * k) // 2) // (k * k))


def _int4_dequant(p, P, scale):
    """W[n, 2j + b] = (((P[n, j] >> 4b) & 15) - 8) * scale[n] (low nibble first)."""
    def f(n, c):
        byte = P[n, c // 2].astype("int32")
        nib = te.if_then_else(c % 2 == 0, byte & 15, (byte >> 4) & 15)
        return (nib - 8).astype("float32") * scale[n]
    return te.compute((p["n"], p["k"]), f, name="T_int4_dequantize")


def _int4_ref(p, P, scale):
    lo, hi = P & 15, (P >> 4) & 15
    w = np.stack([lo, hi], axis=-1).reshape(p["n"], p["k"]) - 8
    return w * scale[:, None]


def _wq_gemv(p, W, scale, x):
    k = te.reduce_axis((0, p["k"]), name="k")
    acc = te.compute((p["m"],), lambda i: te.sum(W[i, k].astype("float32") * x[k], axis=k), name="T_gemv")
    return te.compute((p["m"],), lambda i: acc[i] * scale[i], name="T_scale")


def _pattern(name, summary, inputs, compute, reference, flops, workloads, level="L1", domains=(), vendor=True):
    """``vendor``: NumPy's own ufuncs as a user would call them (the reference's expression,
    ``refs.as_vendor``). False where NumPy has no library call for the op: an integer matmul or
    convolution is NumPy's naive loop, not a BLAS (a float conv has no vendor call either)."""
    return OpPattern(id=f"quant/{name}", family="quant", level=level, domains=domains, summary=summary,
                     inputs=inputs, compute=compute, reference=reference,
                     vendor=refs.as_vendor(reference) if vendor else None, flops=flops, workloads=workloads)


def _conv_out(p, size):
    return (p[size] + 2 * p["p"] - p["r"]) // p["s"] + 1


_LANG, _VIS = ("language",), ("vision",)

PATTERNS = [
    _pattern("quantize", f"Q = sat8(round(X * {INV_SCALE:g}) + {ZP}) (per-tensor affine, power-of-two scale)",
             lambda p: [Tensor("X", (p["m"], p["n"]), scale=2.0)], _quantize, _quantize_ref,
             lambda p: 3 * p["m"] * p["n"], [wl(m=128, n=768, domains=_LANG), wl(m=3136, n=64, domains=_VIS),
                                             wl(m=784, n=64, domains=_VIS), wl(m=125, n=64, domains=("audio",)),
                                             wl(m=1, n=4096, domains=_LANG)]),
    _pattern("dequantize", f"X = (Q - {ZP}) / {INV_SCALE:g} (int8 → float32)",
             lambda p: [_i8("Q", (p["m"], p["n"]))],
             lambda p, Q: te.compute(Q.shape, lambda *i: (_i32(Q(*i)) - ZP).astype("float32") * (1.0 / INV_SCALE),
                                     name="T_dequantize"),
             lambda p, Q: (Q - ZP) / INV_SCALE,
             lambda p: 2 * p["m"] * p["n"], [wl(m=128, n=768, domains=_LANG), wl(m=3136, n=64, domains=_VIS),
                                             wl(m=784, n=64, domains=_VIS), wl(m=16, n=4096, domains=_LANG),
                                             wl(m=1, n=4096, domains=_LANG)]),
    _pattern("quantize-per-channel", "Q[k, c] = sat8(round(W[k, c] * inv_scale[k])) (symmetric per output channel)",
             lambda p: [Tensor("W", (p["k"], p["c"])), Tensor("inv_scale", (p["k"],), init="positive", scale=40.0)],
             _quantize_pc, _quantize_pc_ref, lambda p: 2 * p["k"] * p["c"],
             [wl(k=256, c=576, domains=_VIS), wl(k=768, c=768, domains=_LANG), wl(k=64, c=576, domains=_VIS)]),
    _pattern("dequantize-per-channel", "W[k, c] = Q[k, c] * scale[k] (int8 weights → float32)",
             lambda p: [_i8("Q", (p["k"], p["c"]), -127), Tensor("scale", (p["k"],), init="positive", scale=0.02)],
             lambda p, Q, s: te.compute(Q.shape, lambda k, c: Q[k, c].astype("float32") * s[k], name="T_dequantize"),
             lambda p, Q, s: Q * s[:, None], lambda p: p["k"] * p["c"],
             [wl(k=768, c=768, domains=_LANG), wl(k=64, c=576, domains=_VIS), wl(k=256, c=576, domains=_VIS)]),
    _pattern("requantize",
             f"Q = sat8(((acc * {MULT} + 2^{SHIFT - 1}) >> {SHIFT}) + {OUT_ZP}) (int32 → int8, fixed-point)",
             lambda p: [Tensor("acc", (p["m"], p["n"]), "int32", init="randint", low=-(1 << 18), high=1 << 18)],
             lambda p, acc: te.compute(acc.shape, lambda *i: _sat8(_requant(acc(*i))), name="T_requantize"),
             lambda p, acc: refs.saturate(_requant_ref(acc)), lambda p: 4 * p["m"] * p["n"],
             [wl(m=128, n=768, domains=_LANG), wl(m=784, n=64, domains=_VIS), wl(m=3136, n=64, domains=_VIS),
              wl(m=125, n=64, domains=("audio",))]),
    _pattern("fake-quantize",
             f"Y = (sat8(round(X * {INV_SCALE:g}) + {ZP}) - {ZP}) / {INV_SCALE:g} (quantise-dequantise, QAT)",
             lambda p: [Tensor("X", (p["m"], p["n"]), scale=2.0)],
             lambda p, X: te.compute(X.shape, lambda *i: (_sat8(_round(X(*i) * INV_SCALE).astype("int32") + ZP)
                                                         .astype("int32") - ZP).astype("float32") * (1.0 / INV_SCALE),
                                     name="T_fake_quantize"),
             lambda p, X: (_quantize_ref(p, X) - ZP) / INV_SCALE, lambda p: 5 * p["m"] * p["n"],
             [wl(m=128, n=768, domains=_LANG)]),
    _pattern("dynamic-quantize", "scale[m] = max|X[m, :]| / 127; Q = sat8(round(X / scale)) (per-row dynamic, float32)",
             lambda p: [Tensor("X", (p["m"], p["n"]), init="quantizable")], _dynamic, _dynamic_ref,
             lambda p: 3 * p["m"] * p["n"],
             [wl(m=128, n=768, domains=_LANG), wl(m=16, n=4096, domains=_LANG), wl(m=1, n=4096, domains=_LANG)]),
    _pattern("qmatmul", f"C[m, n] = sum_k (A[m, k] - ({A_ZP})) * B[k, n] (int8 x int8 → int32)",
             lambda p: [_i8("A", (p["m"], p["k"])), _i8("B", (p["k"], p["n"]), -127)], _qmatmul,
             lambda p, A, B: (A - A_ZP) @ (B - B_ZP), lambda p: 2 * p["m"] * p["n"] * p["k"],
             [wl(m=128, n=768, k=768, domains=_LANG), wl(m=64, n=256, k=640, domains=("anomaly-detection",)),
              wl(m=128, n=128, k=128, domains=_LANG)], vendor=False),
    _pattern("qgemv", "y[m] = sum_k A[m, k] * x[k] (int8 → int32, batch-1 dense layer)",
             lambda p: [_i8("A", (p["m"], p["k"]), -127), _i8("x", (p["k"],))], _qgemv,
             lambda p, A, x: A @ x, lambda p: 2 * p["m"] * p["k"],
             [wl(m=1024, k=1024, domains=_LANG), wl(m=128, k=640, domains=("anomaly-detection",)),
              wl(m=3072, k=768, domains=_LANG), wl(m=640, k=128, domains=("anomaly-detection",))], vendor=False),
    _pattern("qbatch-matmul", "C[b, m, n] = sum_k A[b, m, k] * B[b, n, k] (int8 attention scores → int32)",
             lambda p: [_i8("A", (p["b"], p["m"], p["k"])), _i8("B", (p["b"], p["n"], p["k"]))], _qbmm,
             lambda p, A, B: np.einsum("bmk,bnk->bmn", A, B), lambda p: 2 * p["b"] * p["m"] * p["n"] * p["k"],
             [wl(b=12, m=128, n=128, k=64, domains=_LANG), wl(b=4, m=64, n=64, k=32, domains=_LANG),
              wl(b=3, m=49, n=49, k=32, domains=_VIS)], vendor=False),
    _pattern("qconv2d", f"Y = conv2d_nchw(X - ({A_ZP}), W) (int8 → int32; padding reads the zero point)",
             lambda p: [_i8("X", (p["n"], p["c"], p["h"], p["w"])), _i8("W", (p["k"], p["c"], p["r"], p["r"]), -127)],
             _qconv2d, lambda p, X, W: refs.conv(X - A_ZP, W, p["s"], p["p"]).astype(np.int64),
             lambda p: 2 * p["n"] * p["k"] * _conv_out(p, "h") * _conv_out(p, "w") * p["c"] * p["r"] ** 2,
             [wl(n=1, c=32, h=28, w=28, k=64, r=3, s=1, p=1, domains=_VIS),
              wl(n=1, c=3, h=96, w=96, k=8, r=3, s=2, p=1, domains=_VIS),
              wl(n=1, c=16, h=32, w=32, k=16, r=3, s=1, p=1, domains=_VIS),   # ResNet-8
              wl(n=1, c=64, h=8, w=8, k=64, r=3, s=1, p=1, domains=_VIS)], vendor=False),
    _pattern("qdepthwise-conv2d", "Y[n, c] = depthwise_conv2d(X - zp, W) (int8 → int32)",
             lambda p: [_i8("X", (p["n"], p["c"], p["h"], p["w"])), _i8("W", (p["c"], 1, p["r"], p["r"]), -127)],
             _qdw, lambda p, X, W: refs.conv(X - A_ZP, W, p["s"], p["p"], 1, p["c"]).astype(np.int64),
             lambda p: 2 * p["n"] * p["c"] * _conv_out(p, "h") * _conv_out(p, "w") * p["r"] ** 2,
             [wl(n=1, c=64, h=25, w=5, r=3, s=1, p=1, domains=("audio",)),
              wl(n=1, c=32, h=48, w=48, r=3, s=2, p=1, domains=_VIS),
              wl(n=1, c=8, h=48, w=48, r=3, s=1, p=1, domains=_VIS),
              wl(n=1, c=64, h=12, w=12, r=3, s=1, p=1, domains=_VIS),
              wl(n=1, c=128, h=6, w=6, r=3, s=1, p=1, domains=_VIS)], vendor=False),
    _pattern("qconv1d", "Y = conv1d_ncw(X - zp, W) (int8 → int32; keyword spotting on microcontrollers)",
             lambda p: [_i8("X", (p["n"], p["c"], p["w"])), _i8("W", (p["k"], p["c"], p["r"]), -127)],
             _qconv1d, lambda p, X, W: refs.conv(X - A_ZP, W, p["s"], p["p"]).astype(np.int64),
             lambda p: 2 * p["n"] * p["k"] * _conv_out(p, "w") * p["c"] * p["r"],
             [wl(n=1, c=40, w=98, k=64, r=3, s=1, p=1, domains=("audio",)),
              wl(n=1, c=64, w=49, k=64, r=3, s=1, p=1, domains=("audio",)),
              wl(n=1, c=64, w=98, k=64, r=3, s=1, p=1, domains=("audio",))], vendor=False),
    _pattern("qdense-requant", "Y = sat8(requant(sum_k (X - zp) W^T + bias) + zp_out) (TFLite int8 fully-connected)",
             lambda p: [_i8("X", (p["m"], p["k"])), _i8("W", (p["n"], p["k"]), -127),
                        Tensor("bias", (p["n"],), "int32", init="randint", low=-(1 << 14), high=1 << 14)],
             _qdense_requant,
             lambda p, X, W, b: refs.saturate(_requant_ref((X - A_ZP) @ W.T + b)),
             lambda p: 2 * p["m"] * p["n"] * p["k"] + 4 * p["m"] * p["n"],
             [wl(m=1, n=128, k=640, domains=("anomaly-detection",)), wl(m=128, n=768, k=768, domains=_LANG),
              wl(m=1, n=640, k=128, domains=("anomaly-detection",)),
              wl(m=1, n=12, k=64, domains=("audio",))], level="L2", vendor=False),
    _pattern("qconv2d-requant-relu",
             "Y = max(sat8(requant(conv2d(X - zp, W) + bias) + zp_out), zp_out) (TFLite int8 conv + ReLU)",
             lambda p: [_i8("X", (p["n"], p["c"], p["h"], p["w"])), _i8("W", (p["k"], p["c"], p["r"], p["r"]), -127),
                        Tensor("bias", (p["k"],), "int32", init="randint", low=-(1 << 14), high=1 << 14)],
             _qconv_requant_relu,
             lambda p, X, W, b: np.maximum(refs.saturate(_requant_ref(
                 refs.conv(X - A_ZP, W, p["s"], p["p"]).astype(np.int64) + b[None, :, None, None])), OUT_ZP),
             lambda p: 2 * p["n"] * p["k"] * _conv_out(p, "h") * _conv_out(p, "w") * p["c"] * p["r"] ** 2,
             [wl(n=1, c=16, h=32, w=32, k=16, r=3, s=1, p=1, domains=_VIS),
              wl(n=1, c=64, h=25, w=5, k=64, r=1, s=1, p=0, domains=("audio",)),
              wl(n=1, c=32, h=16, w=16, k=32, r=3, s=1, p=1, domains=_VIS)], level="L2", vendor=False),
    _pattern("qadd",
             "Y = sat8(rshift((A - zp) * Ma + (B - zp) * Mb, 31) + zp_out) (int8 residual add, two input scales)",
             lambda p: [_i8("A", (p["n"], p["c"], p["h"], p["w"])), _i8("B", (p["n"], p["c"], p["h"], p["w"]))],
             _qadd, _qadd_ref, lambda p: 6 * p["n"] * p["c"] * p["h"] * p["w"],
             [wl(n=1, c=16, h=32, w=32, domains=_VIS), wl(n=1, c=64, h=56, w=56, domains=_VIS),
              wl(n=1, c=32, h=16, w=16, domains=_VIS), wl(n=1, c=64, h=8, w=8, domains=_VIS),
              wl(n=1, c=128, h=6, w=6, domains=_VIS)], level="L2"),
    _pattern("qavg-pool2d", "Y = round(sum of k x k window / k^2) on int8 (halves away from zero, as TFLite)",
             lambda p: [_i8("X", (p["n"], p["c"], p["h"], p["w"]))], _qavg_pool, _qavg_pool_ref,
             lambda p: p["n"] * p["c"] * p["h"] * p["w"],
             [wl(n=1, c=64, h=24, w=4, k=2, domains=("audio",)), wl(n=1, c=32, h=32, w=32, k=2, domains=_VIS),
              wl(n=1, c=64, h=8, w=8, k=2, domains=_VIS)]),
    _pattern("qrelu6", f"Y = min(max(Q, {ZP}), {RELU6_HI}) (ReLU6 on int8 at scale 1/16, zero point {ZP})",
             lambda p: [_i8("Q", (p["n"], p["c"], p["h"], p["w"]))],
             lambda p, Q: te.compute(Q.shape, lambda *i: te.min(te.max(Q(*i), te.const(ZP, "int8")),
                                                                te.const(RELU6_HI, "int8")),
                                     name="T_qrelu6"),
             lambda p, Q: np.clip(Q, ZP, RELU6_HI), lambda p: 2 * p["n"] * p["c"] * p["h"] * p["w"],
             [wl(n=1, c=32, h=48, w=48, domains=_VIS), wl(n=1, c=64, h=12, w=12, domains=_VIS),
              wl(n=1, c=128, h=6, w=6, domains=_VIS)]),
    _pattern("qlut", "Y = table[Q + 128] (int8 activation by a 256-entry lookup table, e.g. int8 sigmoid/tanh)",
             lambda p: [_i8("Q", (p["m"], p["n"])), _i8("table", (256,))],
             lambda p, Q, t: te.compute(Q.shape, lambda *i: t[_i32(Q(*i)) + 128], name="T_lut"),
             lambda p, Q, t: t[Q + 128], lambda p: 0,
             [wl(m=128, n=768, domains=_LANG), wl(m=98, n=64, domains=("audio",)), wl(m=64, n=512, domains=_LANG),
              wl(m=1, n=4096, domains=_LANG)]),
    _pattern("int4-dequantize", "W[n, 2j + b] = (nibble b of P[n, j] - 8) * scale[n] (packed 4-bit weights → float32)",
             lambda p: [Tensor("P", (p["n"], p["k"] // 2), "uint8", init="randint", low=0, high=256),
                        Tensor("scale", (p["n"],), init="positive", scale=0.05)],
             _int4_dequant, _int4_ref, lambda p: 2 * p["n"] * p["k"],
             [wl(n=768, k=768, domains=_LANG), wl(n=2048, k=256, domains=_LANG)]),
    _pattern("wq-gemv", "y[m] = scale[m] * sum_k W[m, k] * x[k] (int8 weights, float32 activations: LLM decode)",
             lambda p: [_i8("W", (p["m"], p["k"]), -127), Tensor("scale", (p["m"],), init="positive", scale=0.01),
                        Tensor("x", (p["k"],), init="uniform")],
             _wq_gemv, lambda p, W, s, x: (W @ x) * s, lambda p: 2 * p["m"] * p["k"],
             [wl(m=2048, k=2048, domains=_LANG), wl(m=768, k=3072, domains=_LANG), wl(m=1024, k=1024, domains=_LANG)],
             vendor=False),
]
