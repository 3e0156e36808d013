"""Softmax and its relatives over one axis: attention probabilities, classifier outputs,
per-pixel class scores of segmentation heads; 3 passes per row (max, sum of exps, normalise).
float16 workloads compute in float32."""

import numpy as np
from tvm import te, topi

from evaluator.suite import refs
from evaluator.suite.base import OpPattern, Tensor, Workload
from evaluator.suite.declare import dtype_of, narrow, te_workload, widen, wl


def _softmax(X):
    return refs.softmax(X, axis=-1)


def _masked_rows(p, S, name):
    """softmax over the last axis of S (m, n) — given as a TE tensor with masked entries at -inf."""
    k = te.reduce_axis((0, p["n"]), name="k")
    mx = te.compute((p["m"],), lambda i: te.max(S[i, k], axis=k), name="T_max")
    e = te.compute(S.shape, lambda i, j: te.exp(S[i, j] - mx[i]), name="T_exp")
    k2 = te.reduce_axis((0, p["n"]), name="k2")
    s = te.compute((p["m"],), lambda i: te.sum(e[i, k2], axis=k2), name="T_sum")
    return te.compute(S.shape, lambda i, j: e[i, j] / s[i], name=name)


def _causal(p, X):
    s = te.compute(X.shape, lambda i, j: te.if_then_else(j <= i, X[i, j], te.min_value("float32")), name="T_mask")
    return _masked_rows(p, s, "T_causal_softmax")


def _causal_ref(p, X):
    return refs.softmax(np.where(np.tril(np.ones(X.shape, bool)), X, -np.inf))


def _bias(p, X, B):
    s = te.compute(X.shape, lambda i, j: X[i, j] + B[i, j], name="T_add")
    return _masked_rows(p, s, "T_softmax")


def _pattern(name, summary, inputs, compute, reference, ops, workloads, domains=("language",)):
    return OpPattern(id=f"softmax/{name}", family="softmax", level="L1", domains=domains, summary=summary,
                     inputs=inputs, compute=compute, reference=reference, vendor=reference,
                     flops=lambda p: ops * int(np.prod(inputs(p)[0].shape)), workloads=workloads)


PATTERNS = [
    OpPattern(
        id="softmax/softmax",
        family="softmax",
        level="L1",
        domains=("language",),
        summary="Y[m, n] = exp(X[m, n] - max_j X[m, j]) / sum_j exp(X[m, j] - max_j X[m, j])",
        inputs=lambda p: [Tensor("X", (p["m"], p["n"]), dtype_of(p))],
        compute=lambda p, X: narrow(topi.nn.softmax(widen(X), axis=-1), dtype_of(p)),
        reference=lambda p, X: _softmax(X),
        vendor=lambda p, X: _softmax(X),
        # max, subtract, exp, sum, divide: 5 operations per element
        flops=lambda p: 5 * p["m"] * p["n"],
        workloads=[
            Workload("m1536n128", {"m": 1536, "n": 128}),
            Workload("m256n512", {"m": 256, "n": 512}),
            Workload("m32n1000", {"m": 32, "n": 1000}, domains=("vision",)),
            wl(m=1536, n=128, dtype="float16"),
            wl(m=256, n=512, dtype="float16"),
            wl(m=256, n=512, dtype="bfloat16"),
            wl(m=32, n=1000, dtype="float16", domains=("vision",)),
            wl(m=256, n=256, dtype="float16"),
        ]
        # TVM MetaSchedule's SFM (softmax_mn over axis 1), as given
        + [wl(m=m, n=m, source=te_workload("SFM", i)) for i, m in enumerate((256, 512, 1024, 2048))],
    ),
    _pattern("log-softmax", "Y[m, n] = X[m, n] - max - log sum_j exp(X[m, j] - max) (CTC, language-model heads)",
             lambda p: [Tensor("X", (p["m"], p["n"]))],
             lambda p, X: topi.nn.log_softmax(X, axis=-1),
             lambda p, X: refs.log_softmax(X), 5,
             [wl(m=250, n=29, domains=("audio",)), wl(m=32, n=8192)]),
    _pattern("softmax-channel", "Y[n, :, h, w] = softmax over the channel axis of NCHW (per-pixel class scores)",
             lambda p: [Tensor("X", (p["n"], p["c"], p["h"], p["w"]))],
             lambda p, X: topi.nn.softmax(X, axis=1),
             lambda p, X: refs.softmax(X, axis=1), 5,
             [wl(n=1, c=21, h=64, w=64), wl(n=1, c=2, h=96, w=96)], domains=("vision",)),
    _pattern("softmax-bias", "Y = softmax(X + B) over the last axis (additive attention bias or padding mask)",
             lambda p: [Tensor("X", (p["m"], p["n"])), Tensor("B", (p["m"], p["n"]))],
             _bias, lambda p, X, B: refs.softmax(X + B), 6,
             [wl(m=128, n=128), wl(m=49, n=49, domains=("vision",))]),
    _pattern("causal-softmax", "Y[i, :] = softmax of X[i, :i+1], zeros after the diagonal (decoder self-attention)",
             lambda p: [Tensor("X", (p["m"], p["n"]))],
             _causal, _causal_ref, 5,
             [wl(m=128, n=128), wl(m=256, n=256)]),
]
