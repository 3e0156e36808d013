"""MLPerf Tiny image classification: ResNet-8 on CIFAR-10 (32 x 32 x 3, "IC" reference model).

Source: mlcommons/tiny, benchmark/training/image_classification/keras_model.py,
``resnet_v1_eembc`` with 16 filters (the v0.5+ reference; later versions parameterise the width):
Conv2D 16 (3x3, "same") + BN + ReLU; stack 1: [Conv 16 + BN + ReLU, Conv 16 + BN] + identity, ReLU;
stacks 2 and 3 (32 and 64 filters): [Conv 3x3 stride 2 + BN + ReLU, Conv 3x3 + BN] + Conv 1x1
stride 2 shortcut, ReLU; AveragePooling2D over the 8 x 8 map, Dense 10, softmax. Keras "same"
pads the stride-2 3x3 convs at the bottom/right only. Every conv has a bias; the shortcut has no
BatchNorm.
"""

import numpy as np
from tvm.relax.frontend import nn

from evaluator.suite import refs
from evaluator.suite.base import GraphPattern, Tensor, Workload
from evaluator.suite.declare import Layer
from evaluator.suite.graphs import BIAS_SOFTMAX, BN_RELU, ConvBN, Weights, conv_bn_np, conv_flops, param_inputs, same_pad2d

SIZE, F = 32, 16
ONE = (1, 1, 1, 1)
DOWN = same_pad2d(SIZE, SIZE, 3, 2)  # (0, 0, 1, 1) at 32 and at 16


class _Stack(nn.Module):
    def __init__(self, c_in, c_out, stride):
        self.conv1 = ConvBN(c_in, c_out, 3, stride, DOWN if stride == 2 else ONE)
        self.conv2 = ConvBN(c_out, c_out, 3, 1, ONE, act=None)
        self.shortcut = ConvBN(c_in, c_out, 1, stride, act=None, bn=False) if stride == 2 else None

    def forward(self, x):
        y = self.conv2(self.conv1(x))
        return nn.relu(y + (self.shortcut(x) if self.shortcut is not None else x))


class _ResNet8(nn.Module):
    def __init__(self, classes):
        self.stem = ConvBN(3, F, 3, 1, ONE)
        self.stacks = nn.ModuleList([_Stack(F, F, 1), _Stack(F, 2 * F, 2), _Stack(2 * F, 4 * F, 2)])
        self.fc = nn.Linear(4 * F, classes)

    def main(self, x):
        x = self.stem(x)
        for stack in self.stacks:
            x = stack(x)
        pooled = nn.op.sum(x, axis=[2, 3]) / nn.Tensor.from_const(np.float32(int(x.shape[2]) * int(x.shape[3])))
        return nn.op.softmax(self.fc(pooled), axis=-1)


def _inputs(p):
    return [Tensor("x", (1, 3, SIZE, SIZE))] + param_inputs(_ResNet8(p["classes"]))


def _reference(p, x, *params):
    w = Weights(params)
    x = conv_bn_np(x, w, 1, ONE)
    for stride in (1, 2, 2):
        y = conv_bn_np(x, w, stride, DOWN if stride == 2 else ONE)
        y = conv_bn_np(y, w, 1, ONE, act=None)
        short = conv_bn_np(x, w, stride, act=None, bn=False) if stride == 2 else x
        x = np.maximum(y + short, 0.0)
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
    return [(Layer("conv-block/conv2d-bn-relu", dict(n=1, c=3, h=SIZE, w=SIZE, k=F, r=3, s=1, p=1)), 1),
            (Layer("conv-block/resnet-basic-block", dict(n=1, c=F, h=SIZE, w=SIZE, p=1)), 1),
            (Layer("conv-block/resnet-downsample-block", dict(n=1, c=F, h=SIZE, w=SIZE, k=2 * F)), 1),
            (Layer("conv-block/resnet-downsample-block", dict(n=1, c=2 * F, h=half, w=half, k=4 * F)), 1),
            (Layer("conv-block/classifier-head", dict(n=1, c=4 * F, h=8, w=8, k=p["classes"])), 1)]


PATTERN = GraphPattern(
    id="model/resnet8",
    family="model",
    level="L3",
    domains=("vision",),
    summary="MLPerf Tiny IC ResNet-8 at 32x32: conv, 3 residual stacks (16/32/64), pool, dense 10",
    inputs=_inputs,
    graph=lambda p: _ResNet8(p["classes"]),
    reference=_reference,
    flops=_flops,
    layers=layers,
    workloads=[Workload("n1h32w32", {"classes": 10})],
)
