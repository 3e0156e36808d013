"""NumPy building blocks for the independent references (this module never imports TVM).

Every reference in the suite is written against NumPy alone, so a TVM bug can never make a wrong
kernel look right. References receive float64/int64 copies of the inputs
(:meth:`WorkloadDef.reference`) and return float64/int64 results, cast to the output dtype
afterwards; integer kernels are compared exactly, so the helpers here that model integer
arithmetic (rounding shifts, saturation) follow the kernels' semantics bit for bit.
"""

from __future__ import annotations

import math

import numpy as np

GELU_C = math.sqrt(2.0 / math.pi)


def as_vendor(reference):
    """A reference as the ``vendor`` call: NumPy as a user calls it, on float32 copies of float16
    inputs (what NumPy computes float16 in) and int64 copies of integer ones (int8 arithmetic
    wraps, and fixed-point products overflow int32), other inputs as they are."""
    def call(p, *xs):
        return reference(p, *[x.astype(np.float32) if x.dtype == np.float16 else
                              x.astype(np.int64) if np.issubdtype(x.dtype, np.integer) else x for x in xs])
    return call


# --- activations and normalisation ----------------------------------------------------------------

def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(GELU_C * (x + 0.044715 * x ** 3)))


_ERF = np.frompyfunc(math.erf, 1, 1)


def erf(x):
    return _ERF(np.asarray(x, dtype=np.float64)).astype(np.float64)


def gelu_erf(x):
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def silu(x):
    return x * sigmoid(x)


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def log_softmax(x, axis=-1):
    s = x - x.max(axis=axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))


def layer_norm(x, gamma=None, beta=None, axis=-1, eps=1e-5):
    axes = axis if isinstance(axis, tuple) else (axis,)
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    y = (x - mean) / np.sqrt(var + eps)
    if gamma is not None:
        y = y * gamma
    if beta is not None:
        y = y + beta
    return y


def rms_norm(x, gamma, eps=1e-5):
    return x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps) * gamma


def channel(v, ndim=4, axis=1):
    """A per-channel vector shaped to broadcast along ``axis`` of an ``ndim`` tensor."""
    shape = [1] * ndim
    shape[axis] = -1
    return v.reshape(shape)


def batch_norm(x, gamma, beta, mean, var, eps=1e-5, axis=1):
    c = lambda v: channel(v, x.ndim, axis)  # noqa: E731
    return (x - c(mean)) / np.sqrt(c(var) + eps) * c(gamma) + c(beta)


# --- convolution and pooling -----------------------------------------------------------------------

def conv(x, w, stride=1, pad=0, dilation=1, groups=1):
    """N-d cross-correlation, channels-first: x (N, C, *S), w (K, C/groups, *R).

    ``pad`` is an int, a per-dimension int, or per-dimension ``(before, after)`` pairs."""
    nd = x.ndim - 2
    stride, dilation = _per_dim(stride, nd), _per_dim(dilation, nd)
    pads = _pairs(pad, nd)
    xp = np.pad(x, [(0, 0), (0, 0)] + pads)
    n, c = x.shape[:2]
    k, cg = w.shape[:2]
    ks = w.shape[2:]
    out_sp = [(xp.shape[2 + i] - dilation[i] * (ks[i] - 1) - 1) // stride[i] + 1 for i in range(nd)]
    out = np.zeros((n, k, *out_sp))
    for off in np.ndindex(*ks):
        sl = tuple(slice(off[i] * dilation[i], off[i] * dilation[i] + stride[i] * (out_sp[i] - 1) + 1,
                         stride[i]) for i in range(nd))
        patch = xp[(slice(None), slice(None)) + sl]  # (N, C, *out)
        xs = patch.reshape(n, groups, cg, -1)
        ws = w[(slice(None), slice(None)) + off].reshape(groups, k // groups, cg)
        out += np.einsum("ngcs,gkc->ngks", xs, ws).reshape(out.shape)
    return out


def conv_transpose(x, w, stride=1, pad=0, output_padding=0, groups=1):
    """N-d transposed convolution, channels-first: x (N, C, *S), w (C, K/groups, *R) (PyTorch)."""
    nd = x.ndim - 2
    stride, opad = _per_dim(stride, nd), _per_dim(output_padding, nd)
    pads = _pairs(pad, nd)
    n, c = x.shape[:2]
    ks = w.shape[2:]
    kg = w.shape[1]
    full = [(x.shape[2 + i] - 1) * stride[i] + ks[i] + opad[i] for i in range(nd)]
    out = np.zeros((n, kg * groups, *full))
    cg = c // groups
    for off in np.ndindex(*ks):
        sl = tuple(slice(off[i], off[i] + stride[i] * (x.shape[2 + i] - 1) + 1, stride[i]) for i in range(nd))
        for g in range(groups):
            xs = x[:, g * cg:(g + 1) * cg]
            ws = w[(slice(g * cg, (g + 1) * cg), slice(None)) + off]  # (cg, kg)
            out[(slice(None), slice(g * kg, (g + 1) * kg)) + sl] += np.einsum("nc...,ck->nk...", xs, ws)
    crop = tuple(slice(pads[i][0], full[i] - pads[i][1]) for i in range(nd))
    return out[(slice(None), slice(None)) + crop]


def pool(x, kernel, stride, pad=0, kind="max", count_include_pad=True, ceil_mode=False):
    """N-d max/avg pooling, channels-first, zero (avg) or -inf (max) padding."""
    nd = x.ndim - 2
    kernel, stride = _per_dim(kernel, nd), _per_dim(stride, nd)
    pads = _pairs(pad, nd)
    out_sp = []
    for i in range(nd):
        span = x.shape[2 + i] + sum(pads[i]) - kernel[i]
        o = (-(-span // stride[i]) if ceil_mode else span // stride[i]) + 1
        if ceil_mode and (o - 1) * stride[i] >= x.shape[2 + i] + pads[i][0]:
            o -= 1  # the last window must start inside the input or its left padding
        out_sp.append(o)
    # enough right padding for ceil-mode windows; they are masked out of the average below
    extra = [max(0, (out_sp[i] - 1) * stride[i] + kernel[i] - x.shape[2 + i] - sum(pads[i])) for i in range(nd)]
    padw = [(0, 0), (0, 0)] + [(pads[i][0], pads[i][1] + extra[i]) for i in range(nd)]
    fill = -np.inf if kind == "max" else 0.0
    xp = np.pad(x, padw, constant_values=fill)
    inside = np.pad(np.ones(x.shape[2:]), padw[2:])
    counted = np.pad(np.ones([x.shape[2 + i] + sum(pads[i]) for i in range(nd)]),
                     [(0, extra[i]) for i in range(nd)])
    wins, cnt = [], np.zeros(out_sp)
    for off in np.ndindex(*kernel):
        sl = tuple(slice(off[i], off[i] + stride[i] * (out_sp[i] - 1) + 1, stride[i]) for i in range(nd))
        wins.append(xp[(slice(None), slice(None)) + sl])
        cnt = cnt + (counted if count_include_pad else inside)[sl]
    if kind == "max":
        return np.max(wins, axis=0)
    return np.sum(wins, axis=0) / cnt


def adaptive_pool(x, out_size, kind="avg"):
    """Adaptive pooling (PyTorch bins: start = floor(i*L/O), end = ceil((i+1)*L/O))."""
    nd = x.ndim - 2
    out_size = _per_dim(out_size, nd)
    out = np.zeros(x.shape[:2] + tuple(out_size))
    for idx in np.ndindex(*out_size):
        sl = tuple(slice(idx[i] * x.shape[2 + i] // out_size[i],
                         -(-(idx[i] + 1) * x.shape[2 + i] // out_size[i])) for i in range(nd))
        win = x[(slice(None), slice(None)) + sl].reshape(x.shape[0], x.shape[1], -1)
        out[(slice(None), slice(None)) + idx] = win.max(-1) if kind == "max" else win.mean(-1)
    return out


def _per_dim(v, nd):
    return list(v) if isinstance(v, (tuple, list)) else [v] * nd


def _pairs(pad, nd):
    if isinstance(pad, int):
        return [(pad, pad)] * nd
    return [tuple(p) if isinstance(p, (tuple, list)) else (p, p) for p in pad]


# --- attention -------------------------------------------------------------------------------------

def attention(q, k, v, bias=None, scale=None):
    """softmax(q k^T * scale + bias) v over the last two axes."""
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    s = np.matmul(q, np.swapaxes(k, -1, -2)) * scale
    if bias is not None:
        s = s + bias
    return np.matmul(softmax(s), v)


# --- integer arithmetic (exact, as the kernels do it) ----------------------------------------------

def rounding_rshift(x, shift):
    """(x + 2^(shift-1)) >> shift on integers (arithmetic shift: rounds halves up)."""
    x = np.asarray(x, dtype=np.int64)
    return (x + (1 << (shift - 1))) >> shift if shift > 0 else x


def saturate(x, dtype="int8"):
    info = np.iinfo(dtype)
    return np.clip(x, info.min, info.max)


# --- signal processing -----------------------------------------------------------------------------

def hann(n):
    """Periodic Hann window (as librosa/torch.stft use)."""
    return 0.5 - 0.5 * np.cos(2.0 * np.pi * np.arange(n) / n)


def frames(x, frame, hop):
    """(..., T) → (..., F, frame) overlapping frames, F = 1 + (T - frame) // hop."""
    count = 1 + (x.shape[-1] - frame) // hop
    idx = np.arange(count)[:, None] * hop + np.arange(frame)[None, :]
    return x[..., idx]


def dft_basis(n_fft, bins):
    """cos and -sin bases (n_fft, bins) of the real DFT, angles reduced modulo n_fft exactly."""
    nk = (np.arange(n_fft)[:, None] * np.arange(bins)[None, :]) % n_fft
    ang = 2.0 * np.pi * nk / n_fft
    return np.cos(ang), -np.sin(ang)


def hz_to_mel(f):
    return 2595.0 * np.log10(1.0 + f / 700.0)


def mel_to_hz(m):
    return 700.0 * (10.0 ** (m / 2595.0) - 1.0)


def mel_filterbank(n_fft, n_mels, sample_rate, f_min=0.0, f_max=None):
    """HTK-style triangular mel filters (bins, n_mels) on the rfft bin frequencies."""
    f_max = sample_rate / 2.0 if f_max is None else f_max
    bins = n_fft // 2 + 1
    freqs = np.arange(bins) * sample_rate / n_fft
    pts = mel_to_hz(np.linspace(hz_to_mel(f_min), hz_to_mel(f_max), n_mels + 2))
    lower, centre, upper = pts[:-2], pts[1:-1], pts[2:]
    up = (freqs[:, None] - lower[None, :]) / (centre - lower)[None, :]
    down = (upper[None, :] - freqs[:, None]) / (upper - centre)[None, :]
    return np.maximum(0.0, np.minimum(up, down))


def mel_filterbank_tf(n_fft, n_mels, sample_rate, f_min, f_max):
    """Triangular mel filters (bins, n_mels) as ``tf.signal.linear_to_mel_weight_matrix`` makes
    them: linear in mel (not in Hz) between edges evenly spaced in mel over [f_min, f_max], the DC
    bin weighted zero."""
    def mel(f):
        return 1127.0 * np.log1p(np.asarray(f, dtype=np.float64) / 700.0)

    bins = mel(np.arange(n_fft // 2 + 1) * sample_rate / n_fft)[:, None]
    edges = np.linspace(mel(f_min), mel(f_max), n_mels + 2)
    lower, centre, upper = edges[:-2], edges[1:-1], edges[2:]
    w = np.maximum(0.0, np.minimum((bins - lower) / (centre - lower), (upper - bins) / (upper - centre)))
    w[0] = 0.0
    return w


def dct_ii_ortho(n_in, n_out):
    """Orthonormal DCT-II basis (n_in, n_out), as scipy.fft.dct(norm='ortho')."""
    k = np.arange(n_out)[None, :]
    i = np.arange(n_in)[:, None]
    basis = np.cos(np.pi * k * (2 * i + 1) / (2 * n_in)) * math.sqrt(2.0 / n_in)
    basis[:, 0] /= math.sqrt(2.0)
    return basis


def dct_ii_htk(n_in, n_out):
    """DCT-II basis (n_in, n_out) scaled by sqrt(2 / n_in) for every coefficient (HTK's, which
    ``tf.signal.mfccs_from_log_mel_spectrograms`` follows): the 0th is sqrt(2) times the orthonormal one."""
    basis = dct_ii_ortho(n_in, n_out)
    basis[:, 0] *= math.sqrt(2.0)
    return basis
