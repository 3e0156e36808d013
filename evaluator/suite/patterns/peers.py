"""Operators of peer benchmarks that no other pattern computes, at their published shapes.

TVM MetaSchedule's ``te_workload`` (the operators its tuning papers report): grouped and dilated
NHWC convolutions at ResNet-18's strides and paddings (GRP, DIL), the NHWC transposed convolution
of DCGAN (T2D), the capsule convolution of matrix capsules with EM routing (CAP), the Frobenius
norm of each matrix (NRM), an NHWC conv with bias, folded BatchNorm and ReLU (CBR) and the
attention scores of (batch, seq, head, dim) tensors (TBG) — each configuration as given, with its
source. Its configurations of operators the suite already had (C1D, C2D, C3D, GMM, DEP, SFM) are
workloads of those patterns.

KernelBench level 1 operators the suite lacked that an edge device runs: the losses of on-device
fine-tuning and scoring (mean squared error — the MLPerf Tiny anomaly score —, cross-entropy,
smooth L1, KL divergence, triplet margin) and two scans (reverse and masked cumulative sums), at
edge-sized shapes (KernelBench's own are datacenter batches of 32,768 rows).

Weights follow ``te_workload``'s layouts: HWIO for NHWC convolutions, (R, R, C, K) for the
transposed one (PyTorch's convention of which input feeds which output, read through those axes).
A loss is one value: the mean over its batch, as PyTorch's default reduction.
"""

import numpy as np
from tvm import te, topi

from evaluator.suite import refs
from evaluator.suite.base import OpPattern, Tensor
from evaluator.suite.declare import kernelbench, te_workload, wl
from evaluator.suite.heldout import ShapeSpace

MARGIN = 1.0  # triplet margin (PyTorch's default)
PAIR_EPS = 1e-6  # torch.pairwise_distance adds it to each difference


# --- te_workload: computes ---------------------------------------------------------------------

def _out(size, r, s, p, d=1):
    return (size + 2 * p - d * (r - 1) - 1) // s + 1


def _nhwc_ref(y_nchw):
    return y_nchw.transpose(0, 2, 3, 1)


def _grouped(p, X, W):
    return topi.nn.group_conv2d_nhwc(X, W, p["s"], p["p"], 1, p["g"], out_dtype="float32")


def _dilated(p, X, W):
    return topi.nn.conv2d_nhwc(X, W, p["s"], p["p"], p["d"], out_dtype="float32")


def _transpose_nhwc(p, X, W):
    """Y[n, y, x, k] = sum X[n, i, j, c] W[r, t, c, k] over y = i*s + r - p, x = j*s + t - p: the input
    dilated by the stride and padded by R - 1 - p, then correlated with the flipped kernel."""
    h, w, s, r = p["h"], p["w"], p["s"], p["r"]
    lo = r - 1 - p["p"]
    dh, dw = (h - 1) * s + 1 + 2 * lo, (w - 1) * s + 1 + 2 * lo

    def dilated(n, y, x, c):
        i, j = y - lo, x - lo
        inside = te.all(i >= 0, j >= 0, i % s == 0, j % s == 0, i < (h - 1) * s + 1, j < (w - 1) * s + 1)
        src = X[n, te.min(te.max(i, 0) // s, h - 1), te.min(te.max(j, 0) // s, w - 1), c]
        return te.if_then_else(inside, src, 0.0)
    xd = te.compute((p["n"], dh, dw, p["c"]), dilated, name="T_dilate_pad")
    ry, rx = te.reduce_axis((0, r), name="ry"), te.reduce_axis((0, r), name="rx")
    rc = te.reduce_axis((0, p["c"]), name="rc")
    return te.compute((p["n"], dh - r + 1, dw - r + 1, p["k"]),
                      lambda n, y, x, k: te.sum(xd[n, y + ry, x + rx, rc] * W[r - 1 - ry, r - 1 - rx, rc, k],
                                                axis=[ry, rx, rc]), name="T_conv2d_transpose_nhwc")


def _capsule(p, X, W):
    """Y[n, y, x, i, j, k] = sum_{r, t, q, c} X[n, y*s + r - p, x*s + t - p, i, q, c] W[r, t, q, j, c, k]."""
    pad, s, r, cap = p["p"], p["s"], p["r"], p["cap"]
    xp = topi.nn.pad(X, (0, pad, pad, 0, 0, 0), name="T_pad")
    oh, ow = _out(p["h"], r, s, pad), _out(p["w"], r, s, pad)
    ry, rx = te.reduce_axis((0, r), name="ry"), te.reduce_axis((0, r), name="rx")
    rq, rc = te.reduce_axis((0, cap), name="rq"), te.reduce_axis((0, p["c"]), name="rc")
    return te.compute((p["n"], oh, ow, cap, cap, p["k"]),
                      lambda n, y, x, i, j, k: te.sum(xp[n, y * s + ry, x * s + rx, i, rq, rc]
                                                      * W[ry, rx, rq, j, rc, k],
                                                      axis=[ry, rx, rq, rc]), name="T_conv2d_capsule")


def _capsule_ref(p, X, W):
    pad, s, r = p["p"], p["s"], p["r"]
    xp = np.pad(X, ((0, 0), (pad, pad), (pad, pad), (0, 0), (0, 0), (0, 0)))
    oh, ow = _out(p["h"], r, s, pad), _out(p["w"], r, s, pad)
    out = np.zeros((p["n"], oh, ow, p["cap"], p["cap"], p["k"]))
    for a in range(r):
        for b in range(r):
            win = xp[:, a:a + s * (oh - 1) + 1:s, b:b + s * (ow - 1) + 1:s]  # (n, oh, ow, i, q, c)
            out += np.einsum("nyxiqc,qjck->nyxijk", win, W[a, b])
    return out


def _frobenius(p, X):
    # row sums first: one float32 running sum over millions of squares (te_workload's single
    # reduction, built as TVM's default leaves it) drifts by 0.2 % from the exact norm
    j = te.reduce_axis((0, p["n"]), name="j")
    rows = te.compute((p["b"], p["m"]), lambda b, i: te.sum(X[b, i, j] * X[b, i, j], axis=j), name="T_row_sumsq")
    i = te.reduce_axis((0, p["m"]), name="i")
    ss = te.compute((p["b"],), lambda b: te.sum(rows[b, i], axis=i), name="T_sumsq")
    return te.compute((p["b"],), lambda b: te.sqrt(ss[b]), name="T_frobenius_norm")


def _cbr(p, X, W, bias, offset, scale):
    y = topi.nn.conv2d_nhwc(X, W, p["s"], p["p"], 1, out_dtype="float32")
    return te.compute(y.shape, lambda n, i, j, k: te.max((y[n, i, j, k] + bias[k]) * scale[k] + offset[k], 0.0),
                      name="T_bias_bn_relu")


def _cbr_ref(p, X, W, bias, offset, scale):
    y = refs.conv(X.transpose(0, 3, 1, 2), W.transpose(3, 2, 0, 1), p["s"], p["p"]).transpose(0, 2, 3, 1)
    return np.maximum((y + bias) * scale + offset, 0.0)


def _tbg(p, Q, K):
    d = te.reduce_axis((0, p["d"]), name="d")
    return te.compute((p["b"], p["h"], p["s"], p["s"]),
                      lambda b, h, i, j: te.sum(Q[b, i, h, d] * K[b, j, h, d], axis=d), name="T_scores")


# --- KernelBench: computes -------------------------------------------------------------------------

def _mean_of(total, count, name):
    return te.compute((1,), lambda _: total[0] * (1.0 / count), name=name)


def _mse(p, P, T):
    i, j = te.reduce_axis((0, p["m"]), name="i"), te.reduce_axis((0, p["n"]), name="j")
    s = te.compute((1,), lambda _: te.sum((P[i, j] - T[i, j]) * (P[i, j] - T[i, j]), axis=[i, j]), name="T_sse")
    return _mean_of(s, p["m"] * p["n"], "T_mse")


def _cross_entropy(p, X, t):
    c1, c2 = te.reduce_axis((0, p["c"]), name="c1"), te.reduce_axis((0, p["c"]), name="c2")
    mx = te.compute((p["b"],), lambda i: te.max(X[i, c1], axis=c1), name="T_max")
    se = te.compute((p["b"],), lambda i: te.sum(te.exp(X[i, c2] - mx[i]), axis=c2), name="T_sum_exp")
    b = te.reduce_axis((0, p["b"]), name="b")
    s = te.compute((1,), lambda _: te.sum(mx[b] + te.log(se[b]) - X[b, t[b]], axis=b), name="T_nll")
    return _mean_of(s, p["b"], "T_cross_entropy")


def _cross_entropy_ref(p, X, t):
    lse = np.log(np.exp(X - X.max(axis=1, keepdims=True)).sum(axis=1)) + X.max(axis=1)
    return np.array([np.mean(lse - X[np.arange(p["b"]), t])])


def _huber(p, P, T):
    i, j = te.reduce_axis((0, p["m"]), name="i"), te.reduce_axis((0, p["n"]), name="j")

    def term(a, b):
        d = te.abs(P[a, b] - T[a, b])
        return te.if_then_else(d < 1.0, 0.5 * d * d, d - 0.5)
    s = te.compute((1,), lambda _: te.sum(term(i, j), axis=[i, j]), name="T_huber_sum")
    return _mean_of(s, p["m"] * p["n"], "T_smooth_l1")


def _huber_ref(p, P, T):
    d = np.abs(P - T)
    return np.array([np.mean(np.where(d < 1.0, 0.5 * d * d, d - 0.5))])


def _kl_div(p, P, T):
    i, j = te.reduce_axis((0, p["b"]), name="i"), te.reduce_axis((0, p["n"]), name="j")
    s = te.compute((1,), lambda _: te.sum(T[i, j] * (te.log(T[i, j]) - te.log(P[i, j])), axis=[i, j]),
                   name="T_kl_sum")
    return _mean_of(s, p["b"], "T_kl_div")


def _triplet(p, A, P, N):
    def dist(Y, name):
        k = te.reduce_axis((0, p["d"]), name="k")
        ss = te.compute((p["b"],), lambda b: te.sum((A[b, k] - Y[b, k] + PAIR_EPS) * (A[b, k] - Y[b, k] + PAIR_EPS),
                                                    axis=k), name=f"T_{name}_sumsq")
        return te.compute((p["b"],), lambda b: te.sqrt(ss[b]), name=f"T_{name}_distance")
    dp, dn = dist(P, "positive"), dist(N, "negative")
    b = te.reduce_axis((0, p["b"]), name="b")
    s = te.compute((1,), lambda _: te.sum(te.max(dp[b] - dn[b] + MARGIN, 0.0), axis=b), name="T_hinge_sum")
    return _mean_of(s, p["b"], "T_triplet_margin")


def _triplet_ref(p, A, P, N):
    dp = np.sqrt(((A - P + PAIR_EPS) ** 2).sum(axis=1))
    dn = np.sqrt(((A - N + PAIR_EPS) ** 2).sum(axis=1))
    return np.array([np.mean(np.maximum(dp - dn + MARGIN, 0.0))])


def _cumsum_reverse(p, X):
    return topi.flip(topi.cumsum(topi.flip(X, axis=1), axis=1), axis=1)


def _masked_cumsum(p, X, M):
    kept = te.compute(X.shape, lambda i, j: te.if_then_else(M[i, j] != 0, X[i, j], 0.0), name="T_masked")
    return topi.cumsum(kept, axis=1)


# --- patterns --------------------------------------------------------------------------------------

def _conv_flops(p, oh, ow, per_output):
    return 2 * p["n"] * oh * ow * p["k"] * per_output


def _hw(p):
    return _out(p["h"], p["r"], p["s"], p["p"], p.get("d", 1)), _out(p["w"], p["r"], p["s"], p["p"], p.get("d", 1))


def _op(pid, level, domains, summary, inputs, compute, reference, flops, workloads, vendor=None, shape_space=None):
    return OpPattern(id=pid, family=pid.split("/")[0], level=level, domains=domains, summary=summary,
                     inputs=inputs, compute=compute, reference=reference, vendor=vendor, flops=flops,
                     workloads=workloads, shape_space=shape_space)


def _x_nhwc(p):
    return Tensor("X", (p["n"], p["h"], p["w"], p["c"]))


def _te(config, params, **fixed):
    """The workloads of a te_workload configuration list, each as given."""
    return [wl(**fixed, **dict(zip(names, values)), source=te_workload(config, i))
            for i, (names, values) in enumerate(params)]


_NHWC = ("h", "w", "c", "k", "r", "s", "p")
# conv2d_nhwc(N, H, W, CI, CO, kernel, stride, padding[, dilation[, groups]]) at N = 1
_RESNET18 = [(224, 224, 3, 64, 7, 2, 3), (56, 56, 64, 64, 1, 1, 0), (14, 14, 256, 256, 3, 1, 1),
             (7, 7, 512, 512, 3, 1, 1)]


def _sum_loss(name, summary, inputs, compute, reference, flops, workloads, vendor=None):
    return _op(f"loss/{name}", "L1", (), summary, inputs, compute, reference, flops, workloads, vendor or reference)


def _pair(p, init="normal"):
    return [Tensor("P", (p["m"], p["n"]), init=init), Tensor("T", (p["m"], p["n"]), init=init)]


PATTERNS = [
    _op("conv2d/conv2d-grouped-nhwc", "L1", ("vision",),
        "Y[n, y, x, k] = sum_{r, s, c < C/G} X[n, y*st + r - p, x*st + s - p, (k div K/G) C/G + c] W[r, s, c, k] "
        "(G channel groups, HWIO weights per group; ResNeXt)",
        lambda p: [_x_nhwc(p), Tensor("W", (p["r"], p["r"], p["c"] // p["g"], p["k"]), init="uniform")],
        _grouped,
        lambda p, X, W: _nhwc_ref(refs.conv(X.transpose(0, 3, 1, 2), W.transpose(3, 2, 0, 1), p["s"], p["p"], 1,
                                                       p["g"])),
        lambda p: _conv_flops(p, *_hw(p), p["c"] // p["g"] * p["r"] ** 2),
        # GRP: ResNet-18's C2D layers at group 4
        _te("GRP", [(_NHWC + ("g",), v + (4,)) for v in [(56, 56, 64, 128, 3, 2, 1), (56, 56, 64, 64, 1, 1, 0),
                                                          (14, 14, 256, 256, 3, 1, 1),
                                                          (7, 7, 512, 512, 3, 1, 1)]], n=1),
        shape_space=ShapeSpace(valid=lambda p: p["c"] % p["g"] == 0 and p["k"] % p["g"] == 0)),
    _op("conv2d/conv2d-nhwc-dilated-strided", "L1", ("vision",),
        "Y[n, y, x, k] = sum_{r, s, c} X[n, y*st + d*r - p, x*st + d*s - p, c] W[r, s, c, k] (atrous with any stride "
        "and padding, HWIO weights)",
        lambda p: [_x_nhwc(p), Tensor("W", (p["r"], p["r"], p["c"], p["k"]), init="uniform")],
        _dilated, lambda p, X, W: _nhwc_ref(refs.conv(X.transpose(0, 3, 1, 2), W.transpose(3, 2, 0, 1), p["s"], p["p"],
                                                       p["d"])),
        lambda p: _conv_flops(p, *_hw(p), p["c"] * p["r"] ** 2),
        # DIL: ResNet-18's C2D layers at dilation 2, but its #1: a 1 x 1 kernel's dilation changes nothing, so
        # it is C2D #1 (conv2d/conv2d-nhwc)
        [wl(n=1, **dict(zip(_NHWC + ("d",), v + (2,))), source=te_workload("DIL", i))
         for i, v in enumerate(_RESNET18) if i != 1]),
    _op("conv2d/conv2d-transpose-nhwc", "L1", ("vision",),
        "Y[n, y*s + r - p, x*s + t - p, k] += X[n, y, x, c] W[r, t, c, k] (learned upsampling, NHWC; DCGAN)",
        lambda p: [_x_nhwc(p), Tensor("W", (p["r"], p["r"], p["c"], p["k"]), init="uniform")],
        _transpose_nhwc,
        lambda p, X, W: _nhwc_ref(refs.conv_transpose(X.transpose(0, 3, 1, 2), W.transpose(2, 3, 0, 1), p["s"],
                                                      p["p"])),
        lambda p: 2 * p["n"] * p["h"] * p["w"] * p["c"] * p["k"] * p["r"] ** 2,
        # T2D: DCGAN's generator
        _te("T2D", [(_NHWC, v) for v in [(4, 4, 512, 256, 4, 2, 1), (8, 8, 256, 128, 4, 2, 1),
                                          (16, 16, 128, 64, 4, 2, 1), (32, 32, 64, 3, 4, 2, 1)]], n=1)),
    _op("conv2d/conv2d-capsule-nhwijc", "L1", ("vision",),
        "Y[n, y, x, i, j, k] = sum_{r, t, q, c} X[n, y*s + r - p, x*s + t - p, i, q, c] W[r, t, q, j, c, k] "
        "(capsule conv: 4 x 4 pose matrices multiplied; matrix capsules with EM routing)",
        lambda p: [Tensor("X", (p["n"], p["h"], p["w"], p["cap"], p["cap"], p["c"])),
                   Tensor("W", (p["r"], p["r"], p["cap"], p["cap"], p["c"], p["k"]), init="uniform")],
        _capsule, _capsule_ref,
        lambda p: 2 * p["n"] * _out(p["h"], p["r"], p["s"], p["p"]) * _out(p["w"], p["r"], p["s"], p["p"])
        * p["cap"] ** 2 * p["k"] * p["r"] ** 2 * p["cap"] * p["c"],
        _te("CAP", [(_NHWC + ("cap",), v + (4,)) for v in [(16, 16, 32, 32, 3, 2, 1), (8, 8, 32, 32, 3, 1, 1),
                                                             (16, 16, 8, 16, 3, 2, 1), (8, 8, 16, 16, 3, 1, 1)]], n=1)),
    _op("conv-block/conv2d-bias-bn-relu-nhwc", "L2", ("vision",),
        "Y = relu((conv2d_nhwc(X, W) + bias) * bn_scale + bn_offset) (conv, bias, folded BatchNorm, ReLU; HWIO)",
        lambda p: [_x_nhwc(p),
                   Tensor("W", (p["r"], p["r"], p["c"], p["k"]), scale=(2.0 / (p["c"] * p["r"] ** 2)) ** 0.5),
                   Tensor("bias", (p["k"],), scale=0.1), Tensor("bn_offset", (p["k"],), scale=0.1),
                   Tensor("bn_scale", (p["k"],), init="positive")],
        _cbr, _cbr_ref,
        lambda p: _conv_flops(p, *_hw(p), p["c"] * p["r"] ** 2) + 4 * p["n"] * p["k"] * _hw(p)[0] * _hw(p)[1],
        _te("CBR", [(_NHWC, v) for v in [(224, 224, 3, 64, 7, 2, 3), (56, 56, 64, 128, 3, 2, 1),
                                          (28, 28, 128, 256, 1, 2, 0), (7, 7, 512, 512, 3, 1, 1)]], n=1)),
    _op("reduction/frobenius-norm", "L1", ("linear-algebra",),
        "Y[b] = sqrt(sum_{m, n} X[b, m, n]^2) (Frobenius norm of each matrix)",
        lambda p: [Tensor("X", (p["b"], p["m"], p["n"]))], _frobenius,
        lambda p, X: np.sqrt((X * X).sum(axis=(1, 2))),
        lambda p: 2 * p["b"] * p["m"] * p["n"] + p["b"],
        _te("NRM", [(("b", "m", "n"), v) for v in [(1, 256, 256), (1, 512, 512), (1, 1024, 1024), (1, 4096, 1024)]]),
        vendor=lambda p, X: np.linalg.norm(X.reshape(X.shape[0], -1), axis=1)),
    _op("batch-matmul/transpose-batch-matmul", "L1", ("language",),
        "C[b, h, i, j] = sum_d Q[b, i, h, d] K[b, j, h, d] (attention scores of (batch, seq, head, dim) tensors, "
        "heads not split out first)",
        lambda p: [Tensor("Q", (p["b"], p["s"], p["h"], p["d"])), Tensor("K", (p["b"], p["s"], p["h"], p["d"]))],
        _tbg, lambda p, Q, K: np.einsum("bihd,bjhd->bhij", Q, K),
        lambda p: 2 * p["b"] * p["h"] * p["s"] * p["s"] * p["d"],
        _te("TBG", [(("b", "s", "h", "d"), v) for v in [(1, 128, 12, 64), (1, 128, 16, 64), (1, 64, 12, 128),
                                                       (1, 128, 12, 128)]]),
        vendor=lambda p, Q, K: np.matmul(Q.transpose(0, 2, 1, 3), K.transpose(0, 2, 3, 1))),

    _sum_loss("mse", "y = mean_{m, n} (P[m, n] - T[m, n])^2 (reconstruction error: the MLPerf Tiny anomaly score)",
              _pair, _mse, lambda p, P, T: np.array([np.mean((P - T) ** 2)]), lambda p: 3 * p["m"] * p["n"],
              [wl(m=128, n=640, domains=("anomaly-detection",), source=kernelbench("94_MSELoss")),
               wl(m=32, n=3072, domains=("vision",), source=kernelbench("94_MSELoss"))]),
    _sum_loss("cross-entropy", "y = mean_b (logsumexp_c X[b, c] - X[b, t[b]]) (softmax cross-entropy, int32 labels)",
              lambda p: [Tensor("X", (p["b"], p["c"])),
                         Tensor("t", (p["b"],), "int32", init="randint", low=0, high=p["c"])],
              _cross_entropy, _cross_entropy_ref, lambda p: 4 * p["b"] * p["c"],
              [wl(b=64, c=12, domains=("audio",), source=kernelbench("95_CrossEntropyLoss")),
               wl(b=32, c=10, domains=("vision",), source=kernelbench("95_CrossEntropyLoss"))]),
    _sum_loss("smooth-l1", "y = mean (0.5 d^2 if |d| < 1 else |d| - 0.5), d = P - T (Huber loss, box regression)",
              _pair, _huber, _huber_ref, lambda p: 4 * p["m"] * p["n"],
              # SSD-MobileNet's 1917 anchor boxes
              [wl(m=1917, n=4, domains=("vision",), source=kernelbench("96_HuberLoss"))]),
    _sum_loss("kl-div", "y = sum_{b, n} T (log T - log P) / B (KL divergence, batch mean; distillation)",
              lambda p: [Tensor("P", (p["b"], p["n"]), init="positive"),
                         Tensor("T", (p["b"], p["n"]), init="positive")],
              _kl_div, lambda p, P, T: np.array([np.sum(T * (np.log(T) - np.log(P))) / p["b"]]),
              lambda p: 4 * p["b"] * p["n"],
              [wl(b=64, n=12, domains=("audio",), source=kernelbench("98_KLDivLoss")),
               wl(b=32, n=1000, domains=("vision",), source=kernelbench("98_KLDivLoss"))]),
    _sum_loss("triplet-margin", f"y = mean_b max(|A - P + eps| - |A - N + eps| + {MARGIN:g}, 0) (L2 distances; "
              "face and speaker embeddings)",
              lambda p: [Tensor(n, (p["b"], p["d"])) for n in ("A", "P", "N")], _triplet, _triplet_ref,
              lambda p: 6 * p["b"] * p["d"] + 4 * p["b"],
              [wl(b=64, d=128, domains=("vision",), source=kernelbench("99_TripletMarginLoss")),
               wl(b=32, d=192, domains=("audio",), source=kernelbench("99_TripletMarginLoss"))]),
    _op("scan/cumsum-reverse", "L1", (), "Y[m, n] = sum_{j >= n} X[m, j] (suffix sums: backward recursions)",
        lambda p: [Tensor("X", (p["m"], p["n"]), init="uniform")], _cumsum_reverse,
        lambda p, X: np.cumsum(X[:, ::-1], axis=1)[:, ::-1], lambda p: p["m"] * p["n"],
        [wl(m=64, n=1024, domains=("signal-processing",), source=kernelbench("91_cumsum_reverse"))],
        vendor=lambda p, X: np.cumsum(X[:, ::-1], axis=1)[:, ::-1]),
    _op("scan/masked-cumsum", "L1", (),
        "Y[m, n] = sum_{j <= n, M[m, j] != 0} X[m, j] (int8 mask; running sums of kept items)",
        lambda p: [Tensor("X", (p["m"], p["n"]), init="uniform"),
                   Tensor("M", (p["m"], p["n"]), "int8", init="randint", low=0, high=2)],
        _masked_cumsum, lambda p, X, M: np.cumsum(X * (M != 0), axis=1), lambda p: 2 * p["m"] * p["n"],
        [wl(m=64, n=1024, domains=("signal-processing",), source=kernelbench("93_masked_cumsum"))],
        vendor=lambda p, X, M: np.cumsum(np.where(M != 0, X, 0.0), axis=1)),
]
