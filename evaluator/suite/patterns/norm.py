"""Normalisations: layer norm and RMS norm (transformers), batch norm at inference (NCHW, NHWC,
dense features) and with batch statistics, group and instance norm, channel-wise layer norm
(ConvNeXt), L2 normalisation of embeddings, local response normalisation, and per-feature
mean/variance normalisation of speech features (CMVN).

Statistics are population (biased) moments; float16 workloads compute in float32.
Also exports ``EPS`` and ``layer_norm_ref`` for the fused patterns.
"""

import numpy as np
from tvm import te, topi

from evaluator.suite import refs
from evaluator.suite.base import OpPattern, Tensor, Workload
from evaluator.suite.declare import dtype_of, narrow, numel, widen, wl

EPS = 1e-5
LRN = dict(size=5, alpha=1e-4, beta=0.75, bias=2.0)


def layer_norm_ref(X, gamma, beta):
    return refs.layer_norm(X, gamma, beta, eps=EPS)


def _layer_norm(p, X, gamma, beta):
    y = topi.nn.layer_norm(widen(X), widen(gamma), widen(beta), axis=[-1], epsilon=EPS)
    return narrow(y, dtype_of(p))


def _f32(x):
    return x if str(x.dtype) == "float32" else x.astype("float32")


def _rms_norm(p, X, gamma):
    k = te.reduce_axis((0, p["n"]), name="k")
    sq = te.compute((p["m"],), lambda i: te.sum(_f32(X[i, k]) * _f32(X[i, k]), axis=k), name="T_sq_sum")
    y = te.compute(X.shape, lambda i, j: _f32(X[i, j]) * te.rsqrt(sq[i] / p["n"] + EPS) * _f32(gamma[j]),
                   name="T_rms_norm")
    return narrow(y, dtype_of(p))


def _bn_infer(p, X, gamma, beta, mean, var, axis):
    def f(*i):
        c = i[axis]
        return (X(*i) - mean[c]) * te.rsqrt(var[c] + EPS) * gamma[c] + beta[c]
    return te.compute(X.shape, f, name="T_batch_norm")


def _bn_train(p, X, gamma, beta):
    n, c, h, w = X.shape
    count = p["n"] * p["h"] * p["w"]
    rn, ry, rx = te.reduce_axis((0, n), "rn"), te.reduce_axis((0, h), "ry"), te.reduce_axis((0, w), "rx")
    s = te.compute((c,), lambda k: te.sum(X[rn, k, ry, rx], axis=[rn, ry, rx]), name="T_sum")
    rn2, ry2, rx2 = te.reduce_axis((0, n), "rn2"), te.reduce_axis((0, h), "ry2"), te.reduce_axis((0, w), "rx2")
    sq = te.compute((c,), lambda k: te.sum((X[rn2, k, ry2, rx2] - s[k] / count) * (X[rn2, k, ry2, rx2] - s[k] / count),
                                           axis=[rn2, ry2, rx2]), name="T_sq_dev")
    return te.compute(X.shape, lambda a, k, y, x: (X[a, k, y, x] - s[k] / count) * te.rsqrt(sq[k] / count + EPS)
                      * gamma[k] + beta[k], name="T_batch_norm")


def _bn_train_ref(p, X, gamma, beta):
    mean = X.mean(axis=(0, 2, 3))
    var = X.var(axis=(0, 2, 3))
    return refs.batch_norm(X, gamma, beta, mean, var, EPS)


def _group_norm_ref(p, X, gamma, beta):
    n, c, h, w = X.shape
    g = X.reshape(n, p["g"], c // p["g"], h, w)
    y = refs.layer_norm(g, axis=(2, 3, 4), eps=EPS).reshape(X.shape)
    return y * refs.channel(gamma) + refs.channel(beta)


def _l2_normalize(p, X):
    k = te.reduce_axis((0, p["n"]), name="k")
    sq = te.compute((p["m"],), lambda i: te.sum(X[i, k] * X[i, k], axis=k), name="T_sq_sum")
    return te.compute(X.shape, lambda i, j: X[i, j] / te.max(te.sqrt(sq[i]), 1e-12), name="T_l2_normalize")


def _lrn_ref(p, X):
    half = LRN["size"] // 2
    sq = np.pad(X * X, ((0, 0), (half, half), (0, 0), (0, 0)))
    s = sum(sq[:, i:i + X.shape[1]] for i in range(LRN["size"]))
    return X / (LRN["bias"] + LRN["alpha"] / LRN["size"] * s) ** LRN["beta"]


def _cmvn(p, X):
    t, f = p["t"], p["f"]
    k = te.reduce_axis((0, t), name="k")
    s = te.compute((f,), lambda j: te.sum(X[k, j], axis=k), name="T_sum")
    k2 = te.reduce_axis((0, t), name="k2")
    sq = te.compute((f,), lambda j: te.sum((X[k2, j] - s[j] / t) * (X[k2, j] - s[j] / t), axis=k2), name="T_sq_dev")
    return te.compute(X.shape, lambda i, j: (X[i, j] - s[j] / t) * te.rsqrt(sq[j] / t + EPS), name="T_cmvn")


def _norm(name, summary, inputs, compute, reference, ops, workloads, domains=()):
    return OpPattern(id=f"norm/{name}", family="norm", level="L1", domains=domains, summary=summary,
                     inputs=inputs, compute=compute, reference=reference, vendor=reference,
                     flops=lambda p: ops * numel(inputs(p)[0].shape), workloads=workloads)


def _vec(name, c, init="normal"):
    return Tensor(name, (c,), init=init)


def _bn_vectors(c):
    return [_vec("gamma", c, "positive"), _vec("beta", c), _vec("mean", c), _vec("var", c, "positive")]


def _nchw(p):
    return (p["n"], p["c"], p["h"], p["w"])


_VIS = ("vision",)

PATTERNS = [
    OpPattern(
        id="norm/layer-norm",
        family="norm",
        level="L1",
        domains=("language",),
        summary="Y = (X - mean(X)) / sqrt(var(X) + 1e-5) * gamma + beta, statistics over the last axis",
        inputs=lambda p: [Tensor("X", (p["m"], p["n"]), dtype_of(p)), Tensor("gamma", (p["n"],), dtype_of(p)),
                          Tensor("beta", (p["n"],), dtype_of(p))],
        compute=_layer_norm,
        reference=lambda p, X, gamma, beta: layer_norm_ref(X, gamma, beta),
        vendor=lambda p, X, gamma, beta: layer_norm_ref(X, gamma, beta),
        # mean, variance (2 reductions) and 4 elementwise operations per element
        flops=lambda p: 8 * p["m"] * p["n"],
        workloads=[
            Workload("m128n768", {"m": 128, "n": 768}),
            Workload("m196n384", {"m": 196, "n": 384}, domains=("vision",)),
            Workload("m64n256", {"m": 64, "n": 256}, domains=("audio",)),
            wl(m=128, n=768, dtype="float16"),
            wl(m=128, n=768, dtype="bfloat16"),
            wl(m=196, n=384, dtype="float16", domains=("vision",)),
            wl(m=64, n=256, dtype="float16", domains=("audio",)),
        ],
    ),
    OpPattern(
        id="norm/rms-norm",
        family="norm",
        level="L1",
        domains=("language",),
        summary="Y = X / sqrt(mean(X^2) + 1e-5) * gamma, statistics over the last axis",
        inputs=lambda p: [Tensor("X", (p["m"], p["n"]), dtype_of(p)), Tensor("gamma", (p["n"],), dtype_of(p))],
        compute=_rms_norm,
        reference=lambda p, X, gamma: refs.rms_norm(X, gamma, EPS),
        vendor=lambda p, X, gamma: refs.rms_norm(X, gamma, EPS),
        # square, sum, scale and multiply by gamma: 4 operations per element
        flops=lambda p: 4 * p["m"] * p["n"],
        workloads=[
            Workload("m128n576", {"m": 128, "n": 576}),
            Workload("m32n2048", {"m": 32, "n": 2048}),
            wl(m=32, n=2048, dtype="float16"),
            wl(m=128, n=576, dtype="float16"),
            # an LLM's RMSNorm (LLaMA-7B hidden size) at decode (m=1) and a short prefill (m=16)
            wl(m=1, n=4096, dtype="float16"),
            wl(m=1, n=4096, dtype="bfloat16"),
            wl(m=16, n=4096, dtype="float16"),
        ],
    ),
    _norm("batch-norm-nchw", "Y = (X - mean[c]) / sqrt(var[c] + 1e-5) * gamma[c] + beta[c], NCHW (inference)",
          lambda p: [Tensor("X", _nchw(p))] + _bn_vectors(p["c"]),
          lambda p, X, *v: _bn_infer(p, X, *v, axis=1),
          lambda p, X, g, b, m, v: refs.batch_norm(X, g, b, m, v, EPS), 4,
          # n1c128h28w28: from the retired elementwise/scale-shift-channel
          [wl(n=1, c=64, h=56, w=56), wl(n=1, c=64, h=25, w=5, domains=("audio",)), wl(n=1, c=128, h=28, w=28)],
          domains=_VIS),
    _norm("batch-norm-nhwc", "Y = (X - mean[c]) / sqrt(var[c] + 1e-5) * gamma[c] + beta[c], NHWC (inference)",
          lambda p: [Tensor("X", (p["n"], p["h"], p["w"], p["c"]))] + _bn_vectors(p["c"]),
          lambda p, X, *v: _bn_infer(p, X, *v, axis=3),
          lambda p, X, g, b, m, v: refs.batch_norm(X, g, b, m, v, EPS, axis=3), 4,
          [wl(n=1, h=48, w=48, c=16)], domains=_VIS),
    _norm("batch-norm-1d", "Y[b, f] = (X - mean[f]) / sqrt(var[f] + 1e-5) * gamma[f] + beta[f] (dense features)",
          lambda p: [Tensor("X", (p["b"], p["f"]))] + _bn_vectors(p["f"]),
          lambda p, X, *v: _bn_infer(p, X, *v, axis=1),
          lambda p, X, g, b, m, v: refs.batch_norm(X, g, b, m, v, EPS), 4,
          [wl(b=32, f=128, domains=("anomaly-detection",)), wl(b=256, f=512, domains=("recommendation",))]),
    _norm("batch-norm-train-nchw", "Y = (X - mean_c) / sqrt(var_c + 1e-5) * gamma + beta, statistics over (N, H, W) "
          "(on-device training / test-time adaptation)",
          lambda p: [Tensor("X", _nchw(p)), _vec("gamma", p["c"], "positive"), _vec("beta", p["c"])],
          _bn_train, _bn_train_ref, 8,
          [wl(n=8, c=32, h=28, w=28), wl(n=4, c=64, h=14, w=14)], domains=_VIS),
    _norm("group-norm", "Y = normalised over (C/G, H, W) of each of G channel groups, then gamma[c], beta[c]",
          lambda p: [Tensor("X", _nchw(p)), _vec("gamma", p["c"], "positive"), _vec("beta", p["c"])],
          lambda p, X, g, b: topi.nn.group_norm(X, g, b, p["g"], 1, [2, 3], EPS),
          _group_norm_ref, 8,
          [wl(n=1, c=64, h=32, w=32, g=8), wl(n=1, c=128, h=16, w=16, g=32)], domains=_VIS),
    _norm("instance-norm", "Y = normalised over (H, W) of each channel, then gamma[c], beta[c] (style transfer)",
          lambda p: [Tensor("X", _nchw(p)), _vec("gamma", p["c"], "positive"), _vec("beta", p["c"])],
          lambda p, X, g, b: topi.nn.instance_norm(X, g, b, 1, [2, 3], EPS),
          lambda p, X, g, b: refs.layer_norm(X, axis=(2, 3), eps=EPS) * refs.channel(g) + refs.channel(b), 8,
          [wl(n=1, c=64, h=64, w=64), wl(n=1, c=32, h=25, w=5, domains=("audio",))], domains=_VIS),
    _norm("layer-norm-channel", "Y[n, :, h, w] = layer_norm over C at each position, NCHW (ConvNeXt channels-first)",
          lambda p: [Tensor("X", _nchw(p)), _vec("gamma", p["c"], "positive"), _vec("beta", p["c"])],
          lambda p, X, g, b: topi.nn.layer_norm(X, g, b, axis=[1], epsilon=EPS),
          lambda p, X, g, b: refs.layer_norm(X, axis=1, eps=EPS) * refs.channel(g) + refs.channel(b), 8,
          [wl(n=1, c=96, h=56, w=56)], domains=_VIS),
    _norm("l2-normalize", "Y[m, :] = X[m, :] / max(||X[m, :]||_2, 1e-12) (embeddings, face/speaker vectors)",
          lambda p: [Tensor("X", (p["m"], p["n"]))], _l2_normalize,
          lambda p, X: X / np.maximum(np.sqrt((X * X).sum(axis=-1, keepdims=True)), 1e-12), 4,
          [wl(m=64, n=512, domains=("vision",)), wl(m=256, n=128, domains=("recommendation",))]),
    _norm("lrn", "Y = X / (2 + 1e-4/5 * sum of X^2 over 5 neighbouring channels)^0.75 (AlexNet LRN)",
          lambda p: [Tensor("X", _nchw(p))],
          lambda p, X: topi.nn.lrn(X, LRN["size"], 1, LRN["alpha"], LRN["beta"], LRN["bias"]),
          _lrn_ref, 8, [wl(n=1, c=96, h=55, w=55)], domains=_VIS),
    _norm("cmvn", "Y[t, f] = (X[t, f] - mean_t X[:, f]) / sqrt(var_t X[:, f] + 1e-5) (speech feature normalisation)",
          lambda p: [Tensor("X", (p["t"], p["f"]))], _cmvn,
          lambda p, X: refs.layer_norm(X, axis=0, eps=EPS), 6,
          [wl(t=98, f=40), wl(t=500, f=80)], domains=("audio", "signal-processing")),
]
