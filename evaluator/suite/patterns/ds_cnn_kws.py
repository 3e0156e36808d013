"""MLPerf Tiny keyword-spotting DS-CNN (Google Speech Commands, "KWS" reference model).

Source: mlcommons/tiny, benchmark/training/keyword_spotting/keras_model.py (model_arch "ds_cnn"):
input 49x10 MFCC frames (NCHW 1x1x49x10) → Conv2D 64 (10x4, stride 2, "same") + BN + ReLU →
4 x [DepthwiseConv2D 3x3 "same" + BN + ReLU → Conv2D 64 1x1 + BN + ReLU] → average pool → Dense 12
→ softmax. Keras "same" padding of the first conv is asymmetric (4 top / 5 bottom, 1 left / 1 right)
and is kept; the Keras AveragePooling2D((24, 5)) covers the first 24 of the 25 rows, here the pool
is a true global average. Dropout is the identity at inference. Each BatchNorm is the explicit
per-channel affine ``(y - mean) / sqrt(var + eps) * gamma + beta`` with its four vectors as inputs.

The float16 workload stores the MFCCs, the weights and each layer's output (the stem, each
separable block, the head: ``layers``) in float16 and computes every layer in float32
(``suite.precision``); its reference rounds at the same six places.
"""

import numpy as np
from tvm.relax.frontend import nn

from evaluator.suite.base import GraphPattern, Tensor, Workload
from evaluator.suite.declare import Layer, dtype_of
from evaluator.suite.graphs import BIAS_SOFTMAX, BN_RELU
from evaluator.suite.patterns.conv2d import conv2d_ref
from evaluator.suite.precision import as_float32, conv2d, linear, store, stored, stored_inputs

EPS = 1e-3
F = 64           # filters
BLOCKS = 4
STEM = dict(kernel=(10, 4), stride=2, pad=(4, 1, 5, 1))  # (top, left, bottom, right)


def _channel(v):
    return nn.op.reshape(v, (1, v.shape[0], 1, 1))


class _ConvBnRelu(nn.Module):
    def __init__(self, c_in, c_out, kernel, stride=1, padding=0, groups=1):
        self.weight = nn.Parameter((c_out, c_in // groups) + tuple(kernel))
        self.bias = nn.Parameter((c_out,))
        self.bn_gamma = nn.Parameter((c_out,))
        self.bn_beta = nn.Parameter((c_out,))
        self.bn_mean = nn.Parameter((c_out,))
        self.bn_var = nn.Parameter((c_out,))
        self.stride, self.padding, self.groups = stride, padding, groups

    def forward(self, x):
        y = conv2d(x, self.weight, self.bias, stride=self.stride, padding=self.padding, groups=self.groups)
        f32 = as_float32  # float16 weights: the layer computes in float32
        scale = f32(self.bn_gamma) / nn.sqrt(f32(self.bn_var) + nn.Tensor.from_const(np.float32(EPS)))
        return nn.relu((y - _channel(f32(self.bn_mean))) * _channel(scale) + _channel(f32(self.bn_beta)))


class _SeparableBlock(nn.Module):
    def __init__(self):
        self.dw = _ConvBnRelu(F, F, (3, 3), padding=1, groups=F)
        self.pw = _ConvBnRelu(F, F, (1, 1))

    def forward(self, x):
        return self.pw(self.dw(x))


class _DSCNN(nn.Module):
    def __init__(self, n_classes, dtype="float32"):
        self.stem = _ConvBnRelu(1, F, STEM["kernel"], stride=STEM["stride"], padding=STEM["pad"])
        self.blocks = nn.ModuleList([_SeparableBlock() for _ in range(BLOCKS)])
        self.fc = nn.Linear(F, n_classes)
        self.dtype = dtype
        if dtype != "float32":
            self.to(dtype)

    def main(self, x):
        # each layer (``layers``) computes in float32 and stores its output as the graph's dtype
        x = store(self.stem(x), self.dtype)
        for block in self.blocks:
            x = store(block(x), self.dtype)
        x = as_float32(x)
        h, w = x.shape[2], x.shape[3]
        pooled = nn.op.sum(x, axis=[2, 3]) / nn.Tensor.from_const(np.float32(int(h) * int(w)))
        return store(nn.op.softmax(linear(pooled, self.fc), axis=-1), self.dtype)


def _layer_inputs(pre, c_in, c_out, kernel, groups=1):
    return [
        # He-scaled weights keep activations O(1) through the 9 conv layers
        Tensor(pre + "weight", (c_out, c_in // groups) + tuple(kernel),
               scale=(2.0 / (c_in // groups * kernel[0] * kernel[1])) ** 0.5),
        Tensor(pre + "bias", (c_out,)),
        Tensor(pre + "bn_gamma", (c_out,), init="positive"),
        Tensor(pre + "bn_beta", (c_out,)),
        Tensor(pre + "bn_mean", (c_out,)),
        Tensor(pre + "bn_var", (c_out,), init="positive"),
    ]


@stored_inputs
def _inputs(p):
    ts = [Tensor("x", (1, 1, 49, 10))] + _layer_inputs("p_stem_", 1, F, STEM["kernel"])
    for i in range(BLOCKS):
        ts += _layer_inputs(f"p_blocks_{i}_dw_", F, F, (3, 3), groups=F)
        ts += _layer_inputs(f"p_blocks_{i}_pw_", F, F, (1, 1))
    return ts + [Tensor("p_fc_weight", (p["classes"], F), scale=(1.0 / F) ** 0.5),
                 Tensor("p_fc_bias", (p["classes"],))]


def _bn_relu(y, gamma, beta, mean, var):
    c = lambda v: v[None, :, None, None]  # noqa: E731
    return np.maximum((y - c(mean)) / np.sqrt(c(var) + EPS) * c(gamma) + c(beta), 0.0)


def _reference(p, x, *ws):
    ws, dtype = list(ws), dtype_of(p)

    def layer(x, stride=1, pad=0, groups=1):
        w, b, *bn = ws[:6]
        del ws[:6]
        return _bn_relu(conv2d_ref(x, w, stride, pad, groups) + b[None, :, None, None], *bn)

    t, left, b_, r = STEM["pad"]
    x = stored(layer(np.pad(x, ((0, 0), (0, 0), (t, b_), (left, r))), stride=STEM["stride"]), dtype)
    for _ in range(BLOCKS):
        x = stored(layer(layer(x, pad=1, groups=F)), dtype)
    w, b = ws
    logits = x.mean(axis=(2, 3)) @ w.T + b
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _flops(p):
    """Counted as the layers count (``suite.graphs``): the stem's and each depthwise conv's
    BatchNorm + ReLU, not the pointwise ones'; the head's bias and softmax."""
    hw = 25 * 5
    stem = 2 * hw * F * 10 * 4 + BN_RELU * hw * F
    block = 2 * hw * F * 9 + BN_RELU * hw * F + 2 * hw * F * F
    return stem + BLOCKS * block + hw * F + 2 * F * p["classes"] + BIAS_SOFTMAX * p["classes"]


def layers(p):
    """The graph as conv-block workloads: the stem, the four separable blocks, the classifier head."""
    dt = {"dtype": p["dtype"]} if dtype_of(p) != "float32" else {}  # a float16 graph is float16 layers
    stem = dict(n=1, c=1, h=49, w=10, k=F, r=STEM["kernel"], s=STEM["stride"], p=STEM["pad"], **dt)
    return [(Layer("conv-block/conv2d-bn-relu", stem), 1),
            (Layer("conv-block/depthwise-separable-bn", dict(n=1, c=F, h=25, w=5, k=F, s=1, p=1, **dt)), BLOCKS),
            (Layer("conv-block/classifier-head", dict(n=1, c=F, h=25, w=5, k=p["classes"], **dt)), 1)]


PATTERN = GraphPattern(
    id="model/ds-cnn-kws",
    family="model",
    level="L3",
    domains=("audio",),
    summary="MLPerf Tiny KWS DS-CNN: conv 10x4/2, 4 depthwise-separable blocks (64 ch), pool, dense 12",
    inputs=_inputs,
    graph=lambda p: _DSCNN(p["classes"], dtype_of(p)),
    reference=_reference,
    flops=_flops,
    layers=layers,
    workloads=[Workload("n1h49w10", {"classes": 12}), Workload("n1h49w10-f16", {"classes": 12, "dtype": "float16"}),
               Workload("n1h49w10-bf16", {"classes": 12, "dtype": "bfloat16"})],
)
