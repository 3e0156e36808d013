"""A small U-Net for on-device segmentation: two resolution levels (widths 16, 32, bottleneck 64)
at 64 x 64 x 3, two classes.

Source: Ronneberger et al., "U-Net: Convolutional Networks for Biomedical Image Segmentation"
(MICCAI 2015), Fig. 1, scaled down as edge segmentation heads are: each level is two 3x3 convs
(+ bias + ReLU, "same" padding instead of the paper's unpadded convs, so skips need no crop),
2x2 max pooling down, a 2x2 stride-2 up-convolution (transposed conv + bias, no activation) up,
the skip concatenated before the level's convs, and a final 1x1 conv to per-pixel class logits.
"""

import numpy as np
from tvm import topi
from tvm.relax.frontend import nn

from evaluator.suite import refs
from evaluator.suite.base import GraphPattern, Tensor, Workload
from evaluator.suite.declare import Layer
from evaluator.suite.graphs import BIAS, BIAS_RELU, Weights, conv_flops, param_inputs

WIDTHS = (16, 32, 64)


class _Conv(nn.Module):
    def __init__(self, c_in, c_out, k=3):
        self.weight = nn.Parameter((c_out, c_in, k, k))
        self.bias = nn.Parameter((c_out,))
        self.pad = k // 2

    def forward(self, x, relu=True):
        y = nn.op.conv2d(x, self.weight, self.bias, padding=self.pad)
        return nn.relu(y) if relu else y


class _Up(nn.Module):
    """2x2 stride-2 transposed conv (IOHW weights) + bias."""

    def __init__(self, c_in, c_out):
        self.weight = nn.Parameter((c_in, c_out, 2, 2))
        self.bias = nn.Parameter((c_out,))

    def forward(self, x):
        y = nn.op.tensor_expr_op(lambda a, w: topi.nn.conv2d_transpose_nchw(a, w, (2, 2), (0, 0, 0, 0), "float32",
                                                                            (0, 0)),
                                 "conv2d_transpose", [x, self.weight])
        return y + nn.op.reshape(self.bias, (1, self.bias.shape[0], 1, 1))


def _pool(x):
    return nn.op.tensor_expr_op(lambda a: topi.nn.pool2d(a, (2, 2), (2, 2), (1, 1), (0, 0, 0, 0), "max"), "max_pool2d",
                                [x])


class _Level(nn.Module):
    def __init__(self, c_in, c_out):
        self.conv1 = _Conv(c_in, c_out)
        self.conv2 = _Conv(c_out, c_out)

    def forward(self, x):
        return self.conv2(self.conv1(x))


class _UNet(nn.Module):
    def __init__(self, classes):
        a, b, c = WIDTHS
        self.enc1, self.enc2, self.mid = _Level(3, a), _Level(a, b), _Level(b, c)
        self.up2, self.dec2 = _Up(c, b), _Level(2 * b, b)
        self.up1, self.dec1 = _Up(b, a), _Level(2 * a, a)
        self.head = _Conv(a, classes, 1)

    def main(self, x):
        s1 = self.enc1(x)
        s2 = self.enc2(_pool(s1))
        m = self.mid(_pool(s2))
        d2 = self.dec2(nn.op.concat([self.up2(m), s2], dim=1))
        d1 = self.dec1(nn.op.concat([self.up1(d2), s1], dim=1))
        return self.head(d1, relu=False)


def _inputs(p):
    return [Tensor("x", (1, 3, p["h"], p["w"]))] + param_inputs(_UNet(p["classes"]))


def _reference(p, x, *params):
    w = Weights(params)

    def conv(x, relu=True):
        weight, bias = w.take(2)
        y = refs.conv(x, weight, 1, weight.shape[-1] // 2) + refs.channel(bias)
        return np.maximum(y, 0.0) if relu else y

    def level(x):
        return conv(conv(x))

    def pool(x):
        return refs.pool(x, 2, 2, 0, "max")

    def up(x):
        weight, bias = w.take(2)
        return refs.conv_transpose(x, weight, 2) + refs.channel(bias)

    s1 = level(x)
    s2 = level(pool(s1))
    m = level(pool(s2))
    d2 = level(np.concatenate([up(m), s2], axis=1))
    d1 = level(np.concatenate([up(d2), s1], axis=1))
    out = conv(d1, relu=False)
    w.done()
    return out


def _flops(p):
    """Counted as the layers count (``suite.graphs``): bias + ReLU after each conv but the two that
    take a concatenated skip, a compare per pooled element, the up-convs' and the head's bias."""
    a, b, c = WIDTHS
    h, w = p["h"], p["w"]
    q, e = (h // 2, w // 2), (h // 4, w // 4)

    def conv(ci, co, hw, epilogue=BIAS_RELU):
        return conv_flops(ci, co, 3, *hw) + epilogue * co * hw[0] * hw[1]

    encoder = conv(3, a, (h, w)) + conv(a, a, (h, w)) + conv(a, b, q) + conv(b, b, q) + conv(b, c, e) + conv(c, c, e)
    pools = 4 * (a * q[0] * q[1] + b * e[0] * e[1])  # 2 x 2 windows
    up2 = 2 * c * b * 4 * e[0] * e[1] + BIAS * b * q[0] * q[1]  # 2 x 2 stride-2 transposed conv + bias
    up1 = 2 * b * a * 4 * q[0] * q[1] + BIAS * a * h * w
    decoder = conv(2 * b, b, q, 0) + conv(b, b, q) + conv(2 * a, a, (h, w), 0) + conv(a, a, (h, w))
    head = conv_flops(a, p["classes"], 1, h, w) + BIAS * p["classes"] * h * w
    return encoder + pools + up2 + up1 + decoder + head


def layers(p):
    a, b, c = WIDTHS
    h, w = p["h"], p["w"]
    q, e = (h // 2, w // 2), (h // 4, w // 4)

    def conv(ci, co, hw):
        return Layer("fused/conv2d-bias-relu", dict(n=1, c=ci, h=hw[0], w=hw[1], k=co, r=3, stride=1, pad=1))

    def pool(ch, hw):
        return Layer("pool/max-pool2d", dict(n=1, c=ch, h=hw[0], w=hw[1], k=2, stride=2, pad=0))

    def up(ci, co, hw):
        return Layer("conv2d/conv2d-transpose-nchw", dict(n=1, c=ci, h=hw[0], w=hw[1], k=co, r=2, s=2, p=0))

    def bias(ch, hw):
        return Layer("elementwise/add-channel", dict(n=1, c=ch, h=hw[0], w=hw[1]))

    def skip_conv(ch, hw):
        return Layer("conv-block/concat-conv", dict(n=1, a=ch, b=ch, h=hw[0], w=hw[1], k=ch))

    head = Layer("conv2d/conv2d-nchw", dict(n=1, c=a, h=h, w=w, k=p["classes"], r=1, stride=1, pad=0))
    return [(conv(3, a, (h, w)), 1), (conv(a, a, (h, w)), 2), (pool(a, (h, w)), 1),
            (conv(a, b, q), 1), (conv(b, b, q), 2), (pool(b, q), 1),
            (conv(b, c, e), 1), (conv(c, c, e), 1),
            (up(c, b, e), 1), (bias(b, q), 1), (skip_conv(b, q), 1),
            (up(b, a, q), 1), (bias(a, (h, w)), 1), (skip_conv(a, (h, w)), 1),
            (head, 1), (bias(p["classes"], (h, w)), 1)]


PATTERN = GraphPattern(
    id="model/unet-small",
    family="model",
    level="L3",
    domains=("vision",),
    summary="small U-Net segmentation net at 64x64x3: 2 levels (16/32, bottleneck 64), up-convs, skips, 2 classes",
    inputs=_inputs,
    graph=lambda p: _UNet(p["classes"]),
    reference=_reference,
    flops=_flops,
    layers=layers,
    workloads=[Workload("n1h64w64", {"h": 64, "w": 64, "classes": 2})],
)
