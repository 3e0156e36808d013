"""The five MLPerf Tiny reference models as fully int8 graphs, with the integer semantics of TFLite Micro
(see ``quant_layers``: per-channel symmetric int8 weights, asymmetric int8 activations, int32
accumulation and bias, per-channel single-rounding requantisation in int64, ReLU folded into the
clamp, TFLite's int8 ADD and AVERAGE_POOL_2D). Each graph outputs its int8 logits (the
autoencoder its int8 reconstruction), compared exactly; the softmax of a deployed classifier is
left out (it would be a float or LUT step after the logits).

BatchNorm is folded into each layer's weights, bias and multipliers, as a converter does, so a
layer is conv/dense + requantise. Weights, biases, multipliers and shifts are inputs after the
data (``p_*``); their draws (``quant_layers.quant_draws``) follow each layer's fan-in, so any
held-out shape keeps its activations spread over the int8 range. Zero points and the residual
add's rescaling are constants of the graph (a converter writes them into the model).

Every layer is an L2 workload of ``quant_layers`` (``layers``), and a graph counts its FLOPs as its
layers do. The NumPy references are written against ``quant_layers``' NumPy helpers, which
``tests/evaluator/test_int8_models.py`` checks against loop-by-loop integer code.
"""

from __future__ import annotations

from tvm import te
from tvm.relax.frontend import nn

from evaluator.suite.base import GraphPattern, Tensor, Workload
from evaluator.suite.declare import Layer
from evaluator.suite.graphs import Weights, same_pad2d
from evaluator.suite.heldout import ShapeSpace
from evaluator.suite.patterns import quant_layers as ql
from evaluator.suite.patterns.quant_layers import ZA, ZB

ONE, DOWN = ql.ONE, ql.DOWN


# --- Relax building blocks ---------------------------------------------------------------------------
# The integer steps are TE operators inside the Relax graph (int64, as ``quant_layers`` computes
# them): one requantise operator per layer, not a dozen elementwise Relax ops, so a fused
# function's name (its operators' names joined) stays within a layered trace's 128 characters
# and its schedule within the trace's step limit.

def _centred(x, zp):
    """int8 → int32 minus the zero point (a conv's padding then reads the zero point)."""
    def f(X):
        return te.compute(X.shape, lambda *i: X(*i).astype("int32") - zp, name="T_centre")
    return nn.op.tensor_expr_op(f, "centre", [x])


def _requant(acc, bias, mult, shift, zy, relu):
    """int32 acc (channel on axis 1) + bias → ((. * M + 2^(s-1)) >> s) + zy, clamped, int8."""
    def f(a, b, m, s):
        return ql.requant_te(a, b, m, s, zy, relu)
    return nn.op.tensor_expr_op(f, "requantize", [acc, bias, mult, shift])


def qadd_relu(a, b, zb):
    """TFLite int8 ADD (branch ``a`` at zero point ZB, skip ``b`` at ``zb``) with a fused ReLU."""
    return nn.op.tensor_expr_op(lambda A, B: ql.qadd_relu_te(A, B, zb), "qadd_relu", [a, b])


def _qmean(x):
    """int8 (N, C, H, W) → int32 (N, C): the average, halves away from zero."""
    return nn.op.tensor_expr_op(ql.qmean_te, "qmean", [x])


# --- layers: a plain-Python spec (shapes, draws, layer workload, NumPy reference) and its Relax module ---
# The references walk the specs only, so they never touch TVM.

class _Spec:
    """One int8 layer: int8 weights and per-channel int32 bias, multiplier and shift. ``rms_x``: the
    expected rms of its centred input; ``spread``: of its requantised output (``quant_layers``)."""

    def _quant(self, w_shape, c_out, fan_in, rms_x):
        self.w_shape, self.c_out = tuple(w_shape), c_out
        self.draws = ql.quant_draws(fan_in, rms_x)
        self.spread = ql.requant_spread(fan_in, rms_x)

    def tensor(self, name, leaf):
        if leaf == "weight":
            return ql.weight(name, self.w_shape)
        lo, hi = self.draws[leaf]
        return Tensor(name, (self.c_out,), "int32", init="randint", low=lo, high=hi)


class ConvSpec(_Spec):
    """int8 conv2d + per-channel requantisation (+ ReLU); ``padding`` (top, left, bottom, right) or an int."""

    def __init__(self, c_in, c_out, kernel, stride, padding, rms_x, groups=1, relu=True, h=None, w=None, zx=ZA):
        kh, kw = (kernel, kernel) if isinstance(kernel, int) else kernel
        self._quant((c_out, c_in // groups, kh, kw), c_out, c_in // groups * kh * kw, rms_x)
        self.c_in, self.kernel, self.stride, self.padding = c_in, kernel, stride, padding
        self.groups, self.relu, self.h, self.w, self.zx = groups, relu, h, w, zx
        self.pads = (padding,) * 4 if isinstance(padding, int) else tuple(padding)

    def layer(self):
        base = dict(n=1, c=self.c_in, h=self.h, w=self.w)
        relu = "-relu" if self.relu else ""
        if self.groups > 1:
            assert self.groups == self.c_in == self.c_out and self.zx == ZA
            return Layer(f"quant/qdepthwise-conv2d-pc-requant{relu}", {**base, "r": self.kernel, "s": self.stride,
                                                                       "p": self.padding})
        assert self.zx == ZA or self.relu
        extra = {} if self.zx == ZA else {"zx": self.zx}
        return Layer(f"quant/qconv2d-pc-requant{relu}",
                     {**base, "k": self.c_out, "r": self.kernel, "s": self.stride, "p": self.padding, **extra})

    def ref(self, x, w: Weights):
        t, left, b, r = self.pads
        return ql.qconv_np(x, *w.take(4), self.stride, [(t, b), (left, r)], self.groups, self.relu, zx=self.zx)


class DenseSpec(_Spec):
    def __init__(self, n_in, n_out, rms_x, relu=True, batch=1):
        self._quant((n_out, n_in), n_out, n_in, rms_x)
        self.n_in, self.relu, self.batch = n_in, relu, batch

    def layer(self):
        name = "quant/qdense-pc-requant-relu" if self.relu else "quant/qdense-pc-requant"
        return Layer(name, dict(m=self.batch, n=self.c_out, k=self.n_in))

    def ref(self, x, w: Weights):
        return ql.qdense_np(x, *w.take(4), relu=self.relu)


class HeadSpec(_Spec):
    """int8 global average pool (halves away from zero) → dense → int8 logits (zero point ZB)."""

    def __init__(self, c, classes, h, w, spread):
        self._quant((classes, c), classes, c, ql.pooled_rms(spread, h * w))
        self.c, self.h, self.w = c, h, w

    def layer(self):
        return Layer("quant/qclassifier-head", dict(n=1, c=self.c, h=self.h, w=self.w, k=self.c_out))

    def ref(self, x, w: Weights):
        return ql.qhead_np(x, *w.take(4))


class _QModule(nn.Module):
    def __init__(self, spec):
        self.spec = spec
        self.weight = nn.Parameter(spec.w_shape, "int8")
        self.bias = nn.Parameter((spec.c_out,), "int32")
        self.mult = nn.Parameter((spec.c_out,), "int32")
        self.shift = nn.Parameter((spec.c_out,), "int32")


class QConv(_QModule):
    def forward(self, x):
        sp = self.spec
        acc = nn.op.conv2d(_centred(x, sp.zx), nn.op.astype(self.weight, "int32"), None, stride=sp.stride,
                           padding=sp.pads, groups=sp.groups)
        return _requant(acc, self.bias, self.mult, self.shift, ZA if sp.relu else ZB, sp.relu)


class QDense(_QModule):
    def forward(self, x):
        acc = nn.op.matmul(_centred(x, ZA), nn.op.permute_dims(nn.op.astype(self.weight, "int32")), out_dtype="int32")
        return _requant(acc, self.bias, self.mult, self.shift, ZA if self.spec.relu else ZB, self.spec.relu)


class QHead(_QModule):
    def forward(self, x):
        acc = nn.op.matmul(_centred(_qmean(x), ZA), nn.op.permute_dims(nn.op.astype(self.weight, "int32")),
                           out_dtype="int32")
        return _requant(acc, self.bias, self.mult, self.shift, ZB, False)


def add_layer(c, h, zb):
    return Layer("quant/qresidual-add-relu", dict(n=1, c=c, h=h, w=h, zb=zb))


# --- shared pattern plumbing --------------------------------------------------------------------------

def _module_at(model, path):
    m = model
    for part in path:
        m = m[int(part)] if part.isdigit() else getattr(m, part)
    return m


def param_inputs(model) -> list[Tensor]:
    """The model's parameters as workload inputs, in export order, each drawn as its layer says."""
    out = []
    for name, _ in model.named_parameters():
        *path, leaf = name.split(".")
        out.append(_module_at(model, path).spec.tensor("p_" + name.replace(".", "_"), leaf))
    return out


def _merged(layers):
    """(layer, count) in first-seen order, one entry per shape."""
    counts: dict[Layer, int] = {}
    for layer in layers:
        counts[layer] = counts.get(layer, 0) + 1
    return list(counts.items())


def _layer_patterns():
    return {p.id: p for p in ql.PATTERNS}


def _flops_of(layers_fn):
    def flops(p):
        pats = _layer_patterns()
        return sum(n * pats[layer.pattern].flops(layer.params) for layer, n in layers_fn(p))
    return flops


def _graph_pattern(pid, domains, summary, model_cls, plan, data, reference, layer_list, workloads, space=None):
    """A model's pattern from its plan (plain specs: inputs' draws, layers, reference) and its Relax
    module (built from the same plan)."""
    def layers(p):
        return _merged(layer_list(plan(p)))
    return GraphPattern(id=pid, family="model", level="L3", domains=domains, summary=summary,
                        inputs=lambda p: [ql.i8("x", data(p))] + param_inputs(model_cls(p)), graph=model_cls,
                        reference=reference, flops=_flops_of(layers), layers=layers, workloads=workloads,
                        shape_space=space)


# --- (1) anomaly detection: the FC autoencoder --------------------------------------------------------

AE_HIDDEN = [128, 128, 128, 128, 8, 128, 128, 128, 128]


def ae_plan(p) -> list[DenseSpec]:
    dims, rms, out = [p["n_in"]] + AE_HIDDEN, ql.rms_uniform_int8(ZA), []
    for a, b in zip(dims, dims[1:]):
        out.append(DenseSpec(a, b, rms, batch=p["batch"]))
        rms = ql.relu_rms(out[-1].spread)
    return out + [DenseSpec(dims[-1], p["n_in"], rms, relu=False, batch=p["batch"])]


class AutoencoderInt8(nn.Module):
    """MLPerf Tiny AD autoencoder (ToyADMOS), int8.

    Source: mlcommons/tiny, benchmark/training/anomaly_detection/keras_model.py — Dense 640 → 128 ×4
    → 8 → 128 ×4 → 640, each hidden Dense + BatchNormalization + ReLU (BatchNorm folded here), the
    output Dense linear. Input int8 (batch, 640); output the int8 reconstruction (zero point ZB).
    """

    def __init__(self, p):
        plan = ae_plan(p)
        self.blocks = nn.ModuleList([QDense(spec) for spec in plan[:-1]])
        self.out = QDense(plan[-1])

    def main(self, x):
        for block in self.blocks:
            x = block(x)
        return self.out(x)


def _ae_ref(p, x, *params):
    w = Weights(params)
    for spec in ae_plan(p):
        x = spec.ref(x, w)
    w.done()
    return x


# --- (2) image classification: ResNet-8 --------------------------------------------------------------

RN_SIZE, RN_F = 32, 16


class StackSpec:
    """A residual stack: conv1 (ReLU), conv2 (no ReLU), a 1x1 shortcut where it strides, the add."""

    def __init__(self, c_in, c_out, stride, h, spread):
        o, rms = h // stride, ql.relu_rms(spread)
        self.conv1 = ConvSpec(c_in, c_out, 3, stride, DOWN if stride == 2 else ONE, rms, h=h, w=h)
        self.conv2 = ConvSpec(c_out, c_out, 3, 1, ONE, ql.relu_rms(self.conv1.spread), relu=False, h=o, w=o)
        self.shortcut = ConvSpec(c_in, c_out, 1, stride, 0, rms, relu=False, h=h, w=h) if stride == 2 else None
        self.c_out, self.o = c_out, o
        self.zb = ZA if self.shortcut is None else ZB  # the identity carries a ReLU output
        self.spread = ql.add_spread(self.conv2.spread, rms if self.shortcut is None else self.shortcut.spread)

    def layers(self):
        convs = [self.conv1, self.conv2] + ([self.shortcut] if self.shortcut is not None else [])
        return [c.layer() for c in convs] + [add_layer(self.c_out, self.o, self.zb)]


def resnet_plan(p):
    stem = ConvSpec(3, RN_F, 3, 1, ONE, ql.rms_uniform_int8(ZA), h=RN_SIZE, w=RN_SIZE)
    spread, stacks = stem.spread, []
    for c_in, c_out, stride, h in ((RN_F, RN_F, 1, RN_SIZE), (RN_F, 2 * RN_F, 2, RN_SIZE),
                                   (2 * RN_F, 4 * RN_F, 2, RN_SIZE // 2)):
        stacks.append(StackSpec(c_in, c_out, stride, h, spread))
        spread = stacks[-1].spread
    return stem, stacks, HeadSpec(4 * RN_F, p["classes"], RN_SIZE // 4, RN_SIZE // 4, spread)


class _Stack(nn.Module):
    def __init__(self, spec: StackSpec):
        self.conv1, self.conv2 = QConv(spec.conv1), QConv(spec.conv2)
        self.shortcut = QConv(spec.shortcut) if spec.shortcut is not None else None
        self.zb = spec.zb

    def forward(self, x):
        y = self.conv2(self.conv1(x))
        return qadd_relu(y, x if self.shortcut is None else self.shortcut(x), self.zb)


class ResNet8Int8(nn.Module):
    """MLPerf Tiny image classification, ResNet-8 on CIFAR-10 (32 x 32 x 3), int8.

    Source: mlcommons/tiny, benchmark/training/image_classification/keras_model.py
    (``resnet_v1_eembc``, 16 filters): Conv 16 3x3 + BN + ReLU; stack 1 [Conv 16 + BN + ReLU,
    Conv 16 + BN] + identity, ReLU; stacks 2 and 3 (32, 64 filters) [Conv 3x3/2 + BN + ReLU,
    Conv 3x3 + BN] + Conv 1x1/2 shortcut, ReLU; AveragePooling2D 8x8; Dense 10. Here BatchNorm is
    folded, each add is TFLite's int8 ADD with the ReLU fused, the pool is int8, and the graph
    outputs the 10 int8 logits (the softmax left out). Keras "same" pads the stride-2 3x3 convs at
    the bottom/right only.
    """

    def __init__(self, p):
        stem, stacks, head = resnet_plan(p)
        self.stem = QConv(stem)
        self.stacks = nn.ModuleList([_Stack(s) for s in stacks])
        self.head = QHead(head)

    def main(self, x):
        x = self.stem(x)
        for stack in self.stacks:
            x = stack(x)
        return self.head(x)


def _resnet_layers(plan):
    stem, stacks, head = plan
    return [stem.layer()] + [layer for s in stacks for layer in s.layers()] + [head.layer()]


def _resnet_ref(p, x, *params):
    w = Weights(params)
    stem, stacks, head = resnet_plan(p)
    x = stem.ref(x, w)
    for s in stacks:
        y = s.conv2.ref(s.conv1.ref(x, w), w)
        skip = x if s.shortcut is None else s.shortcut.ref(x, w)
        x = ql.qadd_relu_np(y, skip, ZB, s.zb, ZA)
    out = head.ref(x, w)
    w.done()
    return out


# --- (3) keyword spotting: DS-CNN, and (4) visual wake words: MobileNetV1-0.25 --------------------------

KWS_F, KWS_BLOCKS = 64, 4
KWS_STEM = dict(kernel=(10, 4), stride=2, pad=(4, 1, 5, 1))  # Keras "same" at 49 x 10: 4 top, 5 bottom


def kws_plan(p):
    h, w = 25, 5
    stem = ConvSpec(1, KWS_F, KWS_STEM["kernel"], KWS_STEM["stride"], KWS_STEM["pad"], ql.rms_uniform_int8(ZA),
                    h=49, w=10)
    spread, blocks = stem.spread, []
    for _ in range(KWS_BLOCKS):
        dw = ConvSpec(KWS_F, KWS_F, 3, 1, ONE, ql.relu_rms(spread), groups=KWS_F, h=h, w=w)
        pw = ConvSpec(KWS_F, KWS_F, 1, 1, 0, ql.relu_rms(dw.spread), h=h, w=w)
        blocks.append((dw, pw))
        spread = pw.spread
    return stem, blocks, HeadSpec(KWS_F, p["classes"], h, w, spread)


VWW_SIZE, VWW_STEM = 96, 8
VWW_BLOCKS = [(16, 1), (32, 2), (32, 1), (64, 2), (64, 1), (128, 2), (128, 1), (128, 1), (128, 1), (128, 1),
              (128, 1), (256, 2), (256, 1)]  # (pointwise filters, depthwise stride)


def vww_plan(p):
    stem = ConvSpec(3, VWW_STEM, 3, 2, same_pad2d(VWW_SIZE, VWW_SIZE, 3, 2), ql.rms_uniform_int8(ZA),
                    h=VWW_SIZE, w=VWW_SIZE)
    h, c, spread, blocks = VWW_SIZE // 2, VWW_STEM, stem.spread, []
    for k, s in VWW_BLOCKS:
        o = -(-h // s)
        dw = ConvSpec(c, c, 3, s, same_pad2d(h, h, 3, s), ql.relu_rms(spread), groups=c, h=h, w=h)
        pw = ConvSpec(c, k, 1, 1, 0, ql.relu_rms(dw.spread), h=o, w=o)
        blocks.append((dw, pw))
        h, c, spread = o, k, pw.spread
    return stem, blocks, HeadSpec(c, p["classes"], h, h, spread)


class _SeparableNet(nn.Module):
    """stem conv → depthwise-separable blocks → int8 pool + dense (the plan says the shapes)."""

    def __init__(self, plan):
        stem, blocks, head = plan
        self.stem = QConv(stem)
        self.blocks = nn.ModuleList([nn.ModuleList([QConv(dw), QConv(pw)]) for dw, pw in blocks])
        self.head = QHead(head)

    def main(self, x):
        x = self.stem(x)
        for dw, pw in self.blocks:
            x = pw(dw(x))
        return self.head(x)


class DSCNNInt8(_SeparableNet):
    """MLPerf Tiny keyword spotting DS-CNN (Speech Commands, 49 x 10 MFCC), int8.

    Source: mlcommons/tiny, benchmark/training/keyword_spotting/keras_model.py (``ds_cnn``):
    Conv2D 64 10x4/2 "same" + BN + ReLU → 4 x [DepthwiseConv2D 3x3 + BN + ReLU → Conv2D 64 1x1 +
    BN + ReLU] → average pool → Dense 12. BatchNorm folded; the pool is a true global int8 average
    over the 25 x 5 map (as ``ds_cnn_kws``); the graph outputs the 12 int8 logits.
    """

    def __init__(self, p):
        super().__init__(kws_plan(p))


class MobileNetV1Int8(_SeparableNet):
    """MLPerf Tiny visual wake words, MobileNetV1 x0.25 at 96 x 96 x 3, int8.

    Source: mlcommons/tiny, benchmark/training/visual_wake_words/vww_model.py (SiliconLabs
    platform_ml_models, eembc/Person_detection/mobilenet_v1_eembc.py): Conv2D 8 3x3/2 + BN + ReLU,
    13 x [DepthwiseConv2D 3x3 + BN + ReLU → Conv2D 1x1 + BN + ReLU] (pointwise 16, 32/2, 32, 64/2,
    64, 128/2, 128 x 5, 256/2, 256), AveragePooling2D 3x3, Dense 2. BatchNorm folded; Keras "same"
    pads the stride-2 layers at the bottom/right; the graph outputs the int8 logits.
    """

    def __init__(self, p):
        super().__init__(vww_plan(p))


def _separable_layers(plan):
    stem, blocks, head = plan
    return [stem.layer()] + [c.layer() for block in blocks for c in block] + [head.layer()]


def _separable_ref(plan_fn):
    def reference(p, x, *params):
        w = Weights(params)
        stem, blocks, head = plan_fn(p)
        x = stem.ref(x, w)
        for dw, pw in blocks:
            x = pw.ref(dw.ref(x, w), w)
        out = head.ref(x, w)
        w.done()
        return out
    return reference


# --- (5) streaming wake word: DS-TCN -----------------------------------------------------------------

SWW_FRAMES = 30  # 1 s of 64 ms windows every 32 ms: the four "valid" kernels (3, 5, 10, 15) reduce it to 1
SWW_BLOCKS = [(3, 128), (5, 64), (10, 64), (15, 32)]  # (temporal kernel, pointwise filters)


def sww_plan(p):
    c, t, rms, blocks = p["features"], p["frames"], ql.rms_uniform_int8(ZA), []
    for k, f in SWW_BLOCKS:
        dw = ConvSpec(c, c, (k, 1), 1, 0, rms, groups=c, relu=False, h=t, w=1)
        t -= k - 1
        pw = ConvSpec(c, f, 1, 1, 0, dw.spread, h=t, w=1, zx=ZB)  # its input is linear: centred at ZB
        blocks.append((dw, pw))
        c, rms = f, ql.relu_rms(pw.spread)
    return blocks, DenseSpec(c * t, p["classes"], rms, relu=False)


class StreamingWakeWordInt8(nn.Module):
    """MLPerf Tiny streaming wake word (the fifth benchmark), DS-TCN, int8.

    Source: mlcommons/tiny, benchmark/training/streaming_wakeword/keras_model.py (``ds_tcn``, the
    default config) with the features of str_ww_util.py (40 log-mel features, 64 ms windows every
    32 ms over 1 s: 30 frames): 4 x [DepthwiseConv2D (k x 1, "valid", no bias) → Conv2D 1x1 (no
    bias) → BN → ReLU] with k = 3, 5, 10, 15 and 128, 64, 64, 32 filters, Flatten, Dense 3
    (wake word, unknown, silence). Here the input is NCHW (1, features, frames, 1), BatchNorm is
    folded into the pointwise conv (its bias), the depthwise conv is requantised without an
    activation (its int8 output at zero point ZB, its int32 bias as TFLite's kernels take one), and
    the graph outputs the 3 int8 logits.
    """

    def __init__(self, p):
        blocks, head = sww_plan(p)
        self.blocks = nn.ModuleList([nn.ModuleList([QConv(dw), QConv(pw)]) for dw, pw in blocks])
        self.fc = QDense(head)

    def main(self, x):
        for dw, pw in self.blocks:
            x = pw(dw(x))
        return self.fc(nn.op.reshape(x, (int(x.shape[0]), -1)))


def _sww_layers(plan):
    blocks, head = plan
    return [c.layer() for block in blocks for c in block] + [head.layer()]


def _sww_ref(p, x, *params):
    w = Weights(params)
    blocks, head = sww_plan(p)
    for dw, pw in blocks:
        x = pw.ref(dw.ref(x, w), w)
    out = head.ref(x.reshape(x.shape[0], -1), w)
    w.done()
    return out


PATTERNS = [
    _graph_pattern("model/anomaly-autoencoder-int8", ("anomaly-detection", "audio"),
                   "MLPerf Tiny AD autoencoder, int8: 640→128×4→8→128×4→640, per-channel requantised Dense+ReLU",
                   AutoencoderInt8, ae_plan, lambda p: (p["batch"], p["n_in"]), _ae_ref,
                   lambda plan: [spec.layer() for spec in plan], [Workload("b1", {"batch": 1, "n_in": 640})]),
    _graph_pattern("model/resnet8-int8", ("vision",),
                   "MLPerf Tiny IC ResNet-8 int8 at 32x32: conv, 3 residual stacks with int8 adds, int8 pool, "
                   "dense 10 → int8 logits",
                   ResNet8Int8, resnet_plan, lambda p: (1, 3, RN_SIZE, RN_SIZE), _resnet_ref, _resnet_layers,
                   [Workload("n1h32w32", {"classes": 10})]),
    _graph_pattern("model/ds-cnn-kws-int8", ("audio",),
                   "MLPerf Tiny KWS DS-CNN int8: conv 10x4/2, 4 depthwise-separable blocks (64 ch), int8 pool, "
                   "dense 12 → int8 logits",
                   DSCNNInt8, kws_plan, lambda p: (1, 1, 49, 10), _separable_ref(kws_plan), _separable_layers,
                   [Workload("n1h49w10", {"classes": 12})]),
    _graph_pattern("model/mobilenet-v1-vww-int8", ("vision",),
                   "MLPerf Tiny VWW MobileNetV1 x0.25 int8 at 96x96: conv 3x3/2, 13 depthwise-separable blocks, "
                   "int8 pool, dense 2 → int8 logits",
                   MobileNetV1Int8, vww_plan, lambda p: (1, 3, VWW_SIZE, VWW_SIZE), _separable_ref(vww_plan),
                   _separable_layers, [Workload("n1h96w96", {"classes": 2})],
                   # held out: more classes (the input size is fixed by the task), as the fp32 graph
                   ShapeSpace(choices={"classes": (3, 4, 5, 10)})),
    _graph_pattern("model/streaming-wakeword-int8", ("audio",),
                   "MLPerf Tiny streaming wake word DS-TCN int8: 4 x (k x 1 depthwise, 1x1 conv + ReLU) over 30 "
                   "frames of 40 features, dense 3 → int8 logits",
                   StreamingWakeWordInt8, sww_plan, lambda p: (1, p["features"], p["frames"], 1), _sww_ref,
                   _sww_layers, [Workload("n1c40t30", {"frames": SWW_FRAMES, "features": 40, "classes": 3})],
                   # held out: another feature count (the frames are the kernels' receptive field)
                   ShapeSpace(fixed=frozenset({"frames"}))),
]
