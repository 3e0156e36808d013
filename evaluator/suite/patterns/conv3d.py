"""3-D convolutions over (depth/time, height, width): video and volumetric models on the edge
(C3D/X3D-style action recognition, gesture and medical-volume networks). NCDHW with OIDHW
weights, NDHWC with DHWIO weights, and the depthwise (channel-separated) form of X3D."""

from tvm import topi

from evaluator.suite import refs
from evaluator.suite.base import OpPattern, Tensor
from evaluator.suite.declare import te_workload, wl


def _out(p, i):
    return (p[i] + 2 * p["p"] - p["r"]) // p["s"] + 1


def _flops(p):
    return 2 * p["n"] * p["k"] * _out(p, "d") * _out(p, "h") * _out(p, "w") * (p["c"] // p.get("g", 1)) * p["r"] ** 3


def _conv(name, summary, inputs, compute, reference, workloads):
    return OpPattern(id=f"conv3d/{name}", family="conv3d", level="L1", domains=("vision",), summary=summary,
                     inputs=inputs, compute=compute, reference=reference, vendor=None, flops=_flops,
                     workloads=workloads)


def _ncdhw(p):
    return Tensor("X", (p["n"], p["c"], p["d"], p["h"], p["w"]))


PATTERNS = [
    _conv("conv3d-ncdhw",
          "Y[n, k, z, y, x] = sum_{c, q, r, s} X[n, c, z*st + q - p, y*st + r - p, x*st + s - p] W[k, c, q, r, s]",
          lambda p: [_ncdhw(p), Tensor("W", (p["k"], p["c"], p["r"], p["r"], p["r"]), init="uniform")],
          lambda p, X, W: topi.nn.conv3d_ncdhw(X, W, p["s"], p["p"], 1, 1),
          lambda p, X, W: refs.conv(X, W, p["s"], p["p"]),
          [wl(n=1, c=3, d=16, h=56, w=56, k=16, r=3, s=1, p=1), wl(n=1, c=32, d=8, h=28, w=28, k=32, r=3, s=2, p=1)]),
    _conv("conv3d-ndhwc",
          "Y[n, z, y, x, k] = sum X[n, z*st + q - p, y*st + r - p, x*st + s - p, c] W[q, r, s, c, k] (DHWIO)",
          lambda p: [Tensor("X", (p["n"], p["d"], p["h"], p["w"], p["c"])),
                     Tensor("W", (p["r"], p["r"], p["r"], p["c"], p["k"]), init="uniform")],
          lambda p, X, W: topi.nn.conv3d_ndhwc(X, W, p["s"], p["p"], 1, 1),
          lambda p, X, W: refs.conv(X.transpose(0, 4, 1, 2, 3), W.transpose(4, 3, 0, 1, 2), p["s"], p["p"])
          .transpose(0, 2, 3, 4, 1),
          [wl(n=1, d=8, h=28, w=28, c=16, k=32, r=3, s=1, p=1)]
          # TVM MetaSchedule's C3D[1] (conv3d_ndhwc: DHWIO weights), as given; its others are 11-13 GFLOP,
          # past what one evaluation may cost on two cores (docs/coverage.md says how far)
          + [wl(n=1, d=16, h=56, w=56, c=64, k=64, r=1, s=1, p=0, source=te_workload("C3D", 1))]),
    _conv("depthwise-conv3d-ncdhw",
          "Y[n, c, z, y, x] = sum_{q, r, s} X[n, c, z*st + q - p, ...] W[c, 0, q, r, s] (X3D)",
          lambda p: [_ncdhw(p), Tensor("W", (p["c"], 1, p["r"], p["r"], p["r"]))],
          lambda p, X, W: topi.nn.conv3d_ncdhw(X, W, p["s"], p["p"], 1, p["c"]),
          lambda p, X, W: refs.conv(X, W, p["s"], p["p"], 1, p["c"]),
          [wl(n=1, c=48, d=8, h=28, w=28, k=48, g=48, r=3, s=1, p=1)]),
]
