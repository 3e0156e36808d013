"""Attention variants at edge sizes, each one PrimFunc (L2): causal, with an additive bias
(Swin relative-position bias), ALiBi, sliding-window (local) and key-padding masks,
multi-query and grouped-query heads (incl. single-token decode against a KV cache),
linear attention, attention straight from a packed QKV projection, and the rotary position
embedding (L1) applied to queries and keys.

Scores are scaled by 1/sqrt(d); masked scores are -inf before the softmax (every row keeps at
least its diagonal). The plain per-head SDPA is ``fused/attention``. Every pattern takes a
``dtype``: float16 workloads store Q, K, V (bias, output) in float16 and compute scores, softmax
and the weighted sum in float32 (``suite.precision``).
"""

import math

import numpy as np
from tvm import te

from evaluator.suite import refs
from evaluator.suite.base import OpPattern, Tensor
from evaluator.suite.declare import dtype_of, wl
from evaluator.suite.precision import in_float32, stored_inputs, vendor_in_float32

NEG = -1e30  # "minus infinity" that stays finite in float32 arithmetic
# float16 workloads draw queries and keys this much wider: scores then spread over several units,
# each row attends to a few keys and outputs are O(1) (uniform [-1, 1] draws make every row near
# uniform, averaging V to ~1/sqrt(n), below the float16 tolerance's absolute part)
SHARP16 = 3.0


def qk_scale(p) -> float:
    """The scale of a workload's query and key draws."""
    return 1.0 if dtype_of(p) == "float32" else SHARP16


def attend(shape_o, n, d, q, k, v, mod=None, name="T_attention"):
    """O[h, i, :] = softmax_j(mod(q(h, i) · k(h, j) / sqrt(d), h, i, j)) v(h, j).

    ``q(h, i, c)``, ``k(h, j, c)``, ``v(h, j, c)`` read the operands (so head sharing is just an
    index map); ``mod(s, h, i, j)`` adds a bias or a mask. ``shape_o`` = (heads, m, d)."""
    heads, m, _ = shape_o
    scale = 1.0 / math.sqrt(d)
    c = te.reduce_axis((0, d), name="c")
    s = te.compute((heads, m, n), lambda h, i, j: te.sum(q(h, i, c) * k(h, j, c), axis=c), name="T_scores")
    z = te.compute(s.shape, lambda h, i, j: mod(s[h, i, j] * scale, h, i, j) if mod else s[h, i, j] * scale,
                   name="T_scaled")
    j1 = te.reduce_axis((0, n), name="j1")
    mx = te.compute((heads, m), lambda h, i: te.max(z[h, i, j1], axis=j1), name="T_max")
    e = te.compute(s.shape, lambda h, i, j: te.exp(z[h, i, j] - mx[h, i]), name="T_exp")
    j2 = te.reduce_axis((0, n), name="j2")
    tot = te.compute((heads, m), lambda h, i: te.sum(e[h, i, j2], axis=j2), name="T_sum")
    j3 = te.reduce_axis((0, n), name="j3")
    ctx = te.compute(shape_o, lambda h, i, x: te.sum(e[h, i, j3] * v(h, j3, x), axis=j3), name="T_context")
    return te.compute(shape_o, lambda h, i, x: ctx[h, i, x] / tot[h, i], name=name)


def _qkv(p):
    b, m, n, d, wide = p["b"], p["m"], p["n"], p["d"], qk_scale(p)
    return [Tensor("Q", (b, m, d), init="uniform", scale=wide), Tensor("K", (b, n, d), init="uniform", scale=wide),
            Tensor("V", (b, n, d))]


def _std(p, Q, K, V, mod):
    return attend((p["b"], p["m"], p["d"]), p["n"], p["d"], lambda h, i, c: Q[h, i, c],
                   lambda h, j, c: K[h, j, c], lambda h, j, c: V[h, j, c], mod)


def _where(cond, s):
    return te.if_then_else(cond, s, NEG)


def _mask_ref(p, keep):
    return np.where(keep, 0.0, -np.inf)


def _causal_keep(m, n):
    return np.arange(n)[None, :] <= np.arange(m)[:, None]


def _alibi_slopes(h):
    return 2.0 ** (-8.0 * (np.arange(h) + 1) / h)


def _alibi(p, Q, K, V):
    heads = p["b"]

    def mod(s, h, i, j):
        slope = te.power(2.0, -8.0 * (h.astype("float32") + 1.0) / heads)
        return _where(j <= i, s - slope * (i - j).astype("float32"))
    return _std(p, Q, K, V, mod)


def _alibi_ref(p, Q, K, V):
    m, n = p["m"], p["n"]
    dist = (np.arange(m)[:, None] - np.arange(n)[None, :]).astype(float)
    bias = -_alibi_slopes(p["b"])[:, None, None] * dist[None] + _mask_ref(p, _causal_keep(m, n))[None]
    return refs.attention(Q, K, V, bias)


def _window_keep(m, n, w):
    return np.abs(np.arange(m)[:, None] - np.arange(n)[None, :]) <= w


def _padding(p, Q, K, V, L):
    return _std(p, Q, K, V, lambda s, h, i, j: _where(j < L[h], s))


def _padding_ref(p, Q, K, V, L):
    keep = np.arange(p["n"])[None, None, :] < L[:, None, None]
    return refs.attention(Q, K, V, np.where(keep, 0.0, -np.inf))


def _grouped(p, Q, K, V):
    """Q (h, m, d) heads share K, V (g, n, d): head h reads group h // (h_total / g)."""
    per = p["h"] // p["g"]
    return attend((p["h"], p["m"], p["d"]), p["n"], p["d"], lambda h, i, c: Q[h, i, c],
                   lambda h, j, c: K[h // per, j, c], lambda h, j, c: V[h // per, j, c])


def _grouped_ref(p, Q, K, V):
    per = p["h"] // p["g"]
    return refs.attention(Q, np.repeat(K, per, axis=0), np.repeat(V, per, axis=0))


def _grouped_inputs(p):
    return [Tensor("Q", (p["h"], p["m"], p["d"]), init="uniform", scale=qk_scale(p)),
            Tensor("K", (p["g"], p["n"], p["d"]), init="uniform", scale=qk_scale(p)),
            Tensor("V", (p["g"], p["n"], p["d"]))]


def _packed(p, QKV):
    """QKV (s, 3*h*d) = [Q | K | V], each h heads of d; O (s, h*d)."""
    hd, d = p["h"] * p["d"], p["d"]
    o = attend((p["h"], p["s"], d), p["s"], d, lambda h, i, c: QKV[i, h * d + c],
                lambda h, j, c: QKV[j, hd + h * d + c], lambda h, j, c: QKV[j, 2 * hd + h * d + c])
    return te.compute((p["s"], hd), lambda i, x: o[x // d, i, x % d], name="T_merge_heads")


def _packed_ref(p, QKV):
    s, h, d = p["s"], p["h"], p["d"]
    q, k, v = (QKV[:, i * h * d:(i + 1) * h * d].reshape(s, h, d).transpose(1, 0, 2) for i in range(3))
    return refs.attention(q, k, v).transpose(1, 0, 2).reshape(s, h * d)


def _elu1(x):
    return te.if_then_else(x > 0.0, x + 1.0, te.exp(x))


def _linear(p, Q, K, V):
    """O = phi(Q) (phi(K)^T V) / (phi(Q) . sum_j phi(K_j)), phi = elu + 1 (Katharopoulos et al.)."""
    b, n, d = p["b"], p["n"], p["d"]
    j = te.reduce_axis((0, n), name="j")
    kv = te.compute((b, d, d), lambda h, a, c: te.sum(_elu1(K[h, j, a]) * V[h, j, c], axis=j), name="T_kv")
    j2 = te.reduce_axis((0, n), name="j2")
    ks = te.compute((b, d), lambda h, a: te.sum(_elu1(K[h, j2, a]), axis=j2), name="T_ksum")
    a1 = te.reduce_axis((0, d), name="a1")
    num = te.compute((b, n, d), lambda h, i, c: te.sum(_elu1(Q[h, i, a1]) * kv[h, a1, c], axis=a1), name="T_num")
    a2 = te.reduce_axis((0, d), name="a2")
    den = te.compute((b, n), lambda h, i: te.sum(_elu1(Q[h, i, a2]) * ks[h, a2], axis=a2), name="T_den")
    return te.compute((b, n, d), lambda h, i, c: num[h, i, c] / den[h, i], name="T_linear_attention")


def _linear_ref(p, Q, K, V):
    phi = lambda x: np.where(x > 0, x + 1.0, np.exp(x))  # noqa: E731
    q, k = phi(Q), phi(K)
    num = q @ (np.swapaxes(k, 1, 2) @ V)
    den = (q * k.sum(axis=1, keepdims=True)).sum(axis=-1, keepdims=True)
    return num / den


def _rope(p, X):
    """Y[s, h, 2i] = x0 cos t - x1 sin t, Y[s, h, 2i+1] = x0 sin t + x1 cos t, t = s * 10000^(-2i/d)."""
    d = p["d"]

    def f(s, h, c):
        i = c // 2
        theta = s.astype("float32") * te.power(10000.0, -2.0 * i.astype("float32") / d)
        x0, x1 = X[s, h, i * 2], X[s, h, i * 2 + 1]
        return te.if_then_else(c % 2 == 0, x0 * te.cos(theta) - x1 * te.sin(theta),
                               x0 * te.sin(theta) + x1 * te.cos(theta))
    return te.compute(X.shape, f, name="T_rope")


def _rope_ref(p, X):
    s, _, d = X.shape
    theta = np.arange(s)[:, None] * 10000.0 ** (-2.0 * np.arange(d // 2) / d)[None, :]
    cos, sin = np.cos(theta)[:, None, :], np.sin(theta)[:, None, :]
    x0, x1 = X[..., 0::2], X[..., 1::2]
    y = np.empty_like(X)
    y[..., 0::2] = x0 * cos - x1 * sin
    y[..., 1::2] = x0 * sin + x1 * cos
    return y


def _flops_sdpa(p, heads=None, m=None):
    heads = heads or p.get("b") or p.get("h")
    m = m or p.get("m", p.get("s"))
    n = p.get("n", p.get("s"))
    return heads * m * n * (4 * p["d"] + 6)


def _pattern(name, summary, inputs, compute, reference, workloads, level="L2", domains=("language",),
             flops=_flops_sdpa):
    return OpPattern(id=f"attention/{name}", family="attention", level=level, domains=domains, summary=summary,
                     inputs=stored_inputs(inputs), compute=in_float32(compute), reference=reference,
                     vendor=vendor_in_float32(reference), flops=flops, workloads=workloads)


PATTERNS = [
    _pattern("sdpa-causal", "O[b] = softmax(mask_causal(Q K^T / sqrt(d))) V (decoder self-attention)",
             _qkv, lambda p, Q, K, V: _std(p, Q, K, V, lambda s, h, i, j: _where(j <= i, s)),
             lambda p, Q, K, V: refs.attention(Q, K, V, _mask_ref(p, _causal_keep(p["m"], p["n"]))),
             [wl(b=8, m=128, n=128, d=64), wl(b=4, m=256, n=256, d=32),
              wl(b=8, m=128, n=128, d=64, dtype="float16"), wl(b=4, m=256, n=256, d=32, dtype="float16")]),
    _pattern("sdpa-bias", "O[b] = softmax(Q K^T / sqrt(d) + B[b]) V (relative-position bias, Swin)",
             lambda p: _qkv(p) + [Tensor("B", (p["b"], p["m"], p["n"]))],
             lambda p, Q, K, V, B: _std(p, Q, K, V, lambda s, h, i, j: s + B[h, i, j]),
             lambda p, Q, K, V, B: refs.attention(Q, K, V, B),
             [wl(b=3, m=49, n=49, d=32, domains=("vision",)), wl(b=12, m=64, n=64, d=32, domains=("vision",)),
              wl(b=3, m=49, n=49, d=32, dtype="float16", domains=("vision",)),
              wl(b=12, m=64, n=64, d=32, dtype="float16", domains=("vision",))]),
    _pattern("sdpa-alibi", "O[h] = softmax(causal(Q K^T / sqrt(d) - 2^(-8(h+1)/H) (i - j))) V (ALiBi)",
             _qkv, _alibi, _alibi_ref, [wl(b=8, m=128, n=128, d=64)]),
    _pattern("sdpa-sliding-window", "O[b] = softmax(Q K^T / sqrt(d), keys with |i - j| <= w only) V (local attention)",
             _qkv, lambda p, Q, K, V: _std(p, Q, K, V, lambda s, h, i, j: _where(
                 te.abs(i - j) <= p["w"], s)),
             lambda p, Q, K, V: refs.attention(Q, K, V, _mask_ref(p, _window_keep(p["m"], p["n"], p["w"]))),
             [wl(b=4, m=256, n=256, d=64, w=32), wl(b=4, m=500, n=500, d=36, w=16, domains=("audio",))]),
    _pattern("sdpa-key-padding", "O[b] = softmax(Q K^T / sqrt(d), keys j < L[b] only) V (variable-length batches)",
             lambda p: _qkv(p) + [Tensor("L", (p["b"],), "int32", init="randint", low=1, high=p["n"] + 1)],
             _padding, _padding_ref,
             [wl(b=8, m=100, n=100, d=64, domains=("audio",)), wl(b=16, m=64, n=64, d=32)]),
    _pattern("mqa", "O[h] = softmax(Q[h] K^T / sqrt(d)) V: H query heads share one key/value head",
             _grouped_inputs, _grouped, _grouped_ref,
             [wl(h=8, g=1, m=128, n=128, d=64), wl(h=8, g=1, m=1, n=512, d=64),
              wl(h=8, g=1, m=1, n=512, d=64, dtype="float16"), wl(h=8, g=1, m=128, n=128, d=64, dtype="float16"),
              wl(h=8, g=1, m=1, n=512, d=64, dtype="bfloat16")],
             flops=lambda p: _flops_sdpa(p, p["h"], p["m"])),
    _pattern("gqa", "O[h] = softmax(Q[h] K[h // (H/G)]^T / sqrt(d)) V[h // (H/G)]: G key/value groups",
             _grouped_inputs, _grouped, _grouped_ref,
             [wl(h=8, g=2, m=128, n=128, d=64), wl(h=16, g=4, m=1, n=1024, d=64),
              wl(h=8, g=2, m=128, n=128, d=64, dtype="float16"), wl(h=16, g=4, m=1, n=1024, d=64, dtype="float16"),
              wl(h=8, g=2, m=128, n=128, d=64, dtype="bfloat16")],
             flops=lambda p: _flops_sdpa(p, p["h"], p["m"])),
    _pattern("qkv-packed", "O[s, h*d] = attention of the heads of a packed QKV[s, 3*h*d] projection, heads merged",
             lambda p: [Tensor("QKV", (p["s"], 3 * p["h"] * p["d"]), init="uniform", scale=qk_scale(p))],
             _packed, _packed_ref,
             [wl(s=128, h=12, d=64), wl(s=197, h=3, d=64, domains=("vision",)),
              wl(s=197, h=3, d=64, dtype="float16", domains=("vision",)), wl(s=128, h=12, d=64, dtype="float16")],
             flops=lambda p: p["h"] * p["s"] * p["s"] * (4 * p["d"] + 6)),
    _pattern("linear-attention", "O = phi(Q) (phi(K)^T V) / (phi(Q) . sum_j phi(K_j)), phi = elu + 1",
             lambda p: [Tensor("Q", (p["b"], p["n"], p["d"]), init="uniform"),
                        Tensor("K", (p["b"], p["n"], p["d"]), init="uniform"), Tensor("V", (p["b"], p["n"], p["d"]))],
             _linear, _linear_ref, [wl(b=8, n=1024, d=32), wl(b=4, n=4096, d=16, domains=("vision",))],
             flops=lambda p: p["b"] * p["n"] * p["d"] * (4 * p["d"] + 8)),
    _pattern("rope", "Y = X rotated pairwise by angle s * 10000^(-2i/d) (rotary position embedding, interleaved)",
             lambda p: [Tensor("X", (p["s"], p["h"], p["d"]))], _rope, _rope_ref,
             [wl(s=256, h=8, d=64), wl(s=128, h=32, d=128), wl(s=256, h=8, d=64, dtype="float16"),
              wl(s=128, h=32, d=128, dtype="float16")], level="L1",
             flops=lambda p: 6 * p["s"] * p["h"] * p["d"]),
]
