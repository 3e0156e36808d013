"""MLPerf Tiny visual wake words: MobileNetV1 with width multiplier 0.25 at 96 x 96 x 3 ("VWW"
reference model).

Source: mlcommons/tiny, benchmark/training/visual_wake_words/vww_model.py (from SiliconLabs
platform_ml_models, eembc/Person_detection/mobilenet_v1_eembc.py): Conv2D 8 (3x3, stride 2,
"same") + BN + ReLU, then 13 depthwise-separable blocks [DepthwiseConv2D 3x3 "same" + BN + ReLU
→ Conv2D 1x1 + BN + ReLU] with pointwise filters 16, 32 (s2), 32, 64 (s2), 64, 128 (s2),
128 x 5, 256 (s2), 256, then AveragePooling2D over the 3 x 3 map, Dense 2, softmax. Keras "same"
pads stride-2 layers with one row/column at the bottom/right only, as here. Every conv has a
bias (Keras default) and BatchNorm is the explicit inference affine (``suite.graphs``).
"""

import numpy as np
from tvm.relax.frontend import nn

from evaluator.suite import refs
from evaluator.suite.base import GraphPattern, Tensor, Workload
from evaluator.suite.declare import Layer
from evaluator.suite.graphs import (BIAS_SOFTMAX, BN_RELU, ConvBN, Weights, conv_bn_np, conv_flops, param_inputs,
                                    same_pad2d)
from evaluator.suite.heldout import ShapeSpace

SIZE, STEM = 96, 8
BLOCKS = [(16, 1), (32, 2), (32, 1), (64, 2), (64, 1), (128, 2), (128, 1), (128, 1), (128, 1), (128, 1),
          (128, 1), (256, 2), (256, 1)]  # (pointwise filters, depthwise stride)


def _plan():
    """(c_in, h, c_out, stride, dw padding) per block, the spatial size tracked through the net."""
    h, c, out = SIZE // 2, STEM, []
    for k, s in BLOCKS:
        out.append((c, h, k, s, same_pad2d(h, h, 3, s)))
        h, c = -(-h // s), k
    return out, h, c


class _Block(nn.Module):
    def __init__(self, c_in, c_out, stride, pad):
        self.dw = ConvBN(c_in, c_in, 3, stride, pad, groups=c_in)
        self.pw = ConvBN(c_in, c_out, 1)

    def forward(self, x):
        return self.pw(self.dw(x))


class _MobileNetV1(nn.Module):
    def __init__(self, classes):
        self.stem = ConvBN(3, STEM, 3, 2, same_pad2d(SIZE, SIZE, 3, 2))
        plan, _, c = _plan()
        self.blocks = nn.ModuleList([_Block(ci, co, s, pad) for ci, _, co, s, pad in plan])
        self.fc = nn.Linear(c, classes)

    def main(self, x):
        x = self.stem(x)
        for block in self.blocks:
            x = block(x)
        h, w = x.shape[2], x.shape[3]
        pooled = nn.op.sum(x, axis=[2, 3]) / nn.Tensor.from_const(np.float32(int(h) * int(w)))
        return nn.op.softmax(self.fc(pooled), axis=-1)


def _inputs(p):
    return [Tensor("x", (1, 3, SIZE, SIZE))] + param_inputs(_MobileNetV1(p["classes"]))


def _reference(p, x, *params):
    w = Weights(params)
    x = conv_bn_np(x, w, 2, same_pad2d(SIZE, SIZE, 3, 2))
    for c_in, _, _, s, pad in _plan()[0]:
        x = conv_bn_np(conv_bn_np(x, w, s, pad, groups=c_in), w)
    fc_w, fc_b = w.take(2)
    w.done()
    return refs.softmax(x.mean(axis=(2, 3)) @ fc_w.T + fc_b)


def _flops(p):
    """Counted as the layers count (``suite.graphs``): the stem's and each depthwise conv's
    BatchNorm + ReLU, not the pointwise ones'; the head's bias and softmax."""
    o = SIZE // 2
    total = conv_flops(3, STEM, 3, o, o) + BN_RELU * STEM * o * o
    for c, h, k, s, _ in _plan()[0]:
        o = -(-h // s)
        total += conv_flops(c, c, 3, o, o, groups=c) + BN_RELU * c * o * o + conv_flops(c, k, 1, o, o)
    _, h, c = _plan()
    return total + c * h * h + 2 * c * p["classes"] + BIAS_SOFTMAX * p["classes"]


def layers(p):
    """The graph as conv-block workloads: stem, the depthwise-separable blocks, the classifier head."""
    plan, h, c = _plan()
    stem = dict(n=1, c=3, h=SIZE, w=SIZE, k=STEM, r=3, s=2, p=same_pad2d(SIZE, SIZE, 3, 2))
    out = [(Layer("conv-block/conv2d-bn-relu", stem), 1)]
    for ci, hi, co, s, pad in plan:
        block = Layer("conv-block/depthwise-separable-bn",
                      dict(n=1, c=ci, h=hi, w=hi, k=co, s=s, p=pad if s > 1 else 1))
        if out[-1][0] == block:  # repeated blocks as one layer with a count
            out[-1] = (block, out[-1][1] + 1)
        else:
            out.append((block, 1))
    return out + [(Layer("conv-block/classifier-head", dict(n=1, c=c, h=h, w=h, k=p["classes"])), 1)]


PATTERN = GraphPattern(
    id="model/mobilenet-v1-vww",
    family="model",
    level="L3",
    domains=("vision",),
    summary="MLPerf Tiny VWW MobileNetV1 x0.25 at 96x96: conv 3x3/2, 13 depthwise-separable blocks, pool, dense 2",
    inputs=_inputs,
    graph=lambda p: _MobileNetV1(p["classes"]),
    reference=_reference,
    flops=_flops,
    layers=layers,
    workloads=[Workload("n1h96w96", {"classes": 2})],
    # held out: a person detector with more classes (the input size is fixed by the task)
    shape_space=ShapeSpace(choices={"classes": (3, 4, 5, 10)}),
)
