"""Shared pieces of the L3 model graphs: Relax ``nn`` layers (convolution + BatchNorm + activation
with explicit padding), parameter input specs derived from a model's own parameter list, Keras
"same" padding, and a cursor that hands a NumPy reference its weights in export order.

Conventions: NCHW data, OIHW weights, every conv and dense layer has a bias (Keras' default),
BatchNorm is the inference affine ``(y - mean) / sqrt(var + 1e-3) * gamma + beta`` (Keras epsilon)
with its four vectors as parameters, weights are He-scaled random draws so activations stay O(1)
through a deep graph and the fixed float32 tolerance stays meaningful.
"""

from __future__ import annotations

import numpy as np
from tvm.relax.frontend import nn

from evaluator.suite import refs
from evaluator.suite.base import Tensor

BN_EPS = 1e-3


def keras_same(size: int, kernel: int, stride: int) -> tuple[int, int]:
    """(before, after) padding of a Keras/TensorFlow "same" convolution along one axis."""
    out = -(-size // stride)
    total = max((out - 1) * stride + kernel - size, 0)
    return total // 2, total - total // 2


def same_pad2d(h: int, w: int, kernel, stride: int) -> tuple[int, int, int, int]:
    """(top, left, bottom, right) for a "same" 2-D convolution."""
    kh, kw = (kernel, kernel) if isinstance(kernel, int) else kernel
    (t, b), (left, r) = keras_same(h, kh, stride), keras_same(w, kw, stride)
    return t, left, b, r


def param_inputs(model: nn.Module) -> list[Tensor]:
    """The parameters of ``model`` as workload inputs, in export order, with their draws:
    weights He-scaled by fan-in, BatchNorm/LayerNorm scales and variances in [0.5, 1.5]."""
    out = []
    for name, p in model.named_parameters():
        shape = tuple(int(d) for d in p.shape)
        tname = "p_" + name.replace(".", "_")
        leaf = name.rsplit(".", 1)[-1]
        if leaf in ("bn_gamma", "bn_var", "ln_gamma"):
            out.append(Tensor(tname, shape, init="positive"))
        elif leaf == "weight" and len(shape) >= 2:
            fan_in = int(np.prod(shape[1:]))
            out.append(Tensor(tname, shape, scale=(2.0 / fan_in) ** 0.5))
        else:
            out.append(Tensor(tname, shape))
    return out


def channel(v):
    return nn.op.reshape(v, (1, v.shape[0], 1, 1))


class ConvBN(nn.Module):
    """conv2d (bias) → BatchNorm → activation ("relu" or None), padding (top, left, bottom, right)."""

    def __init__(self, c_in, c_out, kernel, stride=1, padding=(0, 0, 0, 0), groups=1, act="relu", bn=True):
        kh, kw = (kernel, kernel) if isinstance(kernel, int) else kernel
        self.weight = nn.Parameter((c_out, c_in // groups, kh, kw))
        self.bias = nn.Parameter((c_out,))
        if bn:
            self.bn_gamma = nn.Parameter((c_out,))
            self.bn_beta = nn.Parameter((c_out,))
            self.bn_mean = nn.Parameter((c_out,))
            self.bn_var = nn.Parameter((c_out,))
        self.stride, self.padding, self.groups, self.act, self.bn = stride, padding, groups, act, bn

    def forward(self, x):
        y = nn.op.conv2d(x, self.weight, self.bias, stride=self.stride, padding=self.padding, groups=self.groups)
        if self.bn:
            scale = self.bn_gamma / nn.sqrt(self.bn_var + nn.Tensor.from_const(np.float32(BN_EPS)))
            y = (y - channel(self.bn_mean)) * channel(scale) + channel(self.bn_beta)
        return nn.relu(y) if self.act == "relu" else y


class ConvBN1d(nn.Module):
    """conv1d without bias → BatchNorm → activation, padding (left, right) (TF-slim's conv layer)."""

    def __init__(self, c_in, c_out, kernel, stride=1, padding=(0, 0), act="relu"):
        self.weight = nn.Parameter((c_out, c_in, kernel))
        self.bn_gamma = nn.Parameter((c_out,))
        self.bn_beta = nn.Parameter((c_out,))
        self.bn_mean = nn.Parameter((c_out,))
        self.bn_var = nn.Parameter((c_out,))
        self.stride, self.padding, self.act = stride, padding, act

    def forward(self, x):
        y = nn.op.conv1d(x, self.weight, None, stride=self.stride, padding=self.padding)
        scale = self.bn_gamma / nn.sqrt(self.bn_var + nn.Tensor.from_const(np.float32(BN_EPS)))

        def ch(v):
            return nn.op.reshape(v, (1, v.shape[0], 1))
        y = (y - ch(self.bn_mean)) * ch(scale) + ch(self.bn_beta)
        return nn.relu(y) if self.act == "relu" else y


class Weights:
    """Hands a reference its parameter arrays in export order."""

    def __init__(self, arrays):
        self._arrays = list(arrays)

    def take(self, n: int = 1):
        got, self._arrays = self._arrays[:n], self._arrays[n:]
        if len(got) < n:
            raise ValueError("the reference asked for more parameters than the model has")
        return got[0] if n == 1 else got

    def done(self):
        if self._arrays:
            raise ValueError(f"{len(self._arrays)} parameters left unused by the reference")


def conv_bn_np(x, w: Weights, stride=1, padding=(0, 0, 0, 0), groups=1, act="relu", bn=True):
    """NumPy twin of :class:`ConvBN` (consumes its parameters from ``w``)."""
    weight, bias = w.take(2)
    t, left, b, r = padding
    y = refs.conv(x, weight, stride, [(t, b), (left, r)], 1, groups) + refs.channel(bias)
    if bn:
        y = refs.batch_norm(y, *w.take(4), eps=BN_EPS)
    return np.maximum(y, 0.0) if act == "relu" else y


def conv_bn1d_np(x, w: Weights, stride=1, padding=(0, 0), act="relu"):
    """NumPy twin of :class:`ConvBN1d`."""
    y = refs.conv(x, w.take(), stride, [padding])
    y = refs.batch_norm(y, *w.take(4), eps=BN_EPS)
    return np.maximum(y, 0.0) if act == "relu" else y


# --- FLOPs -------------------------------------------------------------------------------------
# A model counts its FLOPs by the rules of the L1/L2 patterns its layers are (``layers``), so a
# per-layer breakdown adds up to the model exactly: 2 per multiply-add, plus the elementwise ops
# per output element that the layer's pattern counts (below). Where a layer's pattern counts no
# epilogue, the model counts none there either: the BatchNorms inside conv-block's resnet and
# tc-resnet blocks, the pointwise half of depthwise-separable-bn, concat-conv's bias + ReLU, and
# a conv's bias where a BatchNorm follows (the layer pattern folds it into the BatchNorm's mean).
BN_RELU = 4        # conv-block/conv2d-bn-relu, conv1d-bn-relu, depthwise half of depthwise-separable-bn
BIAS_RELU = 2      # fused/conv2d-bias-relu, dense-block/dense-bias-relu
BIAS_BN_RELU = 6   # dense-block/dense-bn-relu
BIAS = 1           # dense-block/dense-bias, elementwise/add-channel
BIAS_SIGMOID = 5   # dense-block/dense-bias-sigmoid
BIAS_SOFTMAX = 5   # per class: conv-block/classifier-head
SCORE_SOFTMAX = 6  # per attention score (scale + softmax): transformer-block/mha-block
RESIDUAL_LN = 9    # fused/residual-layer-norm


def conv_flops(c_in, c_out, kernel, oh, ow, groups=1):
    kh, kw = (kernel, kernel) if isinstance(kernel, int) else kernel
    return 2 * c_out * oh * ow * (c_in // groups) * kh * kw
