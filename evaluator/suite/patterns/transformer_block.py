"""Fused transformer sublayers (L2), each one PrimFunc: residual + RMS norm, LayerNorm + linear,
the QKV projection with the head split, a whole multi-head self-attention layer, BERT's attention
output (projection + residual + LayerNorm) and embedding layer (gather + positions + LayerNorm),
the post-norm FFN sublayer, a pre-norm SwiGLU sublayer, and ViT's patch embedding.

LayerNorm/RMSNorm epsilon 1e-5; GELU is the tanh form. Every pattern takes a ``dtype``: float16
workloads store their inputs and outputs in float16 and compute the whole sublayer in float32
(``suite.precision``).
"""

from tvm import te, topi

from evaluator.suite import refs
from evaluator.suite.base import OpPattern, Tensor
from evaluator.suite.declare import wl
from evaluator.suite.patterns.attention import attend
from evaluator.suite.precision import in_float32, stored_inputs, vendor_in_float32

EPS = 1e-5


def _linear(X, W, name="T_matmul"):
    k = te.reduce_axis((0, X.shape[1]), name="k")
    return te.compute((X.shape[0], W.shape[0]), lambda i, j: te.sum(X[i, k] * W[j, k], axis=k), name=name)


def _bias(y, b, name="T_bias"):
    return te.compute(y.shape, lambda i, j: y[i, j] + b[j], name=name)


def _ln(x, g, b):
    return topi.nn.layer_norm(x, g, b, axis=[-1], epsilon=EPS)


def _sigmoid(x):
    return 1.0 / (1.0 + te.exp(-x))


def _gelu(x):
    return 0.5 * x * (1.0 + te.tanh(refs.GELU_C * (x + 0.044715 * x * x * x)))


def _rms(x, g, n, name):
    k = te.reduce_axis((0, n), name="k_rms")
    sq = te.compute((x.shape[0],), lambda i: te.sum(x[i, k] * x[i, k], axis=k), name="T_sq_sum")
    return te.compute(x.shape, lambda i, j: x[i, j] * te.rsqrt(sq[i] / n + EPS) * g[j], name=name)


def _residual_rms(p, X, R, g):
    s = te.compute(X.shape, lambda i, j: X[i, j] + R[i, j], name="T_residual")
    return _rms(s, g, p["n"], "T_rms_norm")


def _ln_dense(p, X, g, beta, W, b):
    return _bias(_linear(_ln(X, g, beta), W), b)


def _qkv(p, X, W, b):
    s, h, dh = p["s"], p["h"], p["d"] // p["h"]
    y = _bias(_linear(X, W), b)

    def head(q, name):
        return te.compute((h, s, dh), lambda a, i, c: y[i, q * p["d"] + a * dh + c], name=name)
    return [head(q, f"T_{n}") for q, n in enumerate("qkv")]


def _qkv_ref(p, X, W, b):
    s, h, dh = p["s"], p["h"], p["d"] // p["h"]
    y = X @ W.T + b
    return [y[:, q * p["d"]:(q + 1) * p["d"]].reshape(s, h, dh).transpose(1, 0, 2) for q in range(3)]


def _mha(p, X, Wqkv, bqkv, Wo, bo):
    s, h, d = p["s"], p["h"], p["d"]
    dh = d // h
    y = _bias(_linear(X, Wqkv, "T_qkv"), bqkv, "T_qkv_bias")
    ctx = attend((h, s, dh), s, dh, lambda a, i, c: y[i, a * dh + c], lambda a, j, c: y[j, d + a * dh + c],
                  lambda a, j, c: y[j, 2 * d + a * dh + c])
    merged = te.compute((s, d), lambda i, x: ctx[x // dh, i, x % dh], name="T_merge_heads")
    return _bias(_linear(merged, Wo, "T_out"), bo, "T_out_bias")


def _mha_ref(p, X, Wqkv, bqkv, Wo, bo):
    q, k, v = _qkv_ref(p, X, Wqkv, bqkv)
    ctx = refs.attention(q, k, v).transpose(1, 0, 2).reshape(p["s"], p["d"])
    return ctx @ Wo.T + bo


def _attn_out(p, C, W, b, R, g, beta):
    y = _linear(C, W)
    z = te.compute(y.shape, lambda i, j: y[i, j] + b[j] + R[i, j], name="T_residual")
    return _ln(z, g, beta)


def _embed_ln(p, ids, word, pos, g, beta):
    e = te.compute((p["s"], p["d"]), lambda i, j: word[ids[i], j] + pos[i, j], name="T_embed")
    return _ln(e, g, beta)


def _ffn_post_ln(p, X, W1, b1, W2, b2, g, beta):
    h = _gelu_dense(X, W1, b1)
    y = _linear(h, W2, "T_down")
    z = te.compute(y.shape, lambda i, j: X[i, j] + y[i, j] + b2[j], name="T_residual")
    return _ln(z, g, beta)


def _gelu_dense(X, W1, b1):
    u = _linear(X, W1, "T_up")
    return te.compute(u.shape, lambda i, j: _gelu(u[i, j] + b1[j]), name="T_gelu")


def _prenorm_swiglu(p, X, g, W1, W3, W2):
    xn = _rms(X, g, p["d"], "T_rms_norm")
    a, c = _linear(xn, W1, "T_gate"), _linear(xn, W3, "T_up")
    hdn = te.compute(a.shape, lambda i, j: a[i, j] * _sigmoid(a[i, j]) * c[i, j], name="T_swiglu")
    y = _linear(hdn, W2, "T_down")
    return te.compute(X.shape, lambda i, j: X[i, j] + y[i, j], name="T_residual")


def _prenorm_swiglu_ref(p, X, g, W1, W3, W2):
    xn = refs.rms_norm(X, g, EPS)
    return X + (refs.silu(xn @ W1.T) * (xn @ W3.T)) @ W2.T


def _patch_embed(p, X, W, b, pos):
    pp, d = p["patch"], p["d"]
    gw = p["w"] // pp
    y = topi.nn.conv2d_nchw(X, W, pp, 0, 1)
    return te.compute(((p["h"] // pp) * gw, d), lambda t, j: y[0, j, t // gw, t % gw] + b[j] + pos[t, j],
                      name="T_tokens")


def _patch_embed_ref(p, X, W, b, pos):
    y = refs.conv(X, W, p["patch"])[0]  # (d, gh, gw)
    return y.reshape(p["d"], -1).T + b + pos


def _pattern(name, summary, inputs, compute, reference, flops, workloads, domains=("language",)):
    return OpPattern(id=f"transformer-block/{name}", family="transformer-block", level="L2", domains=domains,
                     summary=summary, inputs=stored_inputs(inputs), compute=in_float32(compute), reference=reference,
                     vendor=vendor_in_float32(reference), flops=flops, workloads=workloads)


def _w(name, n, k, gain=1.0):
    return Tensor(name, (n, k), scale=(gain / k) ** 0.5)


def _vec(name, n, init="normal"):
    return Tensor(name, (n,), init=init)


def _ln_ref(x, g, b):
    return refs.layer_norm(x, g, b, eps=EPS)


PATTERNS = [
    _pattern("residual-rms-norm", "Y = rms_norm(X + R) * gamma (pre-norm residual stream, LLaMA)",
             lambda p: [Tensor("X", (p["m"], p["n"])), Tensor("R", (p["m"], p["n"])),
                        _vec("gamma", p["n"], "positive")],
             _residual_rms, lambda p, X, R, g: refs.rms_norm(X + R, g, EPS), lambda p: 5 * p["m"] * p["n"],
             [wl(m=128, n=288), wl(m=1, n=2048)]),
    _pattern("layer-norm-dense", "Y = LayerNorm(X) W^T + b (pre-norm projection)",
             lambda p: [Tensor("X", (p["m"], p["k"])), _vec("gamma", p["k"], "positive"), _vec("beta", p["k"]),
                        _w("W", p["n"], p["k"]), _vec("b", p["n"])],
             _ln_dense, lambda p, X, g, beta, W, b: _ln_ref(X, g, beta) @ W.T + b,
             lambda p: p["m"] * (8 * p["k"] + 2 * p["n"] * p["k"]),
             [wl(m=128, k=256, n=768), wl(m=197, k=192, n=576, domains=("vision",)),
              wl(m=128, k=256, n=768, dtype="float16"), wl(m=197, k=192, n=576, dtype="float16", domains=("vision",)),
              wl(m=128, k=256, n=768, dtype="bfloat16")]),
    _pattern("qkv-projection", "[Q, K, V][h, s, :] = (X Wqkv^T + b) split into heads (3 outputs)",
             lambda p: [Tensor("X", (p["s"], p["d"])), _w("W", 3 * p["d"], p["d"]), _vec("b", 3 * p["d"])],
             _qkv, _qkv_ref, lambda p: 6 * p["s"] * p["d"] * p["d"],
             [wl(s=128, d=256, h=4), wl(s=197, d=192, h=3, domains=("vision",)), wl(s=128, d=256, h=4, dtype="float16"),
              wl(s=197, d=192, h=3, dtype="float16", domains=("vision",))]),
    _pattern("mha-block",
             "Y = (softmax(Q K^T / sqrt(d_h)) V merged) Wo^T + bo, Q/K/V from X Wqkv^T + bqkv (self-attention layer)",
             lambda p: [Tensor("X", (p["s"], p["d"])), _w("Wqkv", 3 * p["d"], p["d"]), _vec("bqkv", 3 * p["d"]),
                        _w("Wo", p["d"], p["d"]), _vec("bo", p["d"])],
             _mha, _mha_ref,
             lambda p: 8 * p["s"] * p["d"] * p["d"] + p["h"] * p["s"] * p["s"] * (4 * p["d"] // p["h"] + 6),
             [wl(s=64, d=128, h=4), wl(s=49, d=96, h=3, domains=("vision",)), wl(s=64, d=128, h=4, dtype="float16"),
              wl(s=49, d=96, h=3, dtype="float16", domains=("vision",)), wl(s=64, d=128, h=4, dtype="bfloat16")]),
    _pattern("attention-output", "Y = LayerNorm(C W^T + b + R) (attention output projection + residual + norm, BERT)",
             lambda p: [Tensor("C", (p["s"], p["d"])), _w("W", p["d"], p["d"]), _vec("b", p["d"]),
                        Tensor("R", (p["s"], p["d"])),
                        _vec("gamma", p["d"], "positive"), _vec("beta", p["d"])],
             _attn_out, lambda p, C, W, b, R, g, beta: _ln_ref(C @ W.T + b + R, g, beta),
             lambda p: 2 * p["s"] * p["d"] * p["d"] + 10 * p["s"] * p["d"],
             [wl(s=128, d=256), wl(s=128, d=768), wl(s=128, d=256, dtype="float16"),
              wl(s=128, d=768, dtype="float16")]),
    _pattern("embedding-layer-norm", "Y = LayerNorm(word[ids] + pos[0:s]) (BERT-style embedding layer)",
             lambda p: [Tensor("ids", (p["s"],), "int32", init="randint", low=0, high=p["v"]),
                        Tensor("word", (p["v"], p["d"])), Tensor("pos", (p["s"], p["d"])),
                        _vec("gamma", p["d"], "positive"), _vec("beta", p["d"])],
             _embed_ln, lambda p, ids, word, pos, g, beta: _ln_ref(word[ids] + pos, g, beta),
             lambda p: 9 * p["s"] * p["d"], [wl(s=128, v=30522, d=128), wl(s=64, v=8000, d=256)]),
    _pattern("ffn-residual-layer-norm", "Y = LayerNorm(X + gelu(X W1^T + b1) W2^T + b2) (post-norm FFN sublayer)",
             lambda p: [Tensor("X", (p["s"], p["d"])), _w("W1", p["h"], p["d"]), _vec("b1", p["h"]),
                        _w("W2", p["d"], p["h"]),
                        _vec("b2", p["d"]), _vec("gamma", p["d"], "positive"), _vec("beta", p["d"])],
             _ffn_post_ln,
             lambda p, X, W1, b1, W2, b2, g, beta: _ln_ref(X + refs.gelu_tanh(X @ W1.T + b1) @ W2.T + b2, g, beta),
             lambda p: 4 * p["s"] * p["d"] * p["h"] + 12 * p["s"] * p["d"], [wl(s=128, d=256, h=1024)]),
    _pattern("prenorm-swiglu-residual", "Y = X + SwiGLU(rms_norm(X) * g) (LLaMA feed-forward sublayer)",
             lambda p: [Tensor("X", (p["s"], p["d"])), _vec("g", p["d"], "positive"), _w("W1", p["h"], p["d"]),
                        _w("W3", p["h"], p["d"]), _w("W2", p["d"], p["h"])],
             _prenorm_swiglu,
             _prenorm_swiglu_ref,
             lambda p: 6 * p["s"] * p["d"] * p["h"], [wl(s=32, d=288, h=768), wl(s=1, d=512, h=1376)]),
    _pattern("patch-embed", "T[t, :] = conv_pxp(X, W, stride p)[:, t] + b + pos[t] (ViT patch embedding to tokens)",
             lambda p: [Tensor("X", (1, p["c"], p["h"], p["w"])),
                        Tensor("W", (p["d"], p["c"], p["patch"], p["patch"]),
                               scale=(1.0 / (p["c"] * p["patch"] ** 2)) ** 0.5),
                        _vec("b", p["d"]), Tensor("pos", ((p["h"] // p["patch"]) * (p["w"] // p["patch"]), p["d"]))],
             _patch_embed, _patch_embed_ref,
             lambda p: 2 * p["d"] * p["c"] * p["h"] * p["w"], [wl(c=3, h=224, w=224, patch=16, d=192),
                                                                 wl(c=3, h=32, w=32, patch=4,
                                                                    d=128)], domains=("vision",)),
]
