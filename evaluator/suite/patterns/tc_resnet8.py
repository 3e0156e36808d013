"""TC-ResNet8: a 1-D temporal convolution network for keyword spotting on mobile devices.

Source: Choi et al., "Temporal Convolution for Real-time Keyword Spotting on Mobile Devices"
(Interspeech 2019); hyperconnect/TC-ResNet, audio_nets/tc_resnet.py (``TCResNet8``, width 1):
the 40 MFCC coefficients are the channels of a 1-D signal over time; conv 3 (16 channels) →
3 residual blocks with 24, 32, 48 channels, each [conv 9 stride 2 + BN + ReLU, conv 9 + BN] plus a
conv 1 stride 2 + BN + ReLU shortcut, ReLU after the add → average pool over time → 1x1 conv to
12 classes (logits). TF-slim layers: no conv biases, BatchNorm (epsilon 1e-3) and ReLU after every
conv unless stated, "SAME" padding. 98 frames = 1 s of 16 kHz audio at a 10 ms hop.
"""

import numpy as np
from tvm.relax.frontend import nn

from evaluator.suite.base import GraphPattern, Tensor, Workload
from evaluator.suite.declare import Layer
from evaluator.suite.graphs import BN_RELU, ConvBN1d, Weights, conv_bn1d_np, keras_same, param_inputs

MFCC, FRAMES = 40, 98
CHANNELS = (16, 24, 32, 48)


def _plan():
    """(c_in, c_out, length in) per block."""
    length, out = FRAMES, []
    for c_in, c_out in zip(CHANNELS, CHANNELS[1:]):
        out.append((c_in, c_out, length))
        length = -(-length // 2)
    return out, length


class _Block(nn.Module):
    def __init__(self, c_in, c_out, length):
        self.down = ConvBN1d(c_in, c_out, 1, 2, keras_same(length, 1, 2))
        self.conv0 = ConvBN1d(c_in, c_out, 9, 2, keras_same(length, 9, 2))
        self.conv1 = ConvBN1d(c_out, c_out, 9, 1, keras_same(-(-length // 2), 9, 1), act=None)

    def forward(self, x):
        return nn.relu(self.conv1(self.conv0(x)) + self.down(x))


class _TCResNet8(nn.Module):
    def __init__(self, classes):
        self.conv0 = ConvBN1d(MFCC, CHANNELS[0], 3, 1, keras_same(FRAMES, 3, 1))
        self.blocks = nn.ModuleList([_Block(ci, co, n) for ci, co, n in _plan()[0]])
        self.fc = nn.Parameter((classes, CHANNELS[-1]))

    def main(self, x):
        x = self.conv0(x)
        for block in self.blocks:
            x = block(x)
        pooled = nn.op.sum(x, axis=[2]) / nn.Tensor.from_const(np.float32(int(x.shape[2])))
        return nn.op.matmul(pooled, nn.op.permute_dims(self.fc, [1, 0]))


def _inputs(p):
    return [Tensor("x", (1, MFCC, FRAMES))] + param_inputs(_TCResNet8(p["classes"]))


def _reference(p, x, *params):
    w = Weights(params)
    x = conv_bn1d_np(x, w, 1, keras_same(FRAMES, 3, 1))
    for _, _, n in _plan()[0]:
        short = conv_bn1d_np(x, w, 2, keras_same(n, 1, 2))
        y = conv_bn1d_np(x, w, 2, keras_same(n, 9, 2))
        y = conv_bn1d_np(y, w, 1, keras_same(-(-n // 2), 9, 1), act=None)
        x = np.maximum(y + short, 0.0)
    fc = w.take()
    w.done()
    return x.mean(axis=2) @ fc.T


def _flops(p):
    """Counted as the layers count (``suite.graphs``): the first conv's BatchNorm + ReLU, none
    inside the blocks."""
    total = 2 * MFCC * CHANNELS[0] * 3 * FRAMES + BN_RELU * CHANNELS[0] * FRAMES
    for c_in, c_out, n in _plan()[0]:
        o = -(-n // 2)
        total += 2 * o * c_out * (c_in * 9 + c_out * 9 + c_in)
    _, length = _plan()
    return total + CHANNELS[-1] * length + 2 * CHANNELS[-1] * p["classes"]


def layers(p):
    plan, length = _plan()
    out = [(Layer("conv-block/conv1d-bn-relu", dict(n=1, c=MFCC, t=FRAMES, k=CHANNELS[0], r=3)), 1)]
    out += [(Layer("conv-block/tc-resnet-block", dict(n=1, c=ci, t=n, k=co)), 1) for ci, co, n in plan]
    return out + [(Layer("pool/adaptive-avg-pool1d", dict(n=1, c=CHANNELS[-1], w=length, o=1)), 1),
                  (Layer("matmul/matmul-nt", dict(m=1, n=p["classes"], k=CHANNELS[-1])), 1)]


PATTERN = GraphPattern(
    id="model/tc-resnet8",
    family="model",
    level="L3",
    domains=("audio",),
    summary="TC-ResNet8 keyword spotting: 1-D temporal convs over 40 MFCC x 98 frames, 3 residual blocks, 12 logits",
    inputs=_inputs,
    graph=lambda p: _TCResNet8(p["classes"]),
    reference=_reference,
    flops=_flops,
    layers=layers,
    workloads=[Workload("n1c40t98", {"classes": 12})],
)
