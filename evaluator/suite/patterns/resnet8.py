"""MLPerf Tiny image classification: ResNet-8 on CIFAR-10 (32 x 32 x 3, "IC" reference model).

Source: mlcommons/tiny, benchmark/training/image_classification/keras_model.py,
``resnet_v1_eembc`` with 16 filters (the v0.5+ reference; later versions parameterise the width):
Conv2D 16 (3x3, "same") + BN + ReLU; stack 1: [Conv 16 + BN + ReLU, Conv 16 + BN] + identity, ReLU;
stacks 2 and 3 (32 and 64 filters): [Conv 3x3 stride 2 + BN + ReLU, Conv 3x3 + BN] + Conv 1x1
stride 2 shortcut, ReLU; AveragePooling2D over the 8 x 8 map, Dense 10, softmax. Keras "same"
pads the stride-2 3x3 convs at the bottom/right only. Every conv has a bias; the shortcut has no
BatchNorm.

The float16 workload stores the image, the weights and each layer's output (the stem, each stack,
the head: ``layers``) in float16 and computes every layer in float32 (``suite.precision``); its
reference rounds at the same five places.
"""

import numpy as np
from tvm.relax.frontend import nn

from evaluator.suite import refs
from evaluator.suite.base import GraphPattern, Tensor, Workload
from evaluator.suite.declare import Layer, dtype_of
from evaluator.suite.graphs import (BIAS_SOFTMAX, BN_EPS, BN_RELU, ConvBN, Weights, channel, conv_bn_np, conv_flops,
                                    param_inputs, same_pad2d)
from evaluator.suite.precision import as_float32, conv2d, linear, store, stored, stored_inputs

SIZE, F = 32, 16
ONE = (1, 1, 1, 1)
DOWN = same_pad2d(SIZE, SIZE, 3, 2)  # (0, 0, 1, 1) at 32 and at 16


class _ConvBN(ConvBN):
    """``ConvBN`` computing in float32 from float16 weights and data too (its float32 ops unchanged)."""

    def forward(self, x):
        y = conv2d(x, self.weight, self.bias, stride=self.stride, padding=self.padding, groups=self.groups)
        if self.bn:
            scale = as_float32(self.bn_gamma) / nn.sqrt(as_float32(self.bn_var)
                                                        + nn.Tensor.from_const(np.float32(BN_EPS)))
            y = (y - channel(as_float32(self.bn_mean))) * channel(scale) + channel(as_float32(self.bn_beta))
        return nn.relu(y) if self.act == "relu" else y


class _Stack(nn.Module):
    def __init__(self, c_in, c_out, stride):
        self.conv1 = _ConvBN(c_in, c_out, 3, stride, DOWN if stride == 2 else ONE)
        self.conv2 = _ConvBN(c_out, c_out, 3, 1, ONE, act=None)
        self.shortcut = _ConvBN(c_in, c_out, 1, stride, act=None, bn=False) if stride == 2 else None

    def forward(self, x):
        y = self.conv2(self.conv1(x))
        return nn.relu(y + (self.shortcut(x) if self.shortcut is not None else as_float32(x)))


class _ResNet8(nn.Module):
    def __init__(self, classes, dtype="float32"):
        self.stem = _ConvBN(3, F, 3, 1, ONE)
        self.stacks = nn.ModuleList([_Stack(F, F, 1), _Stack(F, 2 * F, 2), _Stack(2 * F, 4 * F, 2)])
        self.fc = nn.Linear(4 * F, classes)
        self.dtype = dtype
        if dtype != "float32":
            self.to(dtype)

    def main(self, x):
        # each layer (``layers``) computes in float32 and stores its output as the graph's dtype
        x = store(self.stem(x), self.dtype)
        for stack in self.stacks:
            x = store(stack(x), self.dtype)
        x = as_float32(x)
        pooled = nn.op.sum(x, axis=[2, 3]) / nn.Tensor.from_const(np.float32(int(x.shape[2]) * int(x.shape[3])))
        return store(nn.op.softmax(linear(pooled, self.fc), axis=-1), self.dtype)


def _model(p):
    return _ResNet8(p["classes"], dtype_of(p))


@stored_inputs
def _inputs(p):
    return [Tensor("x", (1, 3, SIZE, SIZE))] + param_inputs(_model(p))


def _reference(p, x, *params):
    w, dtype = Weights(params), dtype_of(p)
    x = stored(conv_bn_np(x, w, 1, ONE), dtype)
    for stride in (1, 2, 2):
        y = conv_bn_np(x, w, stride, DOWN if stride == 2 else ONE)
        y = conv_bn_np(y, w, 1, ONE, act=None)
        short = conv_bn_np(x, w, stride, act=None, bn=False) if stride == 2 else x
        x = stored(np.maximum(y + short, 0.0), dtype)
    fc_w, fc_b = w.take(2)
    w.done()
    return refs.softmax(x.mean(axis=(2, 3)) @ fc_w.T + fc_b)


def _flops(p):
    """Counted as the layers count (``suite.graphs``): the stem's BatchNorm + ReLU, none inside
    the stacks; the head's bias and softmax."""
    total, h, c = conv_flops(3, F, 3, SIZE, SIZE) + BN_RELU * F * SIZE * SIZE, SIZE, F
    for k, s in ((F, 1), (2 * F, 2), (4 * F, 2)):
        o = h // s
        total += conv_flops(c, k, 3, o, o) + conv_flops(k, k, 3, o, o) + (conv_flops(c, k, 1, o, o) if s == 2 else 0)
        h, c = o, k
    return total + c * h * h + 2 * c * p["classes"] + BIAS_SOFTMAX * p["classes"]


def layers(p):
    half = SIZE // 2
    dt = {"dtype": p["dtype"]} if dtype_of(p) != "float32" else {}  # a float16 graph is float16 layers
    return [(Layer("conv-block/conv2d-bn-relu", dict(n=1, c=3, h=SIZE, w=SIZE, k=F, r=3, s=1, p=1, **dt)), 1),
            (Layer("conv-block/resnet-basic-block", dict(n=1, c=F, h=SIZE, w=SIZE, p=1, **dt)), 1),
            (Layer("conv-block/resnet-downsample-block", dict(n=1, c=F, h=SIZE, w=SIZE, k=2 * F, **dt)), 1),
            (Layer("conv-block/resnet-downsample-block", dict(n=1, c=2 * F, h=half, w=half, k=4 * F, **dt)), 1),
            (Layer("conv-block/classifier-head", dict(n=1, c=4 * F, h=8, w=8, k=p["classes"], **dt)), 1)]


PATTERN = GraphPattern(
    id="model/resnet8",
    family="model",
    level="L3",
    domains=("vision",),
    summary="MLPerf Tiny IC ResNet-8 at 32x32: conv, 3 residual stacks (16/32/64), pool, dense 10",
    inputs=_inputs,
    graph=_model,
    reference=_reference,
    flops=_flops,
    layers=layers,
    workloads=[Workload("n1h32w32", {"classes": 10}), Workload("n1h32w32-f16", {"classes": 10, "dtype": "float16"}),
               Workload("n1h32w32-bf16", {"classes": 10, "dtype": "bfloat16"})],
)
