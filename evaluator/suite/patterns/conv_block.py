"""Fused convolutional subgraphs (L2), each one PrimFunc: conv + BatchNorm/bias + activation
(ReLU, ReLU6, SiLU, leaky ReLU, hard-swish), depthwise and depthwise-separable layers with explicit
BatchNorm (the layers of DS-CNN and MobileNetV1), MobileNetV2's inverted residual, squeeze-excite,
ResNet basic and bottleneck blocks, SqueezeNet's fire and GhostNet's ghost modules, conv + max-pool,
U-Net decoder steps (transposed conv, upsample + conv, concatenated skip + conv), the classifier
head, and 1-D blocks of temporal conv nets (TCN residual block, WaveNet gated unit,
separable conv1d + BN).

BatchNorm is the inference affine ``(y - mean) / sqrt(var + 1e-3) * gamma + beta`` (Keras epsilon)
with its four vectors as inputs; "bias" layers have BN folded in. Padding ``p`` is symmetric or a
``(top, left, bottom, right)`` tuple (Keras "same" pads stride-2 convs asymmetrically).

Every pattern takes a ``dtype``: float16 workloads (the layers of the float16 ResNet-8 and DS-CNN
graphs) store their inputs and output in float16 and compute the whole block in float32
(``suite.precision``).
"""

import numpy as np
from tvm import te, topi

from evaluator.suite import refs
from evaluator.suite.base import OpPattern, Tensor
from evaluator.suite.declare import wl
from evaluator.suite.precision import in_float32, stored_inputs

EPS = 1e-3


# --- shared pieces -------------------------------------------------------------------------------

def _pad4(p):
    pad = p.get("p", 0)
    return tuple(pad) if isinstance(pad, (tuple, list)) else (pad,) * 4


def _ref_pad(p):
    t, left, b, r = _pad4(p)
    return [(t, b), (left, r)]


def _out(size, k, s, before, after):
    return (size + before + after - k) // s + 1


def _khw(r):
    """(kernel height, kernel width) of a square (int) or rectangular (tuple) kernel."""
    return (r, r) if isinstance(r, int) else tuple(r)


def _oh_ow(p, r=None):
    kh, kw = _khw(r or p["r"])
    t, left, b, rr = _pad4(p)
    return _out(p["h"], kh, p.get("s", 1), t, b), _out(p["w"], kw, p.get("s", 1), left, rr)


def _bn_vectors(prefix, c):
    return [Tensor(prefix + "gamma", (c,), init="positive"), Tensor(prefix + "beta", (c,)),
            Tensor(prefix + "mean", (c,)), Tensor(prefix + "var", (c,), init="positive")]


def _w(name, k, c, r, groups=1):
    """He-scaled weights keep activations O(1) through the block."""
    kh, kw = _khw(r)
    return Tensor(name, (k, c // groups, kh, kw), scale=(2.0 / (c // groups * kh * kw)) ** 0.5)


def _vec(name, c, init="normal", scale=1.0):
    return Tensor(name, (c,), init=init, scale=scale)


def _x(p, c=None):
    return Tensor("X", (p["n"], c or p["c"], p["h"], p["w"]))


def _bn_te(y, g, b, m, v, name="T_bn"):
    return te.compute(y.shape, lambda n, c, i, j: (y[n, c, i, j] - m[c]) * te.rsqrt(v[c] + EPS) * g[c] + b[c],
                      name=name)


def _bn_np(y, g, b, m, v):
    return refs.batch_norm(y, g, b, m, v, EPS)


def _act_te(y, fn, name):
    return te.compute(y.shape, lambda *i: fn(y(*i)), name=name)


def _relu(x):
    return te.max(x, 0.0)


def _relu6(x):
    return te.min(te.max(x, 0.0), 6.0)


def _bias_te(y, b, name="T_bias"):
    return te.compute(y.shape, lambda n, c, i, j: y[n, c, i, j] + b[c], name=name)


def _bias_np(y, b):
    return y + refs.channel(b, y.ndim)


def _conv(X, W, p, stride=None, pad=None, groups=1):
    stride = p.get("s", 1) if stride is None else stride
    pad = _pad4(p) if pad is None else pad
    if groups == 1:
        return topi.nn.conv2d_nchw(X, W, stride, pad, 1)
    if groups == X.shape[1] and W.shape[1] == 1:
        return topi.nn.depthwise_conv2d_nchw(X, W, stride, pad, 1)
    return topi.nn.group_conv2d_nchw(X, W, stride, pad, 1, groups)


def _conv_np(x, w, p, stride=None, pad=None, groups=1):
    return refs.conv(x, w, p.get("s", 1) if stride is None else stride, _ref_pad(p) if pad is None else pad, 1, groups)


def _conv_flops(p, c, k, r, oh, ow, groups=1):
    kh, kw = _khw(r)
    return 2 * p["n"] * k * oh * ow * (c // groups) * kh * kw


# --- computes ------------------------------------------------------------------------------------

def _conv_bn_act(act_te, act_np, name, groups=lambda p: 1):
    def compute(p, X, W, g, b, m, v):
        return _act_te(_bn_te(_conv(X, W, p, groups=groups(p)), g, b, m, v), act_te, name)

    def reference(p, X, W, g, b, m, v):
        return act_np(_bn_np(_conv_np(X, W, p, groups=groups(p)), g, b, m, v))
    return compute, reference


def _conv_bias_act(act_te, act_np, name, groups=lambda p: 1):
    def compute(p, X, W, b):
        return _bias_act(p, X, W, b, act_te, name, groups(p))

    def reference(p, X, W, b):
        return act_np(_bias_np(_conv_np(X, W, p, groups=groups(p)), b))
    return compute, reference


def _bias_act(p, X, W, b, act_te, name, groups):
    y = _conv(X, W, p, groups=groups)
    return te.compute(y.shape, lambda n, c, i, j: act_te(y[n, c, i, j] + b[c]), name=name)


def _hswish(x):
    return x * te.min(te.max(x + 3.0, 0.0), 6.0) / 6.0


def _hswish_np(x):
    return x * np.clip(x + 3.0, 0.0, 6.0) / 6.0


def _silu(x):
    return x / (1.0 + te.exp(-x))


def _nhwc_bn_relu(p, X, W, g, b, m, v):
    y = topi.nn.conv2d_nhwc(X, W, p["s"], _pad4(p), 1)
    return te.compute(y.shape,
                      lambda n, i, j, c: te.max((y[n, i, j, c] - m[c]) * te.rsqrt(v[c] + EPS) * g[c] + b[c], 0.0),
                      name="T_bn_relu")


def _nhwc_bn_relu_ref(p, X, W, g, b, m, v):
    y = refs.conv(X.transpose(0, 3, 1, 2), W.transpose(3, 2, 0, 1), p["s"], _ref_pad(p))
    return np.maximum(_bn_np(y, g, b, m, v), 0.0).transpose(0, 2, 3, 1)


def _residual_relu(p, X, W, b, R):
    y = _conv(X, W, p)
    return te.compute(y.shape, lambda n, c, i, j: te.max(y[n, c, i, j] + b[c] + R[n, c, i, j], 0.0), name="T_add_relu")


def _ds_bn(p, X, Wd, gd, bd, md, vd, Wp, gp, bp, mp, vp):
    d = _act_te(_bn_te(_conv(X, Wd, p, groups=p["c"]), gd, bd, md, vd, "T_dw_bn"), _relu, "T_dw_relu")
    return _act_te(_bn_te(_conv(d, Wp, p, stride=1, pad=(0, 0, 0, 0)), gp, bp, mp, vp, "T_pw_bn"), _relu, "T_pw_relu")


def _ds_bn_ref(p, X, Wd, gd, bd, md, vd, Wp, gp, bp, mp, vp):
    d = np.maximum(_bn_np(_conv_np(X, Wd, p, groups=p["c"]), gd, bd, md, vd), 0.0)
    return np.maximum(_bn_np(refs.conv(d, Wp), gp, bp, mp, vp), 0.0)


def _inverted_residual(p, X, We, be, Wd, bd, Wp, bp):
    e = _act_bias(_conv(X, We, p, 1, (0,) * 4), be, _relu6, "T_expand")
    d = _act_bias(_conv(e, Wd, p, 1, (1,) * 4, groups=p["c"] * p["t"]), bd, _relu6, "T_depthwise")
    y = _conv(d, Wp, p, 1, (0,) * 4)
    return te.compute(y.shape, lambda n, c, i, j: y[n, c, i, j] + bp[c] + X[n, c, i, j], name="T_project_residual")


def _act_bias(y, b, act, name):
    return te.compute(y.shape, lambda n, c, i, j: act(y[n, c, i, j] + b[c]), name=name)


def _inverted_residual_ref(p, X, We, be, Wd, bd, Wp, bp):
    e = np.clip(_bias_np(refs.conv(X, We), be), 0, 6)
    d = np.clip(_bias_np(refs.conv(e, Wd, 1, 1, 1, p["c"] * p["t"]), bd), 0, 6)
    return _bias_np(refs.conv(d, Wp), bp) + X


def _se(p, X, W1, b1, W2, b2):
    n, c, h, w = p["n"], p["c"], p["h"], p["w"]
    ry, rx = te.reduce_axis((0, h), "ry"), te.reduce_axis((0, w), "rx")
    s = te.compute((n, c), lambda a, k: te.sum(X[a, k, ry, rx], axis=[ry, rx]), name="T_squeeze")
    k1 = te.reduce_axis((0, c), "k1")
    z = te.compute((n, p["r"]), lambda a, j: te.sum(s[a, k1] * (1.0 / (h * w)) * W1[j, k1], axis=k1), name="T_fc1")
    k2 = te.reduce_axis((0, p["r"]), "k2")
    g = te.compute((n, c), lambda a, k: te.sum(te.max(z[a, k2] + b1[k2], 0.0) * W2[k, k2], axis=k2), name="T_fc2")
    return te.compute(X.shape, lambda a, k, i, j: X[a, k, i, j] / (1.0 + te.exp(-(g[a, k] + b2[k]))), name="T_excite")


def _se_ref(p, X, W1, b1, W2, b2):
    s = X.mean(axis=(2, 3))
    g = refs.sigmoid(np.maximum(s @ W1.T + b1, 0.0) @ W2.T + b2)
    return X * g[:, :, None, None]


def _conv_relu_maxpool(p, X, W, b):
    y = _bias_act(p, X, W, b, _relu, "T_bias_relu", 1)
    return topi.nn.pool2d(y, (2, 2), (2, 2), (1, 1), (0, 0, 0, 0), "max")


def _conv_relu_maxpool_ref(p, X, W, b):
    return refs.pool(np.maximum(_bias_np(_conv_np(X, W, p), b), 0.0), 2, 2, 0, "max")


def _basic_block(p, X, W1, g1, b1, m1, v1, W2, g2, b2, m2, v2):
    y = _act_te(_bn_te(_conv(X, W1, p), g1, b1, m1, v1, "T_bn1"), _relu, "T_relu1")
    z = _bn_te(_conv(y, W2, p), g2, b2, m2, v2, "T_bn2")
    return te.compute(z.shape, lambda *i: te.max(z(*i) + X(*i), 0.0), name="T_add_relu")


def _basic_block_ref(p, X, W1, g1, b1, m1, v1, W2, g2, b2, m2, v2):
    y = np.maximum(_bn_np(_conv_np(X, W1, p), g1, b1, m1, v1), 0.0)
    return np.maximum(_bn_np(_conv_np(y, W2, p), g2, b2, m2, v2) + X, 0.0)


def _bottleneck(p, X, W1, b1, W2, b2, W3, b3):
    y = _act_bias(_conv(X, W1, p, 1, (0,) * 4), b1, _relu, "T_reduce")
    z = _act_bias(_conv(y, W2, p, 1, (1,) * 4), b2, _relu, "T_conv3x3")
    u = _conv(z, W3, p, 1, (0,) * 4)
    return te.compute(u.shape, lambda n, c, i, j: te.max(u[n, c, i, j] + b3[c] + X[n, c, i, j], 0.0),
                      name="T_expand_add_relu")


def _bottleneck_ref(p, X, W1, b1, W2, b2, W3, b3):
    y = np.maximum(_bias_np(refs.conv(X, W1), b1), 0.0)
    z = np.maximum(_bias_np(refs.conv(y, W2, 1, 1), b2), 0.0)
    return np.maximum(_bias_np(refs.conv(z, W3), b3) + X, 0.0)


def _fire(p, X, Ws, bs, We1, be1, We3, be3):
    s = _act_bias(_conv(X, Ws, p, 1, (0,) * 4), bs, _relu, "T_squeeze")
    e1 = _act_bias(_conv(s, We1, p, 1, (0,) * 4), be1, _relu, "T_expand1x1")
    e3 = _act_bias(_conv(s, We3, p, 1, (1,) * 4), be3, _relu, "T_expand3x3")
    return topi.concatenate((e1, e3), axis=1)


def _fire_ref(p, X, Ws, bs, We1, be1, We3, be3):
    s = np.maximum(_bias_np(refs.conv(X, Ws), bs), 0.0)
    return np.concatenate([np.maximum(_bias_np(refs.conv(s, We1), be1), 0.0),
                           np.maximum(_bias_np(refs.conv(s, We3, 1, 1), be3), 0.0)], axis=1)


def _ghost(p, X, Wp, bp, Wc, bc):
    y = _act_bias(_conv(X, Wp, p, 1, (0,) * 4), bp, _relu, "T_primary")
    z = _act_bias(_conv(y, Wc, p, 1, (1,) * 4, groups=p["k"] // 2), bc, _relu, "T_cheap")
    return topi.concatenate((y, z), axis=1)


def _ghost_ref(p, X, Wp, bp, Wc, bc):
    y = np.maximum(_bias_np(refs.conv(X, Wp), bp), 0.0)
    return np.concatenate([y, np.maximum(_bias_np(refs.conv(y, Wc, 1, 1, 1, p["k"] // 2), bc), 0.0)], axis=1)


def _deconv_relu(p, X, W, b):
    y = topi.nn.conv2d_transpose_nchw(X, W, (2, 2), (0, 0, 0, 0), "float32", (0, 0))
    return te.compute(y.shape, lambda n, c, i, j: te.max(y[n, c, i, j] + b[c], 0.0), name="T_bias_relu")


def _upsample_conv(p, X, W, b):
    up = te.compute((p["n"], p["c"], 2 * p["h"], 2 * p["w"]), lambda n, c, i, j: X[n, c, i // 2, j // 2],
                    name="T_upsample")
    y = topi.nn.conv2d_nchw(up, W, 1, 1, 1)
    return te.compute(y.shape, lambda n, c, i, j: te.max(y[n, c, i, j] + b[c], 0.0), name="T_bias_relu")


def _upsample_conv_ref(p, X, W, b):
    up = X.repeat(2, axis=2).repeat(2, axis=3)
    return np.maximum(_bias_np(refs.conv(up, W, 1, 1), b), 0.0)


def _concat_conv(p, A, B, W, b):
    cat = topi.concatenate((A, B), axis=1)
    y = topi.nn.conv2d_nchw(cat, W, 1, 1, 1)
    return te.compute(y.shape, lambda n, c, i, j: te.max(y[n, c, i, j] + b[c], 0.0), name="T_bias_relu")


def _concat_conv_ref(p, A, B, W, b):
    return np.maximum(_bias_np(refs.conv(np.concatenate([A, B], axis=1), W, 1, 1), b), 0.0)


def _head(p, X, W, b):
    n, c, h, w = p["n"], p["c"], p["h"], p["w"]
    ry, rx = te.reduce_axis((0, h), "ry"), te.reduce_axis((0, w), "rx")
    s = te.compute((n, c), lambda a, k: te.sum(X[a, k, ry, rx], axis=[ry, rx]), name="T_pool")
    kk = te.reduce_axis((0, c), "kk")
    logits = te.compute((n, p["k"]), lambda a, j: te.sum(s[a, kk] * (1.0 / (h * w)) * W[j, kk], axis=kk),
                        name="T_dense")
    z = te.compute(logits.shape, lambda a, j: logits[a, j] + b[j], name="T_logits")
    return topi.nn.softmax(z, axis=-1)


def _head_ref(p, X, W, b):
    return refs.softmax(X.mean(axis=(2, 3)) @ W.T + b)


def _conv1d_bias_relu(p, X, W, b):
    y = topi.nn.conv1d_ncw(X, W, 1, p["r"] // 2, 1)
    return te.compute(y.shape, lambda n, c, t: te.max(y[n, c, t] + b[c], 0.0), name="T_bias_relu")


def _tcn_block(p, X, W1, b1, W2, b2):
    y = topi.nn.conv1d(X, W1, 1, ((p["r"] - 1) * p["d"], 0), p["d"], 1, "NCW")
    y = te.compute(y.shape, lambda n, c, t: te.max(y[n, c, t] + b1[c], 0.0), name="T_relu1")
    z = topi.nn.conv1d(y, W2, 1, ((p["r"] - 1) * p["d"], 0), p["d"], 1, "NCW")
    return te.compute(z.shape, lambda n, c, t: te.max(te.max(z[n, c, t] + b2[c], 0.0) + X[n, c, t], 0.0),
                      name="T_residual_relu")


def _tcn_ref(p, X, W1, b1, W2, b2):
    pad = [((p["r"] - 1) * p["d"], 0)]
    y = np.maximum(refs.conv(X, W1, 1, pad, p["d"]) + b1[None, :, None], 0.0)
    z = np.maximum(refs.conv(y, W2, 1, pad, p["d"]) + b2[None, :, None], 0.0)
    return np.maximum(z + X, 0.0)


def _wavenet(p, X, Wf, Wg, Wr):
    pad = ((p["r"] - 1) * p["d"], 0)
    f = topi.nn.conv1d(X, Wf, 1, pad, p["d"], 1, "NCW")
    g = topi.nn.conv1d(X, Wg, 1, pad, p["d"], 1, "NCW")
    z = te.compute(f.shape, lambda *i: te.tanh(f(*i)) / (1.0 + te.exp(-g(*i))), name="T_gate")
    r = topi.nn.conv1d_ncw(z, Wr, 1, 0, 1)
    return te.compute(r.shape, lambda *i: r(*i) + X(*i), name="T_residual")


def _wavenet_ref(p, X, Wf, Wg, Wr):
    pad = [((p["r"] - 1) * p["d"], 0)]
    z = np.tanh(refs.conv(X, Wf, 1, pad, p["d"])) * refs.sigmoid(refs.conv(X, Wg, 1, pad, p["d"]))
    return refs.conv(z, Wr) + X


def _sep1d(p, X, Wd, Wp, g, b, m, v):
    d = topi.nn.conv1d(X, Wd, 1, p["r"] // 2, 1, p["c"], "NCW")
    y = topi.nn.conv1d_ncw(d, Wp, 1, 0, 1)
    return te.compute(y.shape, lambda n, c, t: te.max((y[n, c, t] - m[c]) * te.rsqrt(v[c] + EPS) * g[c] + b[c], 0.0),
                      name="T_bn_relu")


def _sep1d_ref(p, X, Wd, Wp, g, b, m, v):
    y = refs.conv(refs.conv(X, Wd, 1, p["r"] // 2, 1, p["c"]), Wp)
    return np.maximum(refs.batch_norm(y, g, b, m, v, EPS), 0.0)


def _downsample_block(p, X, W1, g1, b1, m1, v1, W2, g2, b2, m2, v2, Ws, bs):
    """ResNet-8's stride-2 stack: relu(BN2(conv3x3(relu(BN1(conv3x3_s2(X))))) + conv1x1_s2(X) + bs)."""
    y = _act_te(_bn_te(_conv(X, W1, p, 2, (0, 0, 1, 1)), g1, b1, m1, v1, "T_bn1"), _relu, "T_relu1")
    z = _bn_te(_conv(y, W2, p, 1, (1, 1, 1, 1)), g2, b2, m2, v2, "T_bn2")
    sc = _conv(X, Ws, p, 2, (0, 0, 0, 0))
    return te.compute(z.shape, lambda n, c, i, j: te.max(z[n, c, i, j] + sc[n, c, i, j] + bs[c], 0.0),
                      name="T_add_relu")


def _downsample_ref(p, X, W1, g1, b1, m1, v1, W2, g2, b2, m2, v2, Ws, bs):
    y = np.maximum(_bn_np(refs.conv(X, W1, 2, [(0, 1), (0, 1)]), g1, b1, m1, v1), 0.0)
    z = _bn_np(refs.conv(y, W2, 1, 1), g2, b2, m2, v2)
    return np.maximum(z + _bias_np(refs.conv(X, Ws, 2), bs), 0.0)


def _same1d(n, k, s):
    out = -(-n // s)
    total = max((out - 1) * s + k - n, 0)
    return total // 2, total - total // 2


def _bn1d_te(y, g, b, m, v, name):
    return te.compute(y.shape, lambda n, c, t: (y[n, c, t] - m[c]) * te.rsqrt(v[c] + EPS) * g[c] + b[c], name=name)


def _conv1d_bn_relu(p, X, W, g, b, m, v):
    y = topi.nn.conv1d(X, W, 1, _same1d(p["t"], p["r"], 1), 1, 1, "NCW")
    return _act_te(_bn1d_te(y, g, b, m, v, "T_bn"), _relu, "T_relu")


def _bn1d_np(y, g, b, m, v):
    return refs.batch_norm(y, g, b, m, v, EPS)


def _tc_block(p, X, Wd, gd, bd, md, vd, W0, g0, b0, m0, v0, W1, g1, b1, m1, v1):
    """TC-ResNet block: relu(BN(conv9(relu(BN(conv9_s2(X))))) + relu(BN(conv1_s2(X)))), no conv biases."""
    t = p["t"]
    down = _act_te(_bn1d_te(topi.nn.conv1d(X, Wd, 2, _same1d(t, 1, 2), 1, 1, "NCW"), gd, bd, md, vd, "T_bn_down"),
                   _relu, "T_relu_down")
    y = _act_te(_bn1d_te(topi.nn.conv1d(X, W0, 2, _same1d(t, 9, 2), 1, 1, "NCW"), g0, b0, m0, v0, "T_bn0"), _relu,
                "T_relu0")
    z = _bn1d_te(topi.nn.conv1d(y, W1, 1, _same1d(-(-t // 2), 9, 1), 1, 1, "NCW"), g1, b1, m1, v1, "T_bn1")
    return te.compute(z.shape, lambda *i: te.max(z(*i) + down(*i), 0.0), name="T_add_relu")


def _tc_block_ref(p, X, Wd, gd, bd, md, vd, W0, g0, b0, m0, v0, W1, g1, b1, m1, v1):
    t = p["t"]
    down = np.maximum(_bn1d_np(refs.conv(X, Wd, 2, [_same1d(t, 1, 2)]), gd, bd, md, vd), 0.0)
    y = np.maximum(_bn1d_np(refs.conv(X, W0, 2, [_same1d(t, 9, 2)]), g0, b0, m0, v0), 0.0)
    z = _bn1d_np(refs.conv(y, W1, 1, [_same1d(-(-t // 2), 9, 1)]), g1, b1, m1, v1)
    return np.maximum(z + down, 0.0)


def _w1d(name, k, c, r):
    return Tensor(name, (k, c, r), scale=(2.0 / (c * r)) ** 0.5)


# --- patterns ------------------------------------------------------------------------------------

def _pattern(name, summary, inputs, compute, reference, flops, workloads, domains=("vision",)):
    return OpPattern(id=f"conv-block/{name}", family="conv-block", level="L2", domains=domains, summary=summary,
                     inputs=stored_inputs(inputs), compute=in_float32(compute), reference=reference, vendor=None,
                     flops=flops, workloads=workloads)


def _std_flops(p, groups=1, k=None):
    oh, ow = _oh_ow(p)
    return _conv_flops(p, p["c"], k or p["k"], p["r"], oh, ow, groups) + 4 * p["n"] * (k or p["k"]) * oh * ow


def _conv_bn_inputs(p, groups=1, k=None):
    k = k or p["k"]
    return [_x(p), _w("W", k, p["c"], p["r"], groups)] + _bn_vectors("bn_", k)


def _conv_bias_inputs(p, groups=1, k=None):
    k = k or p["k"]
    return [_x(p), _w("W", k, p["c"], p["r"], groups), _vec("b", k)]


_relu_np = lambda x: np.maximum(x, 0.0)  # noqa: E731

PATTERNS = [
    _pattern("conv2d-bn-relu", "Y = relu(BN(conv2d(X, W))) (explicit BatchNorm; the layer of ResNet-8 and VWW)",
             _conv_bn_inputs, *_conv_bn_act(_relu, _relu_np, "T_relu"), _std_flops,
             [wl(n=1, c=3, h=32, w=32, k=16, r=3, s=1, p=1),                  # ResNet-8 stem
              wl(n=1, c=16, h=32, w=32, k=32, r=3, s=2, p=(0, 0, 1, 1)),
              wl(n=1, c=3, h=96, w=96, k=8, r=3, s=2, p=(0, 0, 1, 1)),           # MobileNetV1-VWW stem
              wl(n=1, c=1, h=49, w=10, k=64, r=(10, 4), s=2, p=(4, 1, 5, 1), domains=("audio",)),  # DS-CNN stem
              wl(n=1, c=64, h=25, w=5, k=64, r=1, s=1, p=0, domains=("audio",)),
              wl(n=1, c=3, h=32, w=32, k=16, r=3, s=1, p=1, dtype="float16"),   # the float16 graphs' stems
              wl(n=1, c=1, h=49, w=10, k=64, r=(10, 4), s=2, p=(4, 1, 5, 1), dtype="float16", domains=("audio",)),
              wl(n=1, c=3, h=32, w=32, k=16, r=3, s=1, p=1, dtype="bfloat16"),  # the bfloat16 graphs' stems
              wl(n=1, c=1, h=49, w=10, k=64, r=(10, 4), s=2, p=(4, 1, 5, 1), dtype="bfloat16", domains=("audio",)),
              wl(n=1, c=16, h=32, w=32, k=32, r=3, s=2, p=(0, 0, 1, 1), dtype="float16"),
              wl(n=1, c=16, h=32, w=32, k=32, r=3, s=2, p=(0, 0, 1, 1), dtype="bfloat16"),
              wl(n=1, c=3, h=96, w=96, k=8, r=3, s=2, p=(0, 0, 1, 1), dtype="float16"),
              wl(n=1, c=64, h=25, w=5, k=64, r=1, s=1, p=0, dtype="float16", domains=("audio",))]),
    _pattern("conv2d-bias-relu6", "Y = relu6(conv2d(X, W) + b) (MobileNetV2, folded BN)",
             _conv_bias_inputs, *_conv_bias_act(_relu6, lambda x: np.clip(x, 0, 6), "T_bias_relu6"), _std_flops,
             [wl(n=1, c=3, h=224, w=224, k=32, r=3, s=2, p=(0, 0, 1, 1)),
              wl(n=1, c=24, h=56, w=56, k=144, r=1, s=1, p=0)]),
    _pattern("conv2d-bn-relu-nhwc", "Y = relu(BN(conv2d_nhwc(X, W))) (channels-last, HWIO weights)",
             lambda p: [Tensor("X", (p["n"], p["h"], p["w"], p["c"])),
                        Tensor("W", (p["r"], p["r"], p["c"], p["k"]), scale=(2.0 / (p["c"] * p["r"] ** 2)) ** 0.5)]
             + _bn_vectors("bn_", p["k"]),
             _nhwc_bn_relu, _nhwc_bn_relu_ref, _std_flops,
             [wl(n=1, h=96, w=96, c=3, k=8, r=3, s=2, p=(0, 0, 1, 1)), wl(n=1, h=24, w=24, c=32, k=64, r=1, s=1, p=0)]),
    _pattern("conv2d-bias-add-relu", "Y = relu(conv2d(X, W) + b + R) (residual add inside the conv epilogue)",
             lambda p: _conv_bias_inputs(p) + [Tensor("R", (p["n"], p["k"], p["h"], p["w"]))],
             _residual_relu, lambda p, X, W, b, R: np.maximum(_bias_np(_conv_np(X, W, p), b) + R, 0.0), _std_flops,
             [wl(n=1, c=64, h=56, w=56, k=64, r=3, s=1, p=1), wl(n=1, c=32, h=16, w=16, k=32, r=3, s=1, p=1)]),
    _pattern("depthwise-bn-relu", "Y = relu(BN(depthwise_conv2d(X, W))) (the depthwise layer of DS-CNN / MobileNetV1)",
             lambda p: _conv_bn_inputs(p, p["c"], p["c"]),
             *_conv_bn_act(_relu, _relu_np, "T_relu", groups=lambda p: p["c"]),
             lambda p: _std_flops(p, p["c"], p["c"]),
             [wl(n=1, c=64, h=25, w=5, r=3, s=1, p=1, domains=("audio",)),
              wl(n=1, c=16, h=48, w=48, r=3, s=2, p=(0, 0, 1, 1)),
              wl(n=1, c=64, h=25, w=5, r=3, s=1, p=1, dtype="float16", domains=("audio",))]),
    _pattern("depthwise-bias-relu6", "Y = relu6(depthwise_conv2d(X, W) + b) (MobileNetV2 depthwise, folded BN)",
             lambda p: _conv_bias_inputs(p, p["c"], p["c"]),
             *_conv_bias_act(_relu6, lambda x: np.clip(x, 0, 6), "T_bias_relu6", groups=lambda p: p["c"]),
             lambda p: _std_flops(p, p["c"], p["c"]),
             [wl(n=1, c=144, h=56, w=56, r=3, s=2, p=(0, 0, 1, 1)), wl(n=1, c=384, h=14, w=14, r=3, s=1, p=1)]),
    _pattern("depthwise-separable-bn",
             "Y = relu(BN(conv1x1(relu(BN(dwconv3x3(X, stride)))))) (DS-CNN / MobileNetV1 block)",
             lambda p: [_x(p), _w("Wd", p["c"], p["c"], 3, p["c"])] + _bn_vectors("dw_", p["c"])
             + [_w("Wp", p["k"], p["c"], 1)] + _bn_vectors("pw_", p["k"]),
             _ds_bn, _ds_bn_ref,
             lambda p: _std_flops(dict(p, r=3), p["c"], p["c"]) + _conv_flops(p, p["c"], p["k"], 1, *_oh_ow(p, 3)),
             [wl(n=1, c=64, h=25, w=5, k=64, s=1, p=1, domains=("audio",)),   # DS-CNN blocks
              wl(n=1, c=64, h=25, w=5, k=64, s=1, p=1, dtype="float16", domains=("audio",)),
              wl(n=1, c=64, h=25, w=5, k=64, s=1, p=1, dtype="bfloat16", domains=("audio",)),
              # the 13 blocks of MobileNetV1 x0.25 at 96 x 96 (VWW), 9 distinct shapes
              wl(n=1, c=8, h=48, w=48, k=16, s=1, p=1), wl(n=1, c=16, h=48, w=48, k=32, s=2, p=(0, 0, 1, 1)),
              wl(n=1, c=32, h=24, w=24, k=32, s=1, p=1), wl(n=1, c=32, h=24, w=24, k=64, s=2, p=(0, 0, 1, 1)),
              wl(n=1, c=64, h=12, w=12, k=64, s=1, p=1), wl(n=1, c=64, h=12, w=12, k=128, s=2, p=(0, 0, 1, 1)),
              wl(n=1, c=128, h=6, w=6, k=128, s=1, p=1), wl(n=1, c=128, h=6, w=6, k=256, s=2, p=(0, 0, 1, 1)),
              wl(n=1, c=256, h=3, w=3, k=256, s=1, p=1),
              # the float16 twins of the MobileNetV1-VWW blocks
              wl(n=1, c=8, h=48, w=48, k=16, s=1, p=1, dtype="float16"),
              wl(n=1, c=16, h=48, w=48, k=32, s=2, p=(0, 0, 1, 1), dtype="float16"),
              wl(n=1, c=32, h=24, w=24, k=32, s=1, p=1, dtype="float16"),
              wl(n=1, c=32, h=24, w=24, k=64, s=2, p=(0, 0, 1, 1), dtype="float16"),
              wl(n=1, c=64, h=12, w=12, k=64, s=1, p=1, dtype="float16"),
              wl(n=1, c=128, h=6, w=6, k=128, s=1, p=1, dtype="float16"),
              # MobileNetV1 blocks at 224 x 224 (width 1.0), from the retired
              # fused/depthwise-separable
              wl(n=1, c=32, h=56, w=56, k=64, s=1, p=1), wl(n=1, c=128, h=28, w=28, k=128, s=1, p=1)]),
    _pattern("inverted-residual",
             "Y = X + conv1x1(relu6(dw3x3(relu6(conv1x1(X) + be)) + bd)) + bp (MobileNetV2, stride 1)",
             lambda p: [_x(p), _w("We", p["c"] * p["t"], p["c"], 1), _vec("be", p["c"] * p["t"]),
                        _w("Wd", p["c"] * p["t"], p["c"] * p["t"], 3, p["c"] * p["t"]), _vec("bd", p["c"] * p["t"]),
                        _w("Wp", p["c"], p["c"] * p["t"], 1), _vec("bp", p["c"])],
             _inverted_residual, _inverted_residual_ref,
             lambda p: 2 * p["h"] * p["w"] * p["c"] * p["t"] * (2 * p["c"] + 9),
             [wl(n=1, c=24, h=56, w=56, t=6), wl(n=1, c=32, h=28, w=28, t=6)]),
    _pattern("squeeze-excite", "Y = X * sigmoid(W2 relu(W1 mean_hw(X) + b1) + b2) (channel attention gate)",
             lambda p: [_x(p), Tensor("W1", (p["r"], p["c"]), scale=(1.0 / p["c"]) ** 0.5), _vec("b1", p["r"]),
                        Tensor("W2", (p["c"], p["r"]), scale=(1.0 / p["r"]) ** 0.5), _vec("b2", p["c"])],
             _se, _se_ref, lambda p: p["n"] * (p["c"] * p["h"] * p["w"] * 2 + 4 * p["c"] * p["r"]),
             [wl(n=1, c=96, h=28, w=28, r=24), wl(n=1, c=576, h=7, w=7, r=144)]),
    _pattern("conv2d-relu-maxpool", "Y = maxpool2x2(relu(conv2d(X, W) + b)) (classic CNN stage)",
             _conv_bias_inputs, _conv_relu_maxpool, _conv_relu_maxpool_ref, _std_flops,
             [wl(n=1, c=3, h=64, w=64, k=16, r=3, s=1, p=1), wl(n=1, c=16, h=32, w=32, k=32, r=3, s=1, p=1)]),
    _pattern("conv2d-bias-hardswish", "Y = hardswish(conv2d(X, W) + b) (MobileNetV3)",
             _conv_bias_inputs, *_conv_bias_act(_hswish, _hswish_np, "T_bias_hardswish"), _std_flops,
             [wl(n=1, c=3, h=224, w=224, k=16, r=3, s=2, p=(0, 0, 1, 1)),
              wl(n=1, c=40, h=14, w=14, k=240, r=1, s=1, p=0)]),
    _pattern("conv2d-bn-silu", "Y = silu(BN(conv2d(X, W))) (EfficientNet, YOLOv5/v8)",
             _conv_bn_inputs, *_conv_bn_act(_silu, refs.silu, "T_silu"), _std_flops,
             [wl(n=1, c=32, h=40, w=40, k=64, r=3, s=2, p=1), wl(n=1, c=16, h=80, w=80, k=32, r=3, s=1, p=1)]),
    _pattern("conv2d-bias-leaky-relu", "Y = leaky_relu(conv2d(X, W) + b, 0.1) (YOLO-tiny)",
             _conv_bias_inputs, *_conv_bias_act(lambda x: te.if_then_else(x > 0.0, x, 0.1 * x),
                                                lambda x: np.where(x > 0, x, 0.1 * x), "T_bias_leaky_relu"), _std_flops,
             [wl(n=1, c=16, h=104, w=104, k=32, r=3, s=1, p=1), wl(n=1, c=128, h=13, w=13, k=256, r=3, s=1, p=1)]),
    _pattern("resnet-basic-block",
             "Y = relu(BN2(conv3x3(relu(BN1(conv3x3(X))))) + X) (ResNet basic block, identity shortcut)",
             lambda p: [_x(p), _w("W1", p["c"], p["c"], 3)] + _bn_vectors("bn1_", p["c"])
             + [_w("W2", p["c"], p["c"], 3)] + _bn_vectors("bn2_", p["c"]),
             _basic_block, _basic_block_ref, lambda p: 2 * _conv_flops(p, p["c"], p["c"], 3, p["h"], p["w"]),
             [wl(n=1, c=16, h=32, w=32, p=1), wl(n=1, c=64, h=56, w=56, p=1),
              wl(n=1, c=16, h=32, w=32, p=1, dtype="float16"), wl(n=1, c=16, h=32, w=32, p=1, dtype="bfloat16")]),
    _pattern("resnet-downsample-block",
             "Y = relu(BN2(conv3x3(relu(BN1(conv3x3_s2(X))))) + conv1x1_s2(X) + bs) (ResNet-8 stride-2 stack)",
             lambda p: [_x(p), _w("W1", p["k"], p["c"], 3)] + _bn_vectors("bn1_", p["k"])
             + [_w("W2", p["k"], p["k"], 3)] + _bn_vectors("bn2_", p["k"]) + [_w("Ws", p["k"], p["c"], 1),
                                                                              _vec("bs", p["k"])],
             _downsample_block, _downsample_ref,
             lambda p: 2 * (p["h"] // 2) * (p["w"] // 2) * p["k"] * (9 * p["c"] + 9 * p["k"] + p["c"]),
             [wl(n=1, c=16, h=32, w=32, k=32), wl(n=1, c=32, h=16, w=16, k=64),
              wl(n=1, c=16, h=32, w=32, k=32, dtype="float16"), wl(n=1, c=32, h=16, w=16, k=64, dtype="float16"),
              wl(n=1, c=16, h=32, w=32, k=32, dtype="bfloat16"), wl(n=1, c=32, h=16, w=16, k=64, dtype="bfloat16")]),
    _pattern("resnet-bottleneck", "Y = relu(conv1x1(relu(conv3x3(relu(conv1x1(X) + b1)) + b2)) + b3 + X) (bottleneck)",
             lambda p: [_x(p), _w("W1", p["m"], p["c"], 1), _vec("b1", p["m"]), _w("W2", p["m"], p["m"], 3),
                        _vec("b2", p["m"]),
                        _w("W3", p["c"], p["m"], 1), _vec("b3", p["c"])],
             _bottleneck, _bottleneck_ref, lambda p: 2 * p["h"] * p["w"] * p["m"] * (2 * p["c"] + 9 * p["m"]),
             [wl(n=1, c=256, h=14, w=14, m=64), wl(n=1, c=128, h=28, w=28, m=32)]),
    _pattern("fire-module", "Y = [relu(e1x1(s)) | relu(e3x3(s))], s = relu(squeeze1x1(X)) (SqueezeNet)",
             lambda p: [_x(p), _w("Ws", p["q"], p["c"], 1), _vec("bs", p["q"]), _w("We1", p["e"], p["q"], 1),
                        _vec("be1", p["e"]),
                        _w("We3", p["e"], p["q"], 3), _vec("be3", p["e"])],
             _fire, _fire_ref, lambda p: 2 * p["h"] * p["w"] * (p["c"] * p["q"] + 10 * p["q"] * p["e"]),
             [wl(n=1, c=96, h=55, w=55, q=16, e=64), wl(n=1, c=256, h=13, w=13, q=48, e=192)]),
    _pattern("ghost-module", "Y = [y | relu(dw3x3(y))], y = relu(conv1x1(X)) (GhostNet: half the maps from a cheap op)",
             lambda p: [_x(p), _w("Wp", p["k"] // 2, p["c"], 1), _vec("bp", p["k"] // 2),
                        _w("Wc", p["k"] // 2, p["k"] // 2, 3, p["k"] // 2), _vec("bc", p["k"] // 2)],
             _ghost, _ghost_ref, lambda p: p["h"] * p["w"] * p["k"] * (p["c"] + 9),
             [wl(n=1, c=16, h=112, w=112, k=16), wl(n=1, c=40, h=28, w=28, k=120)]),
    _pattern("conv-transpose-bias-relu",
             "Y = relu(conv2d_transpose(X, W, stride 2, 2 x 2) + b) (U-Net decoder upsampling)",
             lambda p: [_x(p), Tensor("W", (p["c"], p["k"], 2, 2), scale=(1.0 / p["c"]) ** 0.5), _vec("b", p["k"])],
             _deconv_relu, lambda p, X, W, b: np.maximum(_bias_np(refs.conv_transpose(X, W, 2), b), 0.0),
             lambda p: 8 * p["n"] * p["c"] * p["k"] * p["h"] * p["w"],
             [wl(n=1, c=64, h=16, w=16, k=32), wl(n=1, c=128, h=8, w=8, k=64)]),
    _pattern("upsample-conv", "Y = relu(conv3x3(upsample_nearest_2x(X)) + b) (decoder / FPN upsampling)",
             lambda p: [_x(p), _w("W", p["k"], p["c"], 3), _vec("b", p["k"])],
             _upsample_conv, _upsample_conv_ref, lambda p: 2 * p["n"] * p["k"] * 4 * p["h"] * p["w"] * p["c"] * 9,
             [wl(n=1, c=64, h=16, w=16, k=32), wl(n=1, c=32, h=32, w=32, k=16)]),
    _pattern("concat-conv", "Y = relu(conv3x3([A | B]) + b) (U-Net skip connection: concatenate, then conv)",
             lambda p: [Tensor("A", (p["n"], p["a"], p["h"], p["w"])), Tensor("B", (p["n"], p["b"], p["h"], p["w"])),
                        _w("W", p["k"], p["a"] + p["b"], 3), _vec("b", p["k"])],
             _concat_conv, _concat_conv_ref, lambda p: 2 * p["n"] * p["k"] * p["h"] * p["w"] * (p["a"] + p["b"]) * 9,
             [wl(n=1, a=32, b=32, h=32, w=32, k=32), wl(n=1, a=16, b=16, h=64, w=64, k=16)]),
    _pattern("classifier-head", "Y = softmax(mean_hw(X) W^T + b) (global average pool, dense, softmax)",
             lambda p: [_x(p), Tensor("W", (p["k"], p["c"]), scale=(1.0 / p["c"]) ** 0.5), _vec("b", p["k"])],
             _head, _head_ref, lambda p: p["n"] * (p["c"] * p["h"] * p["w"] + 2 * p["c"] * p["k"] + 5 * p["k"]),
             [wl(n=1, c=256, h=3, w=3, k=2), wl(n=1, c=64, h=8, w=8, k=10), wl(n=1, c=1024, h=7, w=7, k=1000),
              wl(n=1, c=64, h=25, w=5, k=12, domains=("audio",)), wl(n=1, c=64, h=8, w=8, k=10, dtype="float16"),
              wl(n=1, c=64, h=25, w=5, k=12, dtype="float16", domains=("audio",)),
              wl(n=1, c=256, h=3, w=3, k=2, dtype="float16"), wl(n=1, c=64, h=8, w=8, k=10, dtype="bfloat16"),
              wl(n=1, c=64, h=25, w=5, k=12, dtype="bfloat16", domains=("audio",))]),
    _pattern("conv1d-bias-relu", "Y = relu(conv1d(X, W, 'same') + b) (temporal conv net layer)",
             lambda p: [Tensor("X", (p["n"], p["c"], p["t"])),
                        Tensor("W", (p["k"], p["c"], p["r"]), scale=(2.0 / (p["c"] * p["r"])) ** 0.5),
                        _vec("b", p["k"])],
             _conv1d_bias_relu, lambda p, X, W, b: np.maximum(refs.conv(X, W, 1, p["r"] // 2) + b[None, :, None], 0.0),
             lambda p: 2 * p["n"] * p["k"] * p["t"] * p["c"] * p["r"],
             [wl(n=1, c=40, t=98, k=64, r=3), wl(n=1, c=64, t=500, k=64, r=5)], domains=("audio", "signal-processing")),
    _pattern("conv1d-bn-relu", "Y = relu(BN(conv1d(X, W, 'same'))) (bias-free conv, as TF-slim layers)",
             lambda p: [Tensor("X", (p["n"], p["c"], p["t"])), _w1d("W", p["k"], p["c"], p["r"])]
             + _bn_vectors("bn_", p["k"]),
             _conv1d_bn_relu,
             lambda p, X, W, g, b, m, v: np.maximum(_bn1d_np(refs.conv(X, W, 1, [_same1d(p["t"], p["r"], 1)]),
                                                             g, b, m, v), 0.0),
             lambda p: 2 * p["n"] * p["k"] * p["t"] * p["c"] * p["r"] + 4 * p["n"] * p["k"] * p["t"],
             [wl(n=1, c=40, t=98, k=16, r=3), wl(n=1, c=64, t=200, k=64, r=5)], domains=("audio", "signal-processing")),
    _pattern("tc-resnet-block", "Y = relu(BN(conv9(relu(BN(conv9_s2(X))))) + relu(BN(conv1_s2(X)))) (TC-ResNet block)",
             lambda p: [Tensor("X", (p["n"], p["c"], p["t"])), _w1d("Wd", p["k"], p["c"], 1)]
             + _bn_vectors("bnd_", p["k"])
             + [_w1d("W0", p["k"], p["c"], 9)] + _bn_vectors("bn0_", p["k"]) + [_w1d("W1", p["k"], p["k"], 9)]
             + _bn_vectors("bn1_", p["k"]),
             _tc_block, _tc_block_ref, lambda p: 2 * -(-p["t"] // 2) * p["k"] * (10 * p["c"] + 9 * p["k"]),
             [wl(n=1, c=16, t=98, k=24), wl(n=1, c=24, t=49, k=32), wl(n=1, c=32, t=25, k=48)], domains=("audio",)),
    _pattern("tcn-block", "Y = relu(X + relu(cconv(relu(cconv(X) + b1)) + b2)), cconv causal dilated (Bai et al. TCN)",
             lambda p: [Tensor("X", (p["n"], p["c"], p["t"])),
                        Tensor("W1", (p["c"], p["c"], p["r"]), scale=(2.0 / (p["c"] * p["r"])) ** 0.5),
                        _vec("b1", p["c"]),
                        Tensor("W2", (p["c"], p["c"], p["r"]), scale=(2.0 / (p["c"] * p["r"])) ** 0.5),
                        _vec("b2", p["c"])],
             _tcn_block, _tcn_ref, lambda p: 4 * p["n"] * p["c"] * p["c"] * p["t"] * p["r"],
             [wl(n=1, c=64, t=1000, r=3, d=4), wl(n=1, c=32, t=4000, r=3, d=16, domains=("anomaly-detection",))],
             domains=("audio", "signal-processing")),
    _pattern("wavenet-gated", "Y = X + conv1x1(tanh(cconv_f(X)) * sigmoid(cconv_g(X))) (WaveNet gated residual unit)",
             lambda p: [Tensor("X", (p["n"], p["c"], p["t"])),
                        Tensor("Wf", (p["c"], p["c"], p["r"]), scale=(1.0 / (p["c"] * p["r"])) ** 0.5),
                        Tensor("Wg", (p["c"], p["c"], p["r"]), scale=(1.0 / (p["c"] * p["r"])) ** 0.5),
                        Tensor("Wr", (p["c"], p["c"], 1), scale=(1.0 / p["c"]) ** 0.5)],
             _wavenet, _wavenet_ref, lambda p: 2 * p["n"] * p["c"] * p["c"] * p["t"] * (2 * p["r"] + 1),
             [wl(n=1, c=32, t=2000, r=2, d=8), wl(n=1, c=64, t=1000, r=3, d=2)], domains=("audio",)),
    _pattern("separable-conv1d-bn", "Y = relu(BN(conv1x1(depthwise_conv1d(X)))) (MatchboxNet / QuartzNet sub-block)",
             lambda p: [Tensor("X", (p["n"], p["c"], p["t"])),
                        Tensor("Wd", (p["c"], 1, p["r"]), scale=(1.0 / p["r"]) ** 0.5),
                        Tensor("Wp", (p["k"], p["c"], 1), scale=(2.0 / p["c"]) ** 0.5)] + _bn_vectors("bn_", p["k"]),
             _sep1d, _sep1d_ref, lambda p: 2 * p["n"] * p["t"] * p["c"] * (p["r"] + p["k"]),
             [wl(n=1, c=64, t=128, k=64, r=13), wl(n=1, c=128, t=64, k=128, r=15)], domains=("audio",)),
]
