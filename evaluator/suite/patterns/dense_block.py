"""Fused dense subgraphs (L2), each one PrimFunc: linear layers with bias and an activation
(ReLU, SiLU, tanh, sigmoid, BatchNorm + ReLU), two-layer MLPs and transformer feed-forward blocks
(GELU, SwiGLU), a LoRA-adapted linear layer, a dense + softmax classifier, LSTM and GRU cells
(recurrent keyword spotters and anomaly detectors), and DLRM's pairwise dot-product feature
interaction.

Weights are stored row per output (``W[n, k]``, as ``nn.Linear``); float16 workloads compute in
float32 and round once.
"""

import numpy as np
from tvm import te, topi

from evaluator.suite import refs
from evaluator.suite.base import OpPattern, Tensor
from evaluator.suite.declare import dtype_of, narrow, wl

EPS = 1e-3
LORA_SCALE = 2.0


def _f32(x):
    return x if str(x.dtype) == "float32" else x.astype("float32")


def _linear(X, W, name="T_matmul"):
    """Y[i, j] = sum_k X[i, k] W[j, k] in float32."""
    k = te.reduce_axis((0, X.shape[1]), name="k")
    return te.compute((X.shape[0], W.shape[0]), lambda i, j: te.sum(_f32(X[i, k]) * _f32(W[j, k]), axis=k), name=name)


def _sigmoid(x):
    return 1.0 / (1.0 + te.exp(-x))


def _gelu(x):
    return 0.5 * x * (1.0 + te.tanh(refs.GELU_C * (x + 0.044715 * x * x * x)))


def _dense_act(act, name):
    def compute(p, X, W, b):
        y = _linear(X, W)
        z = te.compute(y.shape, lambda i, j: act(y[i, j] + _f32(b[j])), name=name)
        return narrow(z, dtype_of(p))
    return compute


def _dense_inputs(p):
    dt = dtype_of(p)
    return [Tensor("X", (p["m"], p["k"]), dt), Tensor("W", (p["n"], p["k"]), dt, scale=(2.0 / p["k"]) ** 0.5),
            Tensor("b", (p["n"],), dt)]


def _dense_bn_relu(p, X, W, b, g, beta, mean, var):
    y = _linear(X, W)
    return te.compute(y.shape,
                      lambda i, j: te.max((y[i, j] + b[j] - mean[j]) * te.rsqrt(var[j] + EPS) * g[j] + beta[j], 0.0),
                      name="T_bn_relu")


def _mlp(p, X, W1, b1, W2, b2):
    h = _dense_act(lambda x: te.max(x, 0.0), "T_relu")(dict(p, dtype="float32"), X, W1, b1)
    y = _linear(h, W2, "T_matmul2")
    return te.compute(y.shape, lambda i, j: y[i, j] + b2[j], name="T_bias2")


def _ffn_gelu(p, X, W1, b1, W2, b2):
    h = _dense_act(_gelu, "T_gelu")(dict(p, dtype="float32"), X, W1, b1)
    y = _linear(h, W2, "T_matmul2")
    return te.compute(y.shape, lambda i, j: y[i, j] + b2[j], name="T_bias2")


def _swiglu(p, X, W1, W3, W2):
    a = _linear(X, W1, "T_gate")
    c = _linear(X, W3, "T_up")
    h = te.compute(a.shape, lambda i, j: a[i, j] * _sigmoid(a[i, j]) * c[i, j], name="T_swiglu")
    return _linear(h, W2, "T_down")


def _lora(p, X, W, A, B):
    y = _linear(X, W)
    t = _linear(X, A, "T_lora_a")
    r = te.reduce_axis((0, p["r"]), name="r")
    u = te.compute(y.shape, lambda i, j: te.sum(t[i, r] * B[j, r], axis=r), name="T_lora_b")
    return te.compute(y.shape, lambda i, j: y[i, j] + LORA_SCALE * u[i, j], name="T_lora")


def _dense_softmax(p, X, W, b):
    y = _linear(X, W)
    z = te.compute(y.shape, lambda i, j: y[i, j] + b[j], name="T_logits")
    return topi.nn.softmax(z, axis=-1)


def _lstm(p, x, h, c, Wx, Wh, bias):
    H = p["h"]
    gx = _linear(x, Wx, "T_gates_x")
    gh = _linear(h, Wh, "T_gates_h")

    def gate(b, j, q):
        return gx[b, q * H + j] + gh[b, q * H + j] + bias[q * H + j]
    c_new = te.compute((p["b"], H), lambda b, j: _sigmoid(gate(b, j, 1)) * c[b, j]
                       + _sigmoid(gate(b, j, 0)) * te.tanh(gate(b, j, 2)), name="T_cell")
    h_new = te.compute((p["b"], H), lambda b, j: _sigmoid(gate(b, j, 3)) * te.tanh(c_new[b, j]), name="T_hidden")
    return [h_new, c_new]


def _lstm_ref(p, x, h, c, Wx, Wh, bias):
    g = x @ Wx.T + h @ Wh.T + bias
    i, f, gg, o = np.split(g, 4, axis=1)
    c2 = refs.sigmoid(f) * c + refs.sigmoid(i) * np.tanh(gg)
    return [refs.sigmoid(o) * np.tanh(c2), c2]


def _gru(p, x, h, Wx, Wh, bx, bh):
    H = p["h"]
    gx = _linear(x, Wx, "T_gates_x")
    gh = _linear(h, Wh, "T_gates_h")

    def ax(b, j, q):
        return gx[b, q * H + j] + bx[q * H + j]

    def ah(b, j, q):
        return gh[b, q * H + j] + bh[q * H + j]

    def f(b, j):
        r = _sigmoid(ax(b, j, 0) + ah(b, j, 0))
        z = _sigmoid(ax(b, j, 1) + ah(b, j, 1))
        n = te.tanh(ax(b, j, 2) + r * ah(b, j, 2))
        return (1.0 - z) * n + z * h[b, j]
    return te.compute((p["b"], H), f, name="T_gru")


def _gru_ref(p, x, h, Wx, Wh, bx, bh):
    xr, xz, xn = np.split(x @ Wx.T + bx, 3, axis=1)
    hr, hz, hn = np.split(h @ Wh.T + bh, 3, axis=1)
    r, z = refs.sigmoid(xr + hr), refs.sigmoid(xz + hz)
    n = np.tanh(xn + r * hn)
    return (1 - z) * n + z * h


def _interaction(p, X, T, li, lj):
    d, pairs = p["d"], p["pairs"]
    k = te.reduce_axis((0, d), name="k")
    z = te.compute((p["b"], pairs), lambda b, q: te.sum(T[b, li[q], k] * T[b, lj[q], k], axis=k), name="T_pair_dots")
    return te.compute((p["b"], d + pairs), lambda b, j: te.if_then_else(j < d, X[b, te.min(j, d - 1)],
                                                                       z[b, te.max(j - d, 0)]), name="T_interaction")


def _interaction_ref(p, X, T, li, lj):
    z = np.einsum("bqd,bqd->bq", T[:, li], T[:, lj])
    return np.concatenate([X, z], axis=1)


# --- patterns ------------------------------------------------------------------------------------

def _pattern(name, summary, inputs, compute, reference, flops, workloads, domains=(), level="L2"):
    return OpPattern(id=f"dense-block/{name}", family="dense-block", level=level, domains=domains, summary=summary,
                     inputs=inputs, compute=compute, reference=reference, vendor=reference, flops=flops,
                     workloads=workloads)


def _mm_flops(p, extra=2):
    return p["m"] * p["n"] * (2 * p["k"] + extra)


def _w(name, n, k, gain=2.0):
    return Tensor(name, (n, k), scale=(gain / k) ** 0.5)


def _vec(name, n, init="normal"):
    return Tensor(name, (n,), init=init)


_LANG, _REC, _AD = ("language",), ("recommendation",), ("anomaly-detection",)


def _act_ref(act):
    return lambda p, X, W, b: act(X @ W.T + b)


PATTERNS = [
    _pattern("dense-bias", "Y = X W^T + b (nn.Linear)", _dense_inputs, _dense_act(lambda x: x, "T_bias"),
             _act_ref(lambda x: x), lambda p: _mm_flops(p, 1),
             [wl(m=1, n=128, k=640, domains=_AD), wl(m=1, n=640, k=128, domains=_AD),
              wl(m=128, n=768, k=768, domains=_LANG),
              wl(m=128, n=768, k=768, dtype="float16", domains=_LANG),
              wl(m=128, n=768, k=768, dtype="bfloat16", domains=_LANG),
              wl(m=1, n=128, k=640, dtype="float16", domains=_AD),
              wl(m=1, n=640, k=128, dtype="float16", domains=_AD)],
             level="L1"),  # one operator (nn.Linear, addmm), as KernelBench files it: not a fused block
    _pattern("dense-bias-relu", "Y = relu(X W^T + b)", _dense_inputs,
             _dense_act(lambda x: te.max(x, 0.0), "T_bias_relu"),
             _act_ref(lambda x: np.maximum(x, 0.0)), _mm_flops,
             [wl(m=128, n=512, k=13, domains=_REC), wl(m=32, n=256, k=512, domains=_REC),
              wl(m=32, n=256, k=512, dtype="float16", domains=_REC),
              # the batch-1 DLRM MLP layers (bottom 13-512-256-64-16, top 367-512-256)
              wl(m=1, n=512, k=13, domains=_REC), wl(m=1, n=256, k=512, domains=_REC),
              wl(m=1, n=64, k=256, domains=_REC),
              wl(m=1, n=16, k=64, domains=_REC), wl(m=1, n=512, k=367, domains=_REC),
              wl(m=128, n=512, k=13, dtype="float16", domains=_REC),
              wl(m=1, n=256, k=512, dtype="float16", domains=_REC),
              wl(m=1, n=64, k=256, dtype="float16", domains=_REC)]),
    _pattern("dense-bias-silu", "Y = silu(X W^T + b)", _dense_inputs,
             _dense_act(lambda x: x * _sigmoid(x), "T_bias_silu"),
             _act_ref(refs.silu), lambda p: _mm_flops(p, 5), [wl(m=64, n=1024, k=256, domains=_LANG)]),
    _pattern("dense-bias-tanh", "Y = tanh(X W^T + b) (pooler, RNN projections)", _dense_inputs,
             _dense_act(te.tanh, "T_bias_tanh"), _act_ref(np.tanh), lambda p: _mm_flops(p, 2),
             [wl(m=8, n=768, k=768, domains=_LANG), wl(m=64, n=128, k=128, domains=("audio",))]),
    _pattern("dense-bias-sigmoid", "Y = sigmoid(X W^T + b) (click-through-rate / multi-label head)", _dense_inputs,
             _dense_act(_sigmoid, "T_bias_sigmoid"), _act_ref(refs.sigmoid), lambda p: _mm_flops(p, 5),
             [wl(m=128, n=1, k=256, domains=_REC), wl(m=256, n=16, k=64, domains=_REC),
              wl(m=1, n=1, k=256, domains=_REC)]),
    _pattern("dense-bn-relu", "Y = relu(BN(X W^T + b)) (the layer of the MLPerf Tiny anomaly-detection autoencoder)",
             lambda p: [Tensor("X", (p["m"], p["k"])), _w("W", p["n"], p["k"]), _vec("b", p["n"]),
                        _vec("gamma", p["n"], "positive"), _vec("beta", p["n"]), _vec("mean", p["n"]),
                        _vec("var", p["n"], "positive")],
             _dense_bn_relu,
             lambda p, X, W, b, g, beta, m, v: np.maximum(refs.batch_norm(X @ W.T + b, g, beta, m, v, EPS), 0.0),
             lambda p: _mm_flops(p, 6), [wl(m=1, n=128, k=640, domains=_AD), wl(m=1, n=8, k=128, domains=_AD),
                                         wl(m=1, n=128, k=128, domains=_AD), wl(m=1, n=128, k=8, domains=_AD),
                                         wl(m=32, n=128, k=128, domains=_AD)]),
    _pattern("mlp-relu-2layer", "Y = relu(X W1^T + b1) W2^T + b2 (two-layer MLP: DLRM bottom/top MLP)",
             lambda p: [Tensor("X", (p["m"], p["k"])), _w("W1", p["h"], p["k"]), _vec("b1", p["h"]),
                        _w("W2", p["n"], p["h"], 1.0), _vec("b2", p["n"])],
             _mlp, lambda p, X, W1, b1, W2, b2: np.maximum(X @ W1.T + b1, 0.0) @ W2.T + b2,
             lambda p: 2 * p["m"] * p["h"] * (p["k"] + p["n"]),
             [wl(m=128, k=13, h=512, n=256, domains=_REC), wl(m=64, k=479, h=256, n=64, domains=_REC),
              wl(m=64, k=128, h=512, n=128, domains=_LANG)]),
    _pattern("ffn-gelu", "Y = gelu(X W1^T + b1) W2^T + b2 (transformer feed-forward, tanh GELU)",
             lambda p: [Tensor("X", (p["m"], p["k"])), _w("W1", p["h"], p["k"], 1.0), _vec("b1", p["h"]),
                        _w("W2", p["k"], p["h"], 1.0), _vec("b2", p["k"])],
             _ffn_gelu, lambda p, X, W1, b1, W2, b2: refs.gelu_tanh(X @ W1.T + b1) @ W2.T + b2,
             lambda p: 4 * p["m"] * p["h"] * p["k"], [wl(m=128, k=256, h=1024, domains=_LANG),
                                                      wl(m=197, k=192, h=768, domains=("vision",))]),
    _pattern("swiglu-ffn", "Y = (silu(X W1^T) * (X W3^T)) W2^T (LLaMA feed-forward)",
             lambda p: [Tensor("X", (p["m"], p["k"])), _w("W1", p["h"], p["k"], 1.0), _w("W3", p["h"], p["k"], 1.0),
                        _w("W2", p["k"], p["h"], 1.0)],
             _swiglu, lambda p, X, W1, W3, W2: (refs.silu(X @ W1.T) * (X @ W3.T)) @ W2.T,
             lambda p: 6 * p["m"] * p["h"] * p["k"],
             [wl(m=64, k=288, h=768, domains=_LANG), wl(m=1, k=512, h=1376, domains=_LANG)]),
    _pattern("lora-dense", f"Y = X W^T + {LORA_SCALE:g} (X A^T) B^T (low-rank adapted linear layer)",
             lambda p: [Tensor("X", (p["m"], p["k"])), _w("W", p["n"], p["k"], 1.0), _w("A", p["r"], p["k"], 1.0),
                        _w("B", p["n"], p["r"], 1.0)],
             _lora, lambda p, X, W, A, B: X @ W.T + LORA_SCALE * (X @ A.T) @ B.T,
             lambda p: 2 * p["m"] * (p["n"] * p["k"] + p["r"] * (p["k"] + p["n"])),
             [wl(m=128, n=768, k=768, r=8, domains=_LANG), wl(m=16, n=512, k=512, r=16, domains=_LANG)]),
    _pattern("dense-softmax", "Y = softmax(X W^T + b) (classifier output layer)", _dense_inputs, _dense_softmax,
             _act_ref(refs.softmax), lambda p: _mm_flops(p, 6),
             [wl(m=1, n=12, k=64, domains=("audio",)), wl(m=32, n=1000, k=256, domains=("vision",))]),
    _pattern("lstm-cell", "(h', c') of an LSTM step: gates = x Wx^T + h Wh^T + b (i, f, g, o as PyTorch)",
             lambda p: [Tensor("x", (p["b"], p["i"])), Tensor("h", (p["b"], p["h"])), Tensor("c", (p["b"], p["h"])),
                        _w("Wx", 4 * p["h"], p["i"], 1.0), _w("Wh", 4 * p["h"], p["h"], 1.0), _vec("bias", 4 * p["h"])],
             _lstm, _lstm_ref, lambda p: 8 * p["b"] * p["h"] * (p["i"] + p["h"]) + 20 * p["b"] * p["h"],
             [wl(b=1, i=40, h=128, domains=("audio",)), wl(b=16, i=128, h=256, domains=_AD)]),
    _pattern("gru-cell", "h' of a GRU step (r, z, n gates as PyTorch: n = tanh(Win x + bin + r (Whn h + bhn)))",
             lambda p: [Tensor("x", (p["b"], p["i"])), Tensor("h", (p["b"], p["h"])), _w("Wx", 3 * p["h"], p["i"], 1.0),
                        _w("Wh", 3 * p["h"], p["h"], 1.0), _vec("bx", 3 * p["h"]), _vec("bh", 3 * p["h"])],
             _gru, _gru_ref, lambda p: 6 * p["b"] * p["h"] * (p["i"] + p["h"]) + 15 * p["b"] * p["h"],
             [wl(b=1, i=40, h=64, domains=("audio",)), wl(b=32, i=64, h=128, domains=("signal-processing",))]),
    _pattern("dot-interaction", "Y = [X | T[b, li[q]] . T[b, lj[q]] for each pair q] (DLRM feature interaction)",
             lambda p: [Tensor("X", (p["b"], p["d"])), Tensor("T", (p["b"], p["f"], p["d"])),
                        Tensor("li", (p["pairs"],), "int32", init="randint", low=0, high=p["f"]),
                        Tensor("lj", (p["pairs"],), "int32", init="randint", low=0, high=p["f"])],
             _interaction, _interaction_ref, lambda p: 2 * p["b"] * p["pairs"] * p["d"],
             [wl(b=128, d=64, f=27, pairs=351, domains=_REC), wl(b=32, d=16, f=9, pairs=36, domains=_REC),
              wl(b=1, d=16, f=27, pairs=351, domains=_REC)]),
]
