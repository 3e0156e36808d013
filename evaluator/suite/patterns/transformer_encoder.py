"""A tiny transformer encoder block: one post-norm encoder layer (self-attention + feed-forward),
d_model 128, 4 heads, feed-forward 512, 64 tokens — the size of keyword-spotting and on-device
NLU transformers.

Source: Vaswani et al., "Attention Is All You Need" (2017), as ``torch.nn.TransformerEncoderLayer``
defines it with its defaults (post-norm, ReLU feed-forward, LayerNorm epsilon 1e-5, no dropout at
inference): x = LN1(x + SelfAttention(x)); x = LN2(x + W2 relu(W1 x + b1) + b2), the attention's Q,
K, V from one packed input projection (``in_proj``), heads merged then ``out_proj``.
"""

import math

import numpy as np
from tvm.relax.frontend import nn

from evaluator.suite import refs
from evaluator.suite.base import GraphPattern, Tensor, Workload
from evaluator.suite.declare import Layer
from evaluator.suite.graphs import RESIDUAL_LN, SCORE_SOFTMAX, Weights, param_inputs

EPS = 1e-5


class _EncoderLayer(nn.Module):
    def __init__(self, d, heads, ff):
        self.in_proj = nn.Linear(d, 3 * d)
        self.out_proj = nn.Linear(d, d)
        self.linear1 = nn.Linear(d, ff)
        self.linear2 = nn.Linear(ff, d)
        self.norm1 = nn.LayerNorm(d, eps=EPS)
        self.norm2 = nn.LayerNorm(d, eps=EPS)
        self.d, self.heads = d, heads

    def main(self, x):
        _, s, d = x.shape
        h, dh = self.heads, self.d // self.heads
        q, k, v = nn.op.split(self.in_proj(x), 3, axis=2)

        def heads(t):
            return nn.op.permute_dims(nn.op.reshape(t, (1, s, h, dh)), [0, 2, 1, 3])
        scores = nn.op.matmul(heads(q), nn.op.permute_dims(heads(k), [0, 1, 3, 2]))
        probs = nn.op.softmax(scores * nn.Tensor.from_const(np.float32(1.0 / math.sqrt(dh))), axis=-1)
        ctx = nn.op.reshape(nn.op.permute_dims(nn.op.matmul(probs, heads(v)), [0, 2, 1, 3]), (1, s, d))
        x = self.norm1(x + self.out_proj(ctx))
        return self.norm2(x + self.linear2(nn.relu(self.linear1(x))))


def _inputs(p):
    return [Tensor("x", (1, p["s"], p["d"]))] + param_inputs(_EncoderLayer(p["d"], p["h"], p["ff"]))


def _reference(p, x, *params):
    w = Weights(params)
    wi, bi, wo, bo, w1, b1, w2, b2, g1, be1, g2, be2 = w.take(12)
    w.done()
    s, d, h = p["s"], p["d"], p["h"]
    x = x[0]
    q, k, v = np.split(x @ wi.T + bi, 3, axis=1)
    heads = [t.reshape(s, h, d // h).transpose(1, 0, 2) for t in (q, k, v)]
    ctx = refs.attention(*heads).transpose(1, 0, 2).reshape(s, d)
    x = refs.layer_norm(x + ctx @ wo.T + bo, g1, be1, eps=EPS)
    x = refs.layer_norm(x + np.maximum(x @ w1.T + b1, 0.0) @ w2.T + b2, g2, be2, eps=EPS)
    return x[None]


def _flops(p):
    """Counted as the layers count (``suite.graphs``): scaling and softmax per attention score, the
    residual adds and LayerNorms; not the projections' biases nor the feed-forward's ReLU."""
    s, d, h, ff = p["s"], p["d"], p["h"], p["ff"]
    attention = 2 * s * d * 3 * d + 4 * s * s * d + SCORE_SOFTMAX * h * s * s + 2 * s * d * d
    return attention + 4 * s * d * ff + 2 * RESIDUAL_LN * s * d


def layers(p):
    s, d, h, ff = p["s"], p["d"], p["h"], p["ff"]
    return [(Layer("transformer-block/mha-block", dict(s=s, d=d, h=h)), 1),
            (Layer("fused/residual-layer-norm", dict(m=s, n=d)), 2),
            (Layer("dense-block/mlp-relu-2layer", dict(m=s, k=d, h=ff, n=d)), 1)]


PATTERN = GraphPattern(
    id="model/transformer-encoder-tiny",
    family="model",
    level="L3",
    domains=("language", "audio"),
    summary="tiny post-norm transformer encoder layer: d 128, 4 heads, FFN 512 (ReLU), 64 tokens",
    inputs=_inputs,
    graph=lambda p: _EncoderLayer(p["d"], p["h"], p["ff"]),
    reference=_reference,
    flops=_flops,
    layers=layers,
    workloads=[Workload("s64d128h4", {"s": 64, "d": 128, "h": 4, "ff": 512})],
)
