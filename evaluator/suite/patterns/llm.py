"""Low-bit LLM decode kernels as edge runtimes (llama.cpp, MLC-LLM, ExecuTorch) run them: weight-only
group-quantised GEMV/GEMM with float16 activations (4-bit packed, symmetric or with zero points, and
8-bit), the fused residual add + RMSNorm, rotary embedding fused with the KV-cache append,
single-token decode attention over contiguous and paged KV caches (MHA, GQA, MQA), and the top-k
and top-p (nucleus) steps of sampling.

Precision: float16 tensors are widened on load and computed in float32, results rounded once on
store (``declare``); the references compute in float64 and round once.

Weights are (n, k) row-major, one row per output feature, quantised in groups of ``g`` along k with
one float16 scale per group. 4-bit weights pack two values per byte, low nibble first:
``W[j, 2i] = P[j, i] & 15``, ``W[j, 2i + 1] = P[j, i] >> 4`` (as ``quant/int4-dequantize``); the
symmetric form subtracts 8, the asymmetric one a per-group zero point (GPTQ/AWQ).

KV caches are token-major, (tokens, kv heads, d) per sequence (vLLM's layout): a paged cache is
pages of ``page`` tokens, (pages, page, kv heads, d), and a block table row lists a sequence's pages
in order. Each row is a permutation (a sequence never holds a page twice); rows are drawn apart, so
two sequences may share a page as prefix caching does: attention only reads, so any table has one
answer. Query head ``hq`` reads kv head ``hq // (h / g)``; sequence ``b`` attends to its first
``lens[b]`` cached tokens.
"""

import math

import numpy as np
from tvm import te, topi

from evaluator.suite import refs
from evaluator.suite.base import OpPattern, Tensor
from evaluator.suite.declare import narrow, wl
from evaluator.suite.heldout import ShapeSpace

F16 = "float16"
EPS = 1e-6                # RMSNorm epsilon (LLaMA)
ROPE_BASE = 10000.0
TOP_P = 0.9
NEG = -1e30               # a masked score: finite in float32, exp() underflows to 0
W4_SCALE, W8_SCALE = 0.005, 0.0003  # group scales that keep outputs O(1) at k = 1024..4096
LOGIT_SCALE = 2.0         # logits ~ N(0, 4): see _top_p
# Inputs of a workload, held-out ones too, stay under this: a device backend's run step holds a
# copy of every tensor per arena slot (up to 256), inputs the slots share included, and on PoCL's
# 4 GiB a 16 MiB KV cache did not fit (harness.child, harness.arena)
MAX_INPUT_BYTES = 5 << 20


def _f32(x):
    return x if str(x.dtype) == "float32" else x.astype("float32")


# --- weight-only quantised GEMV / GEMM ------------------------------------------------------------

def _nibble(P, j, c):
    """The 4-bit code of W[j, c]: byte c // 2 of row j, low nibble for even c."""
    return (P[j, c // 2].astype("int32") >> (c % 2 * 4)) & 15


def _dequant(p, kind, P, S, Z=None):
    """W[j, c] in float32: (code - zero) * scale[j, c // g]."""
    g = p["g"]

    def f(j, c):
        if kind == "w8":
            q = P[j, c].astype("int32")
        else:
            q = _nibble(P, j, c) - (Z[j, c // g].astype("int32") if Z is not None else 8)
        return q.astype("float32") * _f32(S[j, c // g])
    return te.compute((p["n"], p["k"]), f, name="T_dequantize")


def _qmatmul(kind, gemv):
    def compute(p, X, P, S, Z=None):
        W = _dequant(p, kind, P, S, Z)
        c = te.reduce_axis((0, p["k"]), name="c")
        if gemv:
            y = te.compute((p["n"],), lambda j: te.sum(_f32(X[c]) * W[j, c], axis=c), name="T_gemv")
        else:
            y = te.compute((p["m"], p["n"]), lambda i, j: te.sum(_f32(X[i, c]) * W[j, c], axis=c), name="T_matmul")
        return narrow(y, F16)
    return compute


def unpack_w4(P):
    """(n, k/2) bytes → (n, k) codes in [0, 16), low nibble first."""
    q = np.empty((P.shape[0], 2 * P.shape[1]), P.dtype)
    q[:, 0::2], q[:, 1::2] = P & 15, P >> 4
    return q


def dequant_ref(p, kind, P, S, Z=None):
    """W (n, k): the codes less their zero point, times their group's scale (float64, in place:
    a 4096 x 4096 weight takes 0.1 s, not 1 s)."""
    n, g = P.shape[0], p["g"]
    w = (P if kind == "w8" else unpack_w4(P)).astype(np.float64).reshape(n, -1, g)
    if kind == "w4":
        w -= 8 if Z is None else Z[:, :, None]
    w *= S[:, :, None]
    return w.reshape(n, -1)


def _qmatmul_ref(kind):
    def ref(p, X, P, S, Z=None):
        return X @ dequant_ref(p, kind, P, S, Z).T
    return ref


def _qmatmul_inputs(kind, gemv, zp=False):
    def inputs(p):
        n, k, g = p["n"], p["k"], p["g"]
        x = Tensor("x", (k,) if gemv else (p["m"], k), F16, init="uniform")
        if kind == "w8":
            w = Tensor("Q", (n, k), "int8", init="randint", low=-127, high=128)
        else:
            w = Tensor("P", (n, k // 2), "uint8", init="randint", low=0, high=256)
        s = Tensor("scale", (n, k // g), F16, init="positive", scale=W8_SCALE if kind == "w8" else W4_SCALE)
        z = [Tensor("zero", (n, k // g), "uint8", init="randint", low=0, high=16)] if zp else []
        return [x, w, s] + z
    return inputs


def _qmatmul_pattern(name, kind, gemv, summary, workloads, zp=False):
    return OpPattern(
        id=f"llm/{name}", family="llm", level="L2", domains=("language",), summary=summary,
        inputs=_qmatmul_inputs(kind, gemv, zp), compute=_qmatmul(kind, gemv), reference=_qmatmul_ref(kind),
        # no vendor call: NumPy dequantises the whole weight on every call (2-20x slower than
        # tvm-default on cpu-llvm), which no weight-only library does
        vendor=None, flops=lambda p: 2 * p.get("m", 1) * p["n"] * p["k"],
        workloads=workloads,
        # group sizes stay 32/64/128 and k a multiple of 128, so a group never straddles a row's end
        shape_space=_space(_qmatmul_inputs(kind, gemv, zp), choices={"g": (32, 64, 128), "m": (2, 3, 4, 6, 8, 12, 16)},
                           multiple={"n": 128, "k": 128}))


def _space(inputs, valid=None, **kw):
    """Where held-out shapes come from: ``kw`` as ShapeSpace takes them, inputs under MAX_INPUT_BYTES."""
    def ok(p):
        return sum(t.nbytes for t in inputs(p)) <= MAX_INPUT_BYTES and (valid is None or valid(p))
    return ShapeSpace(valid=ok, **kw)


# --- fused residual add + RMSNorm -----------------------------------------------------------------
# (a float16 RMSNorm alone is norm/rms-norm's; a decoder layer adds the residual in the same pass
# and writes the sum back as the next residual, as vLLM's fused_add_rms_norm)

def _add_rms_norm(p, X, R, gamma):
    """H = X + R (the new residual stream), Y = H / sqrt(mean(H^2) + eps) * gamma; Y from float32 H."""
    n = p["n"]
    h = te.compute(X.shape, lambda i, j: _f32(X[i, j]) + _f32(R[i, j]), name="T_add")
    c = te.reduce_axis((0, n), name="c")
    sq = te.compute((p["m"],), lambda i: te.sum(h[i, c] * h[i, c], axis=c), name="T_sq_sum")
    y = te.compute(X.shape, lambda i, j: h[i, j] * te.rsqrt(sq[i] / n + EPS) * _f32(gamma[j]), name="T_rms_norm")
    return [narrow(y, F16, "T_rms_norm_f16"), narrow(h, F16, "T_residual")]


def _add_rms_norm_ref(p, X, R, gamma):
    h = X + R
    return [refs.rms_norm(h, gamma, EPS), h]


# --- rotary embedding fused with the KV-cache append ----------------------------------------------
#
# TE has no in-place update: every output is a new buffer whose every element a compute defines.
# So the cache is an input and the updated cache an output (a copy with the rotated key, or the
# value, at each sequence's ``pos``): the kernel does what an in-place append does and the copy a
# functional one needs. Outputting only the written slice would leave the append to the caller
# and make the kernel plain RoPE.

def _inv_freq(i, d):
    return te.power(ROPE_BASE, -2.0 * i.astype("float32") / d)


def _rotate(X, pos, neox, d):
    """X (b, heads, d) rotated by angle pos[b] * base^(-2i/d) in float32: pairs (2i, 2i + 1)
    (interleaved, GPT-J/Meta LLaMA) or (i, i + d/2) (half-split, GPT-NeoX/HF LLaMA)."""
    half = d // 2

    def f(b, h, c):
        i = c % half if neox else c // 2
        lo, hi = (i, i + half) if neox else (i * 2, i * 2 + 1)
        first = c < half if neox else c % 2 == 0
        theta = pos[b].astype("float32") * _inv_freq(i, d)
        x0, x1 = _f32(X[b, h, lo]), _f32(X[b, h, hi])
        return te.if_then_else(first, x0 * te.cos(theta) - x1 * te.sin(theta), x1 * te.cos(theta) + x0 * te.sin(theta))
    return f


def _rope_append(neox):
    def compute(p, Q, K, V, Kc, Vc, pos):
        d = p["d"]
        rq, rk = _rotate(Q, pos, neox, d), _rotate(K, pos, neox, d)
        q = te.compute(Q.shape, lambda b, h, c: rq(b, h, c).astype(F16), name="T_q_rope")
        kc = te.compute(Kc.shape, lambda b, t, h, c: te.if_then_else(t == pos[b], rk(b, h, c).astype(F16),
                                                                     Kc[b, t, h, c]), name="T_k_cache")
        vc = te.compute(Vc.shape, lambda b, t, h, c: te.if_then_else(t == pos[b], V[b, h, c], Vc[b, t, h, c]),
                        name="T_v_cache")
        return [q, kc, vc]
    return compute


def rope_ref(X, pos, neox):
    """X (b, heads, d) rotated at each sequence's position pos[b]."""
    d = X.shape[-1]
    theta = pos[:, None, None] * ROPE_BASE ** (-2.0 * np.arange(d // 2) / d)[None, None, :]
    cos, sin = np.cos(theta), np.sin(theta)
    x0, x1 = (X[..., :d // 2], X[..., d // 2:]) if neox else (X[..., 0::2], X[..., 1::2])
    y0, y1 = x0 * cos - x1 * sin, x1 * cos + x0 * sin
    if neox:
        return np.concatenate([y0, y1], axis=-1)
    return np.stack([y0, y1], axis=-1).reshape(X.shape)


def _rope_append_ref(neox):
    def ref(p, Q, K, V, Kc, Vc, pos):
        rows = np.arange(p["b"])
        kc, vc = Kc.copy(), Vc.copy()
        kc[rows, pos] = rope_ref(K, pos, neox)
        vc[rows, pos] = V
        return [rope_ref(Q, pos, neox), kc, vc]
    return ref


def _rope_flops(p):
    return 6 * p["b"] * (p["h"] + p["g"]) * p["d"]  # two products and a sum per rotated element, halves alike


def _rope_inputs(p):
    b, h, g, d, n = p["b"], p["h"], p["g"], p["d"], p["n"]
    return [Tensor("q", (b, h, d), F16), Tensor("k", (b, g, d), F16), Tensor("v", (b, g, d), F16),
            Tensor("k_cache", (b, n, g, d), F16), Tensor("v_cache", (b, n, g, d), F16),
            Tensor("pos", (b,), "int32", init="randint", low=0, high=n)]


# --- decode attention ------------------------------------------------------------------------------

def _decode(p, q, k, v, lens):
    """O[b, hq] = softmax_j(q[b, hq] . k(b, j, hq) / sqrt(d), j < lens[b]) v(b, j, hq), one query
    token per sequence; ``k(b, j, hq, c)``/``v`` read the cache (the layout is an index map)."""
    b, h, d, n = p["b"], p["h"], p["d"], p["n"]
    scale = 1.0 / math.sqrt(d)
    c = te.reduce_axis((0, d), name="c")
    s = te.compute((b, h, n), lambda i, hq, j: te.sum(q(i, hq, c) * k(i, j, hq, c), axis=c), name="T_scores")
    z = te.compute(s.shape, lambda i, hq, j: te.if_then_else(j < lens[i], s[i, hq, j] * scale, NEG), name="T_masked")
    j1 = te.reduce_axis((0, n), name="j1")
    mx = te.compute((b, h), lambda i, hq: te.max(z[i, hq, j1], axis=j1), name="T_max")
    e = te.compute(s.shape, lambda i, hq, j: te.exp(z[i, hq, j] - mx[i, hq]), name="T_exp")
    j2 = te.reduce_axis((0, n), name="j2")
    tot = te.compute((b, h), lambda i, hq: te.sum(e[i, hq, j2], axis=j2), name="T_sum")
    j3 = te.reduce_axis((0, n), name="j3")
    ctx = te.compute((b, h, d), lambda i, hq, x: te.sum(e[i, hq, j3] * v(i, j3, hq, x), axis=j3), name="T_context")
    return te.compute((b, h, d), lambda i, hq, x: (ctx[i, hq, x] / tot[i, hq]).astype(F16), name="T_attention")


def _decode_contiguous(kv):
    def compute(p, Q, K, V, lens):
        per = p["h"] // kv(p)
        return _decode(p, lambda i, hq, c: _f32(Q[i, hq, c]), lambda i, j, hq, c: _f32(K[i, j, hq // per, c]),
                       lambda i, j, hq, c: _f32(V[i, j, hq // per, c]), lens)
    return compute


def _decode_paged(p, Q, Kp, Vp, table, lens):
    per, page = p["h"] // p["g"], p["page"]

    def at(cache):
        return lambda i, j, hq, c: _f32(cache[table[i, j // page], j % page, hq // per, c])
    return _decode({**p, "n": p["pps"] * page}, lambda i, hq, c: _f32(Q[i, hq, c]), at(Kp), at(Vp), lens)


def decode_ref(Q, K, V, lens):
    """Q (b, h, d) against contiguous caches K, V (b, n, g, d), sequence i's first lens[i] tokens."""
    b, h, d = Q.shape
    n, g = K.shape[1], K.shape[2]
    k = np.repeat(K.transpose(0, 2, 1, 3), h // g, axis=1)  # (b, h, n, d)
    v = np.repeat(V.transpose(0, 2, 1, 3), h // g, axis=1)
    keep = np.arange(n)[None, :] < lens[:, None]
    bias = np.where(keep, 0.0, -np.inf)[:, None, None, :]  # (b, 1, 1, n)
    return refs.attention(Q[:, :, None, :], k, v, bias)[:, :, 0, :]


def gather_pages(pages, table):
    """Paged cache (pages, page, g, d) and block table (b, pps) → contiguous (b, pps * page, g, d)."""
    got = pages[table]  # (b, pps, page, g, d)
    return got.reshape(table.shape[0], -1, *pages.shape[2:])


def _decode_paged_ref(p, Q, Kp, Vp, table, lens):
    return decode_ref(Q, gather_pages(Kp, table), gather_pages(Vp, table), lens)


def _decode_inputs(kv):
    def inputs(p):
        b, h, d, n = p["b"], p["h"], p["d"], p["n"]
        g = kv(p)
        return [Tensor("q", (b, h, d), F16, init="uniform"), Tensor("k_cache", (b, n, g, d), F16, init="uniform"),
                Tensor("v_cache", (b, n, g, d), F16), Tensor("lens", (b,), "int32", init="randint", low=1, high=n + 1)]
    return inputs


def _paged_inputs(p):
    b, h, g, d, page, pps = p["b"], p["h"], p["g"], p["d"], p["page"], p["pps"]
    pages = b * pps  # the pool holds every sequence's pages; a row is a permutation of its indices
    return [Tensor("q", (b, h, d), F16, init="uniform"), Tensor("k_pages", (pages, page, g, d), F16, init="uniform"),
            Tensor("v_pages", (pages, page, g, d), F16),
            Tensor("block_table", (b, pps), "int32", init="permutation", low=0, high=pages),
            Tensor("lens", (b,), "int32", init="randint", low=1, high=pps * page + 1)]


def _decode_flops(p):
    n = p["n"] if "n" in p else p["pps"] * p["page"]
    return p["b"] * p["h"] * n * (4 * p["d"] + 6)


def _grouped_ok(p):
    return p["h"] % p["g"] == 0 and 1 < p["g"] < p["h"]


_HEAD_DIMS = {"d": (64, 96, 128)}
_ROPE_SPACE = {"choices": _HEAD_DIMS, "valid": lambda p: p["h"] % p["g"] == 0}


# --- sampling ---------------------------------------------------------------------------------------
#
# Logits are float32 normal draws, not "distinct" ones: the timing pool draws 16,384 spare rows of a
# row-wise init (harness.timing), 2 GiB at a vocabulary of 32,000. Ties come from rounding the
# draws to float32 (nearly every row of 32,000 holds one, a thousandth of rows one among its top 65),
# so both kernels are defined to have one answer with ties: top-k breaks them by the lower index (a
# stable sort: what TVM's CPU and GPU sorts give), top-p's output does not depend on their order.

def _top_k(gpu):
    """The k most probable tokens (int32, descending; ties to the lower index) and their
    probabilities renormalised over the k: softmax of the k largest logits (what top-k sampling
    draws from)."""
    def compute(p, X):
        sort = topi.gpu.topk if gpu else topi.topk
        vals, idx = sort(X, p["k"], axis=-1, ret_type="both", is_ascend=False, dtype="int32")
        # the largest value is the first: no max reduction needed
        e = te.compute(vals.shape, lambda i, r: te.exp(vals[i, r] - vals[i, 0]), name="T_exp")
        r = te.reduce_axis((0, p["k"]), name="r")
        tot = te.compute((p["b"],), lambda i: te.sum(e[i, r], axis=r), name="T_sum")
        probs = te.compute(vals.shape, lambda i, r: e[i, r] / tot[i], name="T_topk_probs")
        # a copy: the sort's two outputs share one op, and outputs are named by their op
        ids = te.compute(idx.shape, lambda i, r: idx[i, r], name="T_topk_indices")
        return [ids, probs]
    return compute


def _top_k_flops(p):
    return p["b"] * (p["v"] * max(1, int(np.log2(p["k"]))) + 3 * p["k"])  # a k-deep selection, the softmax


def _top_k_ref(p, X):
    order = np.argsort(-X, axis=-1, kind="stable")[:, :p["k"]]
    return [order, refs.softmax(np.take_along_axis(X, order, axis=-1))]


def _top_p(gpu):
    """The probabilities renormalised over the nucleus, 0 outside it, in vocabulary order. Sorted by
    probability, the nucleus is the shortest prefix whose mass reaches p (rank r is in it iff the
    mass of the ranks before it is < p); it holds every token whose logit is at least the logit of
    its last rank, so tied tokens are in or out together and the order a sort gives them is moot.

    The cut is decided on a float sum: a kernel's float32 mass may put the last token on the other
    side of p than the float64 reference does, once in a while. That token changes by its
    probability and the others by that fraction: with logits ~ N(0, 4) over >= 32000 tokens it is
    under 2.5e-5 (a quarter of the float32 tolerance), so one answer holds either way, while a wrong
    cut (the renormaliser moves by percents) does not."""
    def compute(p, X):
        b, v = p["b"], p["v"]
        c = te.reduce_axis((0, v), name="c")
        mx = te.compute((b,), lambda i: te.max(X[i, c], axis=c), name="T_max")
        e = te.compute(X.shape, lambda i, j: te.exp(X[i, j] - mx[i]), name="T_exp")
        c2 = te.reduce_axis((0, v), name="c2")
        tot = te.compute((b,), lambda i: te.sum(e[i, c2], axis=c2), name="T_sum")
        order = (topi.gpu.argsort if gpu else topi.argsort)(X, axis=-1, is_ascend=False, dtype="int32")
        sp = te.compute(X.shape, lambda i, r: e[i, order[i, r]] / tot[i], name="T_sorted_probs")
        before = _exclusive_cumsum(p, sp) if gpu else topi.cumsum(sp, axis=1, exclusive=True)
        r = te.reduce_axis((0, v), name="r")
        size = te.compute((b,), lambda i: te.sum((before[i, r] < TOP_P).astype("int32"), axis=r), name="T_nucleus_size")
        cut = te.compute((b,), lambda i: X[i, order[i, size[i] - 1]], name="T_cut")
        c3 = te.reduce_axis((0, v), name="c3")
        kept = te.compute((b,), lambda i: te.sum(te.if_then_else(X[i, c3] >= cut[i], e[i, c3], 0.0), axis=c3),
                          name="T_nucleus_mass")
        return te.compute(X.shape, lambda i, j: te.if_then_else(X[i, j] >= cut[i], e[i, j] / kept[i], 0.0),
                          name="T_top_p_probs")
    return compute


SCAN_BLOCK = 128  # vocabularies are multiples of it (_VOCAB)


def _exclusive_cumsum(p, x):
    """Exclusive prefix sums along rows in blocks of SCAN_BLOCK, as reductions: the GPU path's scan.
    TOPI's GPU scan keeps per-level variables on the host between its launches, which a kernel
    artifact cannot hold; its CPU scan is one serial loop per row."""
    b, v = p["b"], p["v"]
    B = SCAN_BLOCK
    if v % B:
        raise ValueError(f"top-p: vocabulary {v} is not a multiple of {B}")
    t = te.reduce_axis((0, B), name="t")
    blk = te.compute((b, v // B), lambda i, q: te.sum(x[i, q * B + t], axis=t), name="T_block_sum")
    q2 = te.reduce_axis((0, v // B), name="q2")
    head = te.compute((b, v // B), lambda i, q: te.sum(te.if_then_else(q2 < q, blk[i, q2], 0.0), axis=q2),
                      name="T_block_prefix")
    t2 = te.reduce_axis((0, B), name="t2")
    inner = te.compute((b, v), lambda i, r: te.sum(te.if_then_else(t2 < r % B, x[i, r // B * B + t2], 0.0), axis=t2),
                       name="T_inner_prefix")
    return te.compute((b, v), lambda i, r: head[i, r // B] + inner[i, r], name="T_exclusive_cumsum")


def top_p_ref(p, X):
    probs = refs.softmax(X)
    order = np.argsort(-X, axis=-1, kind="stable")
    sp = np.take_along_axis(probs, order, axis=-1)
    size = (np.cumsum(sp, axis=-1) - sp < TOP_P).sum(axis=-1)
    cut = np.take_along_axis(X, np.take_along_axis(order, size[:, None] - 1, axis=-1), axis=-1)
    kept = np.where(X >= cut, probs, 0.0)
    return kept / kept.sum(axis=-1, keepdims=True)


def _logits(p):
    return [Tensor("logits", (p["b"], p["v"]), scale=LOGIT_SCALE)]


_VOCAB = {"v": (32000, 32768, 49152, 50304, 65536), "b": (1, 2, 3, 4, 8), "k": (20, 32, 40, 50, 64)}


def _pattern(name, summary, inputs, compute, reference, flops, workloads, level="L2", vendor=None, space=None,
             gpu_compute=None):
    """``space``: ShapeSpace's arguments for the held-out shapes (see _space)."""
    return OpPattern(id=f"llm/{name}", family="llm", level=level, domains=("language",), summary=summary,
                     inputs=inputs, compute=compute, reference=reference, vendor=vendor, flops=flops,
                     workloads=workloads, shape_space=_space(inputs, **(space or {})), gpu_compute=gpu_compute)


PATTERNS = [
    _qmatmul_pattern("w4a16-gemv", "w4", True,
                     "y[j] = sum_c x[c] * (nibble(P[j, c]) - 8) * scale[j, c // g] (4-bit weights in groups, "
                     "float16 activations: LLM decode)",
                     [wl(n=4096, k=1024, g=128, dtype=F16), wl(n=1024, k=4096, g=64, dtype=F16),
                      wl(n=2048, k=2048, g=32, dtype=F16)]),
    _qmatmul_pattern("w4a16-gemv-zp", "w4", True,
                     "y[j] = sum_c x[c] * (nibble(P[j, c]) - zero[j, c // g]) * scale[j, c // g] (asymmetric "
                     "4-bit groups, GPTQ/AWQ)",
                     [wl(n=1024, k=4096, g=128, dtype=F16), wl(n=2048, k=1024, g=64, dtype=F16)], zp=True),
    _qmatmul_pattern("w4a16-gemm", "w4", False,
                     "Y[i, j] = sum_c X[i, c] * (nibble(P[j, c]) - 8) * scale[j, c // g] (4-bit weights, a few "
                     "rows: batched decode, speculative verification)",
                     [wl(m=4, n=4096, k=1024, g=128, dtype=F16), wl(m=16, n=1024, k=1024, g=64, dtype=F16),
                      wl(m=8, n=1024, k=2048, g=32, dtype=F16)]),
    _qmatmul_pattern("w8a16-gemv", "w8", True,
                     "y[j] = sum_c x[c] * Q[j, c] * scale[j, c // g] (int8 weights in groups, float16 activations)",
                     [wl(n=4096, k=1024, g=128, dtype=F16), wl(n=1024, k=2048, g=64, dtype=F16),
                      wl(n=2048, k=1024, g=32, dtype=F16)]),
    _qmatmul_pattern("w8a16-gemm", "w8", False,
                     "Y[i, j] = sum_c X[i, c] * Q[j, c] * scale[j, c // g] (int8 weights in groups, a few rows)",
                     [wl(m=4, n=1024, k=2048, g=128, dtype=F16), wl(m=16, n=1024, k=1024, g=64, dtype=F16)]),
    _pattern("add-rms-norm", f"H = X + R; Y = H / sqrt(mean(H^2) + {EPS:g}) * gamma (residual add fused with "
             "RMSNorm, float16, both written)",
             lambda p: [Tensor("x", (p["m"], p["n"]), F16), Tensor("residual", (p["m"], p["n"]), F16),
                        Tensor("gamma", (p["n"],), F16, init="positive")],
             _add_rms_norm, _add_rms_norm_ref, lambda p: 5 * p["m"] * p["n"],
             [wl(m=1, n=4096, dtype=F16), wl(m=4, n=4096, dtype=F16), wl(m=16, n=4096, dtype=F16)],
             vendor=refs.as_vendor(_add_rms_norm_ref),
             space={"choices": {"m": (1, 2, 3, 4, 6, 8, 12, 16), "n": (2048, 2560, 3072, 4096)}}),
    _pattern("rope-kv-append", "q, k rotated at pos[b] (interleaved pairs 2i, 2i+1); k and v written to the "
             "caches at pos[b]; rotated q and updated caches out",
             _rope_inputs, _rope_append(False), _rope_append_ref(False), _rope_flops,
             [wl(b=1, h=32, g=8, d=128, n=512, dtype=F16), wl(b=4, h=14, g=2, d=64, n=1024, dtype=F16),
              wl(b=1, h=32, g=32, d=128, n=256, dtype=F16)],
             vendor=refs.as_vendor(_rope_append_ref(False)), space=_ROPE_SPACE),
    _pattern("rope-neox-kv-append", "q, k rotated at pos[b] (half-split pairs i, i+d/2, GPT-NeoX); k and v "
             "written to the caches at pos[b]; rotated q and updated caches out",
             _rope_inputs, _rope_append(True), _rope_append_ref(True), _rope_flops,
             [wl(b=1, h=32, g=8, d=128, n=512, dtype=F16), wl(b=4, h=16, g=16, d=64, n=128, dtype=F16),
              wl(b=2, h=14, g=2, d=64, n=1024, dtype=F16)],
             vendor=refs.as_vendor(_rope_append_ref(True)), space=_ROPE_SPACE),
    _pattern("decode-mha", "O[b, h] = softmax_j(q[b, h] . K[b, j, h] / sqrt(d), j < lens[b]) V[b, j, h]: one "
             "query token per sequence over its KV cache",
             _decode_inputs(lambda p: p["h"]), _decode_contiguous(lambda p: p["h"]),
             lambda p, Q, K, V, lens: decode_ref(Q, K, V, lens), _decode_flops,
             [wl(b=1, h=32, n=256, d=128, dtype=F16), wl(b=4, h=12, n=256, d=64, dtype=F16),
              wl(b=1, h=16, n=1024, d=64, dtype=F16)],
             vendor=refs.as_vendor(lambda p, *a: decode_ref(*a)), space={"choices": _HEAD_DIMS}),
    _pattern("decode-gqa", "O[b, h] = decode attention where G kv heads serve H query heads (head h reads "
             "kv head h // (H/G))",
             _decode_inputs(lambda p: p["g"]), _decode_contiguous(lambda p: p["g"]),
             lambda p, Q, K, V, lens: decode_ref(Q, K, V, lens), _decode_flops,
             [wl(b=1, h=32, g=8, n=1024, d=128, dtype=F16), wl(b=4, h=32, g=4, n=512, d=64, dtype=F16),
              wl(b=1, h=14, g=2, n=1024, d=64, dtype=F16)],
             vendor=refs.as_vendor(lambda p, *a: decode_ref(*a)), space={"choices": _HEAD_DIMS, "valid": _grouped_ok}),
    _pattern("decode-mqa", "O[b, h] = decode attention where one kv head serves every query head (multi-query)",
             _decode_inputs(lambda p: 1), _decode_contiguous(lambda p: 1),
             lambda p, Q, K, V, lens: decode_ref(Q, K, V, lens), _decode_flops,
             [wl(b=1, h=71, n=1024, d=64, dtype=F16), wl(b=4, h=16, n=512, d=128, dtype=F16),
              wl(b=1, h=32, n=4096, d=128, dtype=F16)],
             vendor=refs.as_vendor(lambda p, *a: decode_ref(*a)), space={"choices": _HEAD_DIMS}),
    _pattern("decode-paged", "decode attention over a paged KV cache: token j of sequence b is row j % page of "
             "page block_table[b, j // page] (vLLM's PagedAttention; G kv heads)",
             _paged_inputs, _decode_paged, _decode_paged_ref, _decode_flops,
             [wl(b=4, h=32, g=8, d=128, page=16, pps=16, dtype=F16),
              wl(b=8, h=14, g=2, d=64, page=16, pps=16, dtype=F16),
              wl(b=2, h=32, g=32, d=64, page=32, pps=8, dtype=F16)],
             vendor=refs.as_vendor(_decode_paged_ref),
             space={"choices": {**_HEAD_DIMS, "page": (8, 16, 32), "b": (1, 2, 4, 8)},
                    "valid": lambda p: p["h"] % p["g"] == 0}),
    _pattern("top-k", "the k most probable tokens (int32, descending, ties to the lower index) and their "
             "probabilities renormalised over the k (top-k sampling)",
             _logits, _top_k(False), _top_k_ref, _top_k_flops,
             [wl(b=1, v=32000, k=40), wl(b=4, v=32000, k=50), wl(b=1, v=50304, k=20)], level="L1",
             vendor=_top_k_ref, space={"choices": _VOCAB}, gpu_compute=_top_k(True)),
    _pattern("top-p", f"probabilities renormalised over the nucleus (the fewest most probable tokens whose mass "
             f"reaches {TOP_P}; tied tokens in or out together), 0 elsewhere (top-p sampling)",
             _logits, _top_p(False), top_p_ref, lambda p: p["b"] * p["v"] * (max(1, int(np.log2(p["v"]))) + 6),
             [wl(b=1, v=32000), wl(b=2, v=32000), wl(b=1, v=50304)],
             vendor=top_p_ref, space={"choices": _VOCAB}, gpu_compute=_top_p(True)),
]
