"""Depthwise conv2d: the spatial half of MobileNet/DS-CNN separable blocks; low reuse, memory
bound. NCHW and NHWC layouts, dilated, and with a channel multiplier (one input channel feeding
several outputs)."""

from tvm import topi

from evaluator.suite import refs
from evaluator.suite.base import OpPattern, Tensor, Workload
from evaluator.suite.declare import dtype_of, narrow, te_workload, widen, wl
from evaluator.suite.patterns.conv2d import conv2d_ref, out_hw


def _wl(n, c, h, w, r, stride, **kw):
    return Workload(f"n{n}c{c}h{h}w{w}r{r}s{stride}",
                    {"n": n, "c": c, "h": h, "w": w, "r": r, "stride": stride, "pad": r // 2}, **kw)


def _dw_flops(p):
    return 2 * p["n"] * p["c"] * p.get("m", 1) * out_hw(p)[0] * out_hw(p)[1] * p["r"] * p["r"]


def _dw(name, summary, inputs, compute, reference, workloads):
    return OpPattern(id=f"depthwise-conv2d/{name}", family="depthwise-conv2d", level="L1", domains=("vision",),
                     summary=summary, inputs=inputs, compute=compute, reference=reference, vendor=None,
                     flops=_dw_flops, workloads=workloads)


def _nhwc(p, X, W):
    return narrow(topi.nn.depthwise_conv2d_nhwc(widen(X), widen(W), p["s"], p["p"], 1, out_dtype="float32"),
                  dtype_of(p))


def _nhwc_ref(p, X, W):
    w = W.transpose(2, 3, 0, 1).reshape(p["c"], 1, p["r"], p["r"])  # HWC1 → C1HW
    return refs.conv(X.transpose(0, 3, 1, 2), w, p["s"], p["p"], 1, p["c"]).transpose(0, 2, 3, 1)


PATTERNS = [
    OpPattern(
        id="depthwise-conv2d/depthwise-conv2d-nchw",
        family="depthwise-conv2d",
        level="L1",
        domains=("vision",),
        summary="Y[n, c, y, x] = sum_{r, s} X[n, c, y*st + r - pad, x*st + s - pad] * W[c, 0, r, s]",
        inputs=lambda p: [Tensor("X", (p["n"], p["c"], p["h"], p["w"])),
                          Tensor("W", (p["c"], 1, p["r"], p["r"]))],
        compute=lambda p, X, W: topi.nn.depthwise_conv2d_nchw(X, W, p["stride"], p["pad"], 1),
        reference=lambda p, X, W: conv2d_ref(X, W, p["stride"], p["pad"], groups=p["c"]),
        vendor=None,
        flops=_dw_flops,
        workloads=[
            _wl(1, 32, 56, 56, 3, 1),
            _wl(1, 128, 28, 28, 3, 1),
            _wl(1, 64, 56, 56, 3, 2),
        ],
    ),
    _dw("depthwise-conv2d-nhwc",
        "Y[n, y, x, c] = sum_{r, s} X[n, y*st + r - p, x*st + s - p, c] * W[r, s, c, 0] (TFLite layout)",
        lambda p: [Tensor("X", (p["n"], p["h"], p["w"], p["c"]), dtype_of(p)),
                   Tensor("W", (p["r"], p["r"], p["c"], 1), dtype_of(p))],
        _nhwc, _nhwc_ref,
        [wl(n=1, h=48, w=48, c=8, r=3, s=1, p=1), wl(n=1, h=56, w=56, c=144, r=3, s=2, p=1),
         wl(n=1, h=48, w=48, c=8, r=3, s=1, p=1, dtype="float16"),
         wl(n=1, h=56, w=56, c=144, r=3, s=2, p=1, dtype="float16"),
         wl(n=1, h=112, w=112, c=32, r=3, s=1, p=1, dtype="float16"),
         wl(n=1, h=14, w=14, c=512, r=3, s=2, p=1, dtype="float16"),
         wl(n=1, h=7, w=7, c=1024, r=3, s=1, p=1, dtype="float16")]
        # TVM MetaSchedule's DEP (MobileNet's depthwise layers), as given: its (1, R, R, C) weights
        # hold the same memory as these (R, R, C, 1)
        + [wl(n=1, h=h, w=h, c=c, r=3, s=s, p=1, source=te_workload("DEP", i))
           for i, (h, c, s) in enumerate([(112, 32, 1), (112, 64, 2), (14, 512, 2), (7, 1024, 1)])]),
    _dw("depthwise-conv2d-nchw-dilated", "Y[n, c, y, x] = sum_{r, s} X[n, c, y + d*r - p, x + d*s - p] * W[c, 0, r, s]",
        lambda p: [Tensor("X", (p["n"], p["c"], p["h"], p["w"])), Tensor("W", (p["c"], 1, p["r"], p["r"]))],
        lambda p, X, W: topi.nn.depthwise_conv2d_nchw(X, W, 1, p["p"], p["d"]),
        lambda p, X, W: refs.conv(X, W, 1, p["p"], p["d"], p["c"]),
        [wl(n=1, c=320, h=33, w=33, r=3, d=2, p=2, s=1)]),
    _dw("depthwise-conv2d-multiplier",
        "Y[n, c*M + m, y, x] = sum_{r, s} X[n, c, y*st + r - p, x*st + s - p] * W[c, m, r, s] (channel multiplier M)",
        lambda p: [Tensor("X", (p["n"], p["c"], p["h"], p["w"])), Tensor("W", (p["c"], p["m"], p["r"], p["r"]))],
        lambda p, X, W: topi.nn.depthwise_conv2d_nchw(X, W, p["s"], p["p"], 1),
        lambda p, X, W: refs.conv(X, W.reshape(p["c"] * p["m"], 1, p["r"], p["r"]), p["s"], p["p"], 1, p["c"]),
        [wl(n=1, c=32, h=56, w=56, m=2, r=3, s=1, p=1)]),
]
