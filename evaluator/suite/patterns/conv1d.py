"""1-D convolutions: FIR filter banks, raw-waveform front ends (M5), temporal conv nets (TCN,
WaveNet: causal and dilated), depthwise/grouped 1-D convs of mobile speech models (MatchboxNet),
and the transposed conv of 1-D decoders.

Weights are OIW (``(K, C/groups, R)``) for NCW data and WIO for NWC data; transposed convs take
IOW weights (``(C, K, R)``) as PyTorch does.
"""

import numpy as np
from tvm import topi

from evaluator.suite import refs
from evaluator.suite.base import OpPattern, Tensor, Workload
from evaluator.suite.declare import te_workload, wl


def _ow(p):
    d = p.get("d", 1)
    pad = p.get("pad", p.get("p", 0))
    pads = pad if isinstance(pad, tuple) else (pad, pad)
    return (p["w"] + sum(pads) - d * (p["r"] - 1) - 1) // p.get("stride", p.get("s", 1)) + 1


def _reference(p, X, W):
    st, ow, r = p["stride"], _ow(p), p["r"]
    xp = np.pad(X, ((0, 0), (0, 0), (p["pad"], p["pad"])))
    out = np.zeros((X.shape[0], W.shape[0], ow))
    for j in range(r):
        out += np.einsum("ncw,kc->nkw", xp[:, :, j:j + st * ow:st], W[:, :, j])
    return out


def _wl(n, c, w, k, r, stride, pad, **kw):
    return Workload(f"n{n}c{c}w{w}k{k}r{r}s{stride}",
                    {"n": n, "c": c, "w": w, "k": k, "r": r, "stride": stride, "pad": pad}, **kw)


def _flops(p):
    return 2 * p["n"] * p["k"] * _ow(p) * (p["c"] // p.get("g", 1)) * p["r"]


def _conv(name, summary, inputs, compute, reference, workloads, domains=("signal-processing", "audio"),
          flops=_flops):
    return OpPattern(id=f"conv1d/{name}", family="conv1d", level="L1", domains=domains, summary=summary,
                     inputs=inputs, compute=compute, reference=reference, vendor=None, flops=flops,
                     workloads=workloads)


def _ncw(p):
    return Tensor("X", (p["n"], p["c"], p["w"]))


def _oiw(p, groups=1):
    return Tensor("W", (p["k"], p["c"] // groups, p["r"]), init="uniform")


def _causal(p):
    return ((p["r"] - 1) * p["d"], 0)


def _tw(p):
    return (p["w"] - 1) * p["s"] - 2 * p["p"] + p["r"]


PATTERNS = [
    OpPattern(
        id="conv1d/conv1d-ncw",
        family="conv1d",
        level="L1",
        domains=("signal-processing", "audio"),
        summary="Y[n, k, x] = sum_{c, r} X[n, c, x*st + r - pad] * W[k, c, r]",
        inputs=lambda p: [Tensor("X", (p["n"], p["c"], p["w"])),
                          Tensor("W", (p["k"], p["c"], p["r"]), init="uniform")],
        compute=lambda p, X, W: topi.nn.conv1d_ncw(X, W, p["stride"], p["pad"], 1),
        reference=_reference,
        vendor=None,
        flops=lambda p: 2 * p["n"] * p["k"] * _ow(p) * p["c"] * p["r"],
        workloads=[
            _wl(1, 1, 8000, 32, 80, 16, 0),    # M5 raw-waveform front end, 8 kHz, 1 s
            _wl(1, 32, 2048, 32, 9, 1, 4),
        ],
    ),
    _conv("conv1d-nwc", "Y[n, x, k] = sum_{c, r} X[n, x*s + r - p, c] * W[r, c, k] (channels-last, WIO)",
          lambda p: [Tensor("X", (p["n"], p["w"], p["c"])), Tensor("W", (p["r"], p["c"], p["k"]), init="uniform")],
          lambda p, X, W: topi.nn.conv1d(X, W, p["s"], p["p"], 1, 1, "NWC", "WIO"),
          lambda p, X, W: refs.conv(X.transpose(0, 2, 1), W.transpose(2, 1, 0), p["s"], p["p"]).transpose(0, 2, 1),
          [wl(n=1, w=512, c=64, k=64, r=3, s=1, p=1), wl(n=1, w=98, c=40, k=128, r=5, s=2, p=2)]
          # TVM MetaSchedule's C1D (conv1d_nlc: NWC data, WIO weights), as given
          + [wl(n=1, w=w, c=c, k=k, r=r, s=s, p=p, source=te_workload("C1D", i))
             for i, (w, c, k, r, s, p) in enumerate([(256, 64, 128, 3, 2, 1), (128, 128, 256, 1, 2, 0),
                                                      (64, 256, 256, 5, 1, 2), (32, 512, 512, 3, 1, 1)])]),
    _conv("conv1d-dilated-ncw", "Y[n, k, x] = sum_{c, r} X[n, c, x + d*r - p] * W[k, c, r] (atrous, WaveNet)",
          lambda p: [_ncw(p), _oiw(p)],
          lambda p, X, W: topi.nn.conv1d_ncw(X, W, 1, p["p"], p["d"]),
          lambda p, X, W: refs.conv(X, W, 1, p["p"], p["d"]),
          [wl(n=1, c=64, w=1024, k=64, r=3, d=4, p=4), wl(n=1, c=32, w=4000, k=32, r=2, d=8, p=4)]),
    _conv("conv1d-causal-dilated-ncw",
          "Y[n, k, x] = sum_{c, r} X[n, c, x - d*(R-1-r)] * W[k, c, r] (left padding only: TCN, WaveNet)",
          lambda p: [_ncw(p), _oiw(p)],
          lambda p, X, W: topi.nn.conv1d(X, W, 1, _causal(p), p["d"], 1, "NCW"),
          lambda p, X, W: refs.conv(X, W, 1, [_causal(p)], p["d"]),
          [wl(n=1, c=64, w=1000, k=64, r=3, d=2), wl(n=1, c=128, w=500, k=128, r=3, d=8)],
          flops=lambda p: 2 * p["n"] * p["k"] * p["w"] * p["c"] * p["r"]),
    _conv("conv1d-depthwise-ncw", "Y[n, c, x] = sum_r X[n, c, x*s + r - p] * W[c, 0, r] (MatchboxNet, QuartzNet)",
          lambda p: [_ncw(p), Tensor("W", (p["c"], 1, p["r"]))],
          lambda p, X, W: topi.nn.conv1d(X, W, p["s"], p["p"], 1, p["c"], "NCW"),
          lambda p, X, W: refs.conv(X, W, p["s"], p["p"], 1, groups=p["c"]),
          [wl(n=1, c=128, w=256, r=13, s=1, p=6), wl(n=1, c=64, w=1000, r=11, s=1, p=5)],
          flops=lambda p: 2 * p["n"] * p["c"] * ((p["w"] + 2 * p["p"] - p["r"]) // p["s"] + 1) * p["r"]),
    _conv("conv1d-grouped-ncw", "Y = conv1d(X, W) with G channel groups (W[k, c/G, r])",
          lambda p: [_ncw(p), _oiw(p, p["g"])],
          lambda p, X, W: topi.nn.conv1d(X, W, 1, p["p"], 1, p["g"], "NCW"),
          lambda p, X, W: refs.conv(X, W, 1, p["p"], 1, groups=p["g"]),
          [wl(n=1, c=128, w=256, k=128, r=5, g=4, p=2)]),
    _conv("conv1d-transpose-ncw",
          "Y[n, k, x*s + r - p] += X[n, c, x] * W[c, k, r] (learned upsampling in 1-D decoders)",
          lambda p: [_ncw(p), Tensor("W", (p["c"], p["k"], p["r"]), init="uniform")],
          lambda p, X, W: topi.nn.conv1d_transpose_ncw(X, W, p["s"], p["p"], "float32", 0),
          lambda p, X, W: refs.conv_transpose(X, W, p["s"], p["p"]),
          [wl(n=1, c=64, w=250, k=32, r=4, s=2, p=1), wl(n=1, c=32, w=1000, k=16, r=16, s=8, p=4)],
          flops=lambda p: 2 * p["n"] * p["c"] * p["k"] * p["w"] * p["r"]),
]
