"""Layout transforms and data movement: transposes and layout conversions (NCHW <-> NHWC, the
blocked NCHWc layout), padding (constant, reflect, edge), concatenation and splitting, crops,
strided slices, flips, rolls, tiling and repeats, space/depth rearrangements (space-to-depth,
pixel shuffle, channel shuffle), im2col, triangular masks and broadcasts.

No arithmetic: FLOPs are 0 and the roofline is bandwidth (every input read once, every output
written once). These are what a compiler's layout planning removes or a kernel fuses away.
"""

import numpy as np
from tvm import te, topi

from evaluator.suite.base import OpPattern, Tensor
from evaluator.suite.declare import wl


def _pattern(name, summary, inputs, compute, reference, workloads, domains=("vision",)):
    return OpPattern(id=f"layout/{name}", family="layout", level="L1", domains=domains, summary=summary,
                     inputs=inputs, compute=compute, reference=reference, vendor=reference,
                     flops=lambda p: 0, workloads=workloads)


def _x(*shape):
    return [Tensor("X", tuple(shape))]


def _nchw(p):
    return _x(p["n"], p["c"], p["h"], p["w"])


def _pad_edge(p, X):
    t = p["p"]
    h, w = p["h"], p["w"]
    return te.compute((p["n"], p["c"], h + 2 * t, w + 2 * t), lambda n, c, y, x: X[
        n, c, te.min(te.max(y - t, 0), h - 1), te.min(te.max(x - t, 0), w - 1)], name="T_pad_edge")


def _roll(p, X):
    n, s = p["n"], p["shift"]
    return te.compute(X.shape, lambda i, j: X[i, (j + (n - s)) % n], name="T_roll")


def _channel_shuffle(p, X):
    g, cg = p["g"], p["c"] // p["g"]
    return te.compute(X.shape, lambda n, c, y, x: X[n, (c % g) * cg + c // g, y, x], name="T_channel_shuffle")


def _channel_shuffle_ref(p, X):
    n, c, h, w = X.shape
    return X.reshape(n, p["g"], c // p["g"], h, w).transpose(0, 2, 1, 3, 4).reshape(X.shape)


def _pixel_shuffle_ref(p, X):
    r = p["r"]
    n, c, h, w = X.shape
    return X.reshape(n, c // (r * r), r, r, h, w).transpose(0, 1, 4, 2, 5, 3).reshape(n, c // (r * r), h * r, w * r)


def _space_to_depth_ref(p, X):
    r = p["r"]
    n, c, h, w = X.shape
    return X.reshape(n, c, h // r, r, w // r, r).transpose(0, 3, 5, 1, 2, 4).reshape(n, c * r * r, h // r, w // r)


def _im2col(p, X):
    """cols[c*R*R + i*R + j, y*OW + x] = X[c, y*s + i - p, x*s + j - p] (zero outside)."""
    c, h, w, r, s, pad = p["c"], p["h"], p["w"], p["r"], p["s"], p["p"]
    oh, ow = (h + 2 * pad - r) // s + 1, (w + 2 * pad - r) // s + 1
    xp = topi.nn.pad(X, (0, pad, pad), (0, pad, pad), name="T_pad")
    return te.compute((c * r * r, oh * ow), lambda k, q: xp[k // (r * r), (q // ow) * s + (k // r) % r,
                                                            (q % ow) * s + k % r], name="T_im2col")


def _im2col_ref(p, X):
    c, h, w, r, s, pad = p["c"], p["h"], p["w"], p["r"], p["s"], p["p"]
    xp = np.pad(X, ((0, 0), (pad, pad), (pad, pad)))
    oh, ow = (h + 2 * pad - r) // s + 1, (w + 2 * pad - r) // s + 1
    cols = np.empty((c, r, r, oh, ow))
    for i in range(r):
        for j in range(r):
            cols[:, i, j] = xp[:, i:i + s * (oh - 1) + 1:s, j:j + s * (ow - 1) + 1:s]
    return cols.reshape(c * r * r, oh * ow)


def _nchwc_ref(p, X):
    n, c, h, w = X.shape
    return X.reshape(n, c // p["cb"], p["cb"], h, w).transpose(0, 1, 3, 4, 2)


PATTERNS = [
    _pattern("transpose-2d", "Y[j, i] = X[i, j]", lambda p: _x(p["m"], p["n"]),
             lambda p, X: topi.transpose(X, (1, 0)), lambda p, X: X.T,
             [wl(m=1024, n=1024, domains=("linear-algebra",)), wl(m=257, n=98, domains=("audio",))]),
    _pattern("transpose-0213", "Y[b, h, s, d] = X[b, s, h, d] (split attention heads)",
             lambda p: _x(p["b"], p["s"], p["h"], p["d"]),
             lambda p, X: topi.transpose(X, (0, 2, 1, 3)), lambda p, X: X.transpose(0, 2, 1, 3),
             [wl(b=1, s=128, h=12, d=64, domains=("language",)), wl(b=1, s=197, h=3, d=64)]),
    _pattern("nchw-to-nhwc", "Y[n, h, w, c] = X[n, c, h, w]", _nchw,
             lambda p, X: topi.transpose(X, (0, 2, 3, 1)), lambda p, X: X.transpose(0, 2, 3, 1),
             [wl(n=1, c=64, h=56, w=56), wl(n=1, c=3, h=224, w=224)]),
    _pattern("nhwc-to-nchw", "Y[n, c, h, w] = X[n, h, w, c]", lambda p: _x(p["n"], p["h"], p["w"], p["c"]),
             lambda p, X: topi.transpose(X, (0, 3, 1, 2)), lambda p, X: X.transpose(0, 3, 1, 2),
             [wl(n=1, h=56, w=56, c=64), wl(n=1, h=96, w=96, c=3)]),
    _pattern("nchw-to-nchwc", "Y[n, c/cb, h, w, cb] = X[n, c, h, w] (pack channels into blocks of cb)", _nchw,
             lambda p, X: topi.layout_transform(X, "NCHW", f"NCHW{p['cb']}c"), _nchwc_ref,
             [wl(n=1, c=64, h=56, w=56, cb=8), wl(n=1, c=256, h=14, w=14, cb=16)]),
    _pattern("nchwc-to-nchw", "Y[n, c, h, w] = X[n, c / cb, h, w, c % cb] (unpack channel blocks)",
             lambda p: _x(p["n"], p["c"] // p["cb"], p["h"], p["w"], p["cb"]),
             lambda p, X: topi.layout_transform(X, f"NCHW{p['cb']}c", "NCHW"),
             lambda p, X: X.transpose(0, 1, 4, 2, 3).reshape(p["n"], p["c"], p["h"], p["w"]),
             [wl(n=1, c=64, h=56, w=56, cb=8)]),
    _pattern("pad-constant", "Y = X with p zeros added on each side of H and W", _nchw,
             lambda p, X: topi.nn.pad(X, (0, 0, p["p"], p["p"]), (0, 0, p["p"], p["p"])),
             lambda p, X: np.pad(X, ((0, 0), (0, 0), (p["p"], p["p"]), (p["p"], p["p"]))),
             [wl(n=1, c=64, h=56, w=56, p=1), wl(n=1, c=3, h=224, w=224, p=3)]),
    _pattern("pad-reflect", "Y = X padded by p on each side of H and W, mirrored without the edge (reflect)", _nchw,
             lambda p, X: topi.nn.mirror_pad(X, (0, 0, p["p"], p["p"]), (0, 0, p["p"], p["p"]), "REFLECT"),
             lambda p, X: np.pad(X, ((0, 0), (0, 0), (p["p"], p["p"]), (p["p"], p["p"])), mode="reflect"),
             [wl(n=1, c=32, h=128, w=128, p=3)]),
    _pattern("pad-edge", "Y = X padded by p on each side of H and W with the nearest edge value (replicate)", _nchw,
             _pad_edge, lambda p, X: np.pad(X, ((0, 0), (0, 0), (p["p"], p["p"]), (p["p"], p["p"])), mode="edge"),
             [wl(n=1, c=16, h=96, w=96, p=2)]),
    _pattern("concat-channels", "Y = [A | B] along the channel axis (skip connections, inception)",
             lambda p: [Tensor("A", (p["n"], p["a"], p["h"], p["w"])), Tensor("B", (p["n"], p["b"], p["h"], p["w"]))],
             lambda p, A, B: topi.concatenate((A, B), axis=1), lambda p, A, B: np.concatenate([A, B], axis=1),
             [wl(n=1, a=64, b=64, h=56, w=56), wl(n=1, a=128, b=32, h=28, w=28)]),
    _pattern("split-channels", "Y0, Y1 = X[:, :c/2], X[:, c/2:] (two outputs)", _nchw,
             lambda p, X: list(topi.split(X, 2, axis=1)),
             lambda p, X: np.split(X, 2, axis=1),
             [wl(n=1, c=116, h=28, w=28)]),
    _pattern("crop", "Y = X[:, :, t:H-t, t:W-t] (centre crop)", _nchw,
             lambda p, X: topi.strided_slice(X, [0, 0, p["t"], p["t"]],
                                             [p["n"], p["c"], p["h"] - p["t"], p["w"] - p["t"]]),
             lambda p, X: X[:, :, p["t"]:p["h"] - p["t"], p["t"]:p["w"] - p["t"]],
             [wl(n=1, c=64, h=68, w=68, t=4)]),
    _pattern("strided-slice", "Y = X[:, :, ::2, ::2] (subsample every other row and column)", _nchw,
             lambda p, X: topi.strided_slice(X, [0, 0, 0, 0], [p["n"], p["c"], p["h"], p["w"]], [1, 1, 2, 2]),
             lambda p, X: X[:, :, ::2, ::2],
             [wl(n=1, c=64, h=56, w=56)]),
    _pattern("flip", "Y[..., x] = X[..., W-1-x] (horizontal flip)", _nchw,
             lambda p, X: topi.flip(X, axis=3), lambda p, X: X[..., ::-1],
             [wl(n=1, c=3, h=224, w=224), wl(n=1, c=1, h=49, w=10, domains=("audio",))]),
    _pattern("roll", "Y[m, j] = X[m, (j - shift) mod n] (circular shift, e.g. fftshift)",
             lambda p: _x(p["m"], p["n"]), _roll, lambda p, X: np.roll(X, p["shift"], axis=1),
             [wl(m=98, n=512, shift=256, domains=("signal-processing",))]),
    _pattern("tile", "Y = X repeated 2 x 2 times over H and W (tile)", _nchw,
             lambda p, X: topi.tile(X, (1, 1, 2, 2)), lambda p, X: np.tile(X, (1, 1, 2, 2)),
             [wl(n=1, c=32, h=28, w=28)]),
    _pattern("repeat", "Y[m, j] = X[m, j // r] (each column repeated r times: repeat_interleave)",
             lambda p: _x(p["m"], p["n"]), lambda p, X: topi.repeat(X, p["r"], 1),
             lambda p, X: np.repeat(X, p["r"], axis=1),
             [wl(m=64, n=256, r=4, domains=("audio",)), wl(m=8, n=1024, r=2, domains=("language",))]),
    _pattern("space-to-depth", "Y[n, (i*r + j)*C + c, y, x] = X[n, c, y*r + i, x*r + j] (block r)", _nchw,
             lambda p, X: topi.nn.space_to_depth(X, p["r"], "NCHW"), _space_to_depth_ref,
             [wl(n=1, c=3, h=224, w=224, r=4), wl(n=1, c=32, h=64, w=64, r=2)]),
    _pattern("pixel-shuffle", "Y[n, c, y*r + i, x*r + j] = X[n, c*r*r + i*r + j, y, x] (depth-to-space, CRD)",
             _nchw, lambda p, X: topi.nn.depth_to_space(X, p["r"], "NCHW", "CRD"), _pixel_shuffle_ref,
             [wl(n=1, c=64, h=32, w=32, r=2), wl(n=1, c=48, h=64, w=64, r=4)]),
    _pattern("channel-shuffle", "Y[n, c] = X[n, (c mod g) * C/g + c div g] (ShuffleNet)", _nchw,
             _channel_shuffle, _channel_shuffle_ref,
             [wl(n=1, c=116, h=28, w=28, g=2), wl(n=1, c=240, h=14, w=14, g=3)]),
    _pattern("im2col", "cols[c*R*R + i*R + j, y*OW + x] = X[c, y*s + i - p, x*s + j - p] (conv as matmul)",
             lambda p: _x(p["c"], p["h"], p["w"]), _im2col, _im2col_ref,
             [wl(c=32, h=28, w=28, r=3, s=1, p=1), wl(c=3, h=96, w=96, r=3, s=2, p=1)]),
    _pattern("tril", "Y[i, j] = X[i, j] if j <= i else 0 (lower-triangular mask)", lambda p: _x(p["m"], p["n"]),
             lambda p, X: topi.trilu(X, te.const(0, "int32"), False), lambda p, X: np.tril(X),
             [wl(m=256, n=256, domains=("language",))]),
    _pattern("broadcast-rows", "Y[m, n] = x[n] (materialise a broadcast)", lambda p: _x(p["n"]),
             lambda p, X: topi.broadcast_to(X, (p["m"], p["n"])), lambda p, X: np.broadcast_to(X, (p["m"], p["n"])),
             [wl(m=128, n=768, domains=("language",))]),
]
