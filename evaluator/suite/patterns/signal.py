"""Signal processing for audio and sensor front ends: FIR filtering (plain, decimating,
interpolating, moving average), IIR filters (de-emphasis, biquad), framing and windowing, the real
DFT and its inverse as explicit sums, power and mel spectra, DCT-II, MFCCs (from a power
spectrum, and the whole front end from raw samples — among them the 49 x 10 MFCC input of MLPerf
Tiny's keyword spotter, as its training script computes it with ``tf.signal``), correlations,
overlap-add, delta features, frame statistics, mu-law companding, complex products, Goertzel tone
detection and GCC-PHAT time-delay estimation.

Conventions: filters are causal with zero initial state; windows are periodic Hann; DFT bins
k = 0..N/2 with angles reduced modulo N in integer arithmetic (so float32 never sees a large
angle); mel filters are HTK-style triangles computed in the kernel from the bin frequencies (not
loaded), linear in Hz over 0..sr/2; the DCT-II is orthonormal. The ``tf.signal`` front end keeps
TensorFlow's conventions instead: the magnitude spectrum, triangles linear in mel over
[fmin, fmax] with the DC bin excluded, and the DCT-II scaled by sqrt(2/M) for every coefficient.
IIR filters and the Goertzel recurrence are sequential in time: their canonical compute is a
parallel-over-rows loop nest written with TVM's IR builder, as TOPI writes its scans. References
use NumPy (``np.fft``, ``np.convolve``) and closed forms.
"""

import math

import numpy as np
from tvm import te, topi, tirx
from tvm.script.ir_builder import IRBuilder
from tvm.script.ir_builder import tirx as T

from evaluator.suite import refs
from evaluator.suite.base import OpPattern, Tensor
from evaluator.suite.declare import wl
from evaluator.suite.heldout import ShapeSpace

PRE = 0.97           # pre-/de-emphasis coefficient
MU = 255.0           # mu-law
EPS_LOG = 1e-6       # log-mel floor
TOP_DB = 80.0
DTMF_N, DTMF_BINS = 205, (18, 20, 22, 24, 31, 34, 38, 42)  # 8 kHz, the classic Goertzel bins


def _biquad_coeffs(f0=1000.0, fs=16000.0, q=1 / math.sqrt(2)):
    """RBJ audio-EQ-cookbook low-pass, normalised so a0 = 1: (b0, b1, b2, a1, a2)."""
    w = 2 * math.pi * f0 / fs
    alpha = math.sin(w) / (2 * q)
    a0 = 1 + alpha
    b1 = (1 - math.cos(w)) / a0
    return b1 / 2, b1, b1 / 2, -2 * math.cos(w) / a0, (1 - alpha) / a0


BIQUAD = _biquad_coeffs()


# --- helpers: TE ----------------------------------------------------------------------------------

def _f32(x):
    return x.astype("float32")


def _hann_te(n_frame, name="T_window"):
    return te.compute((n_frame,), lambda i: 0.5 - 0.5 * te.cos((2.0 * math.pi / n_frame) * _f32(i)), name=name)


def _dft_te(frames, shape_fk, n_fft, sign_name=""):
    """(re, im) of sum_n frames(f, n) e^{-2 pi i n k / N}, angles from (n k) mod N."""
    f_count, bins = shape_fk
    w = 2.0 * math.pi / n_fft
    n1 = te.reduce_axis((0, n_fft), name="n1")
    re = te.compute((f_count, bins), lambda f, k: te.sum(frames(f, n1) * te.cos(w * _f32((n1 * k) % n_fft)), axis=n1),
                    name="T_re" + sign_name)
    n2 = te.reduce_axis((0, n_fft), name="n2")
    im = te.compute((f_count, bins), lambda f, k: te.sum(-frames(f, n2) * te.sin(w * _f32((n2 * k) % n_fft)), axis=n2),
                    name="T_im" + sign_name)
    return re, im


def _mel_weights_te(p):
    """(bins, mels) HTK triangles on the rfft bin frequencies, computed in the kernel."""
    sr, n_fft, mels = p["sr"], p["nfft"], p["mels"]
    lo_mel, hi_mel = refs.hz_to_mel(0.0), refs.hz_to_mel(sr / 2.0)
    step = (hi_mel - lo_mel) / (mels + 1)

    def hz(j):
        return 700.0 * (te.power(10.0, (lo_mel + _f32(j) * step) / 2595.0) - 1.0)

    def weight(k, m):
        f = _f32(k) * (sr / n_fft)
        lo, ce, hi = hz(m), hz(m + 1), hz(m + 2)
        return te.max(te.min((f - lo) / (ce - lo), (hi - f) / (hi - ce)), 0.0)
    return te.compute((n_fft // 2 + 1, mels), weight, name="T_mel_weights")


def _mel_weights_tf_te(p):
    """(bins, mels) triangles linear in mel between edges evenly spaced in mel over [fmin, fmax],
    the DC bin zero (``tf.signal.linear_to_mel_weight_matrix``), computed in the kernel."""
    sr, n_fft, mels = p["sr"], p["nfft"], p["mels"]
    lo, hi = (1127.0 * math.log1p(f / 700.0) for f in (p["fmin"], p["fmax"]))
    step = (hi - lo) / (mels + 1)

    def weight(k, m):
        mel = 1127.0 * te.log(1.0 + _f32(k) * (sr / n_fft / 700.0))
        lower = lo + _f32(m) * step
        tri = te.max(te.min((mel - lower) / step, (lower + 2.0 * step - mel) / step), 0.0)
        return te.if_then_else(k == 0, 0.0, tri)
    return te.compute((n_fft // 2 + 1, mels), weight, name="T_mel_weights")


def _mel_te(power, p):
    wts = _mel_weights_te(p)
    k = te.reduce_axis((0, p["nfft"] // 2 + 1), name="kb")
    return te.compute((power.shape[0], p["mels"]), lambda f, m: te.sum(power[f, k] * wts[k, m], axis=k), name="T_mel")


def _dct_te(x, n_in, n_out, name="T_dct", htk=False):
    """Orthonormal DCT-II along the last axis (``htk``: every coefficient scaled sqrt(2/n_in), the 0th
    too); basis angle pi k (2i+1) / (2 n_in) reduced mod 4 n_in."""
    first = math.sqrt((2.0 if htk else 1.0) / n_in)
    basis = te.compute((n_in, n_out), lambda i, k: te.cos((math.pi / (2 * n_in)) * _f32((k * (2 * i + 1)) % (4 * n_in)))
                       * te.if_then_else(k == 0, first, math.sqrt(2.0 / n_in)), name="T_dct_basis")
    i = te.reduce_axis((0, n_in), name="i")
    return te.compute((x.shape[0], n_out), lambda f, k: te.sum(x[f, i] * basis[i, k], axis=i), name=name)


def _frames_te(x, p):
    """(F, N) overlapping frames of the 1-D signal x."""
    return lambda f, i: x[f * p["hop"] + i]


def _n_frames(p):
    return 1 + (p["n"] - p["frame"]) // p["hop"]


def _power_from_signal(p, x):
    window = _hann_te(p["frame"])
    framed = te.compute((_n_frames(p), p["frame"]), lambda f, i: x[f * p["hop"] + i] * window[i], name="T_frames")
    frame = p["frame"]  # frames shorter than the DFT are zero-padded
    re, im = _dft_te(lambda f, n: framed[f, n] if frame == p["nfft"] else
                     te.if_then_else(n < frame, framed[f, te.min(n, frame - 1)], 0.0),
                     (_n_frames(p), p["nfft"] // 2 + 1), p["nfft"])
    return te.compute(re.shape, lambda f, k: re[f, k] * re[f, k] + im[f, k] * im[f, k], name="T_power")


def _log_te(m):
    return te.compute(m.shape, lambda f, j: te.log(m[f, j] + EPS_LOG), name="T_log_mel")


def _frame_window(p, x):
    window = _hann_te(p["frame"])
    return te.compute((_n_frames(p), p["frame"]), lambda f, i: x[f * p["hop"] + i] * window[i], name="T_frame_window")


def _log_mel(p, P):
    return _log_te(_mel_te(P, p))


def _mfcc(p, P):
    return _dct_te(_log_mel(p, P), p["mels"], p["c"], name="T_mfcc")


def _mfcc_frontend(p, x):
    return _mfcc(p, _power_from_signal(p, x))


def _mfcc_frontend_tf(p, x):
    power = _power_from_signal(p, x)
    mag = te.compute(power.shape, lambda f, k: te.sqrt(power[f, k]), name="T_magnitude")
    wts = _mel_weights_tf_te(p)
    k = te.reduce_axis((0, p["nfft"] // 2 + 1), name="kb")
    mel = te.compute((mag.shape[0], p["mels"]), lambda f, m: te.sum(mag[f, k] * wts[k, m], axis=k), name="T_mel")
    return _dct_te(_log_te(mel), p["mels"], p["c"], name="T_mfcc", htk=True)


def _rfft_np(X):
    spec = np.fft.rfft(X, axis=-1)
    return [spec.real, spec.imag]


def _recurrence(name, inputs, out_shape, body):
    """A sequential-in-time loop nest: ``body(ins, out)`` writes it with the IR builder."""
    def gen(ins, outs):
        with IRBuilder() as ib:
            body([T.buffer_proxy(b) for b in ins], T.buffer_proxy(outs[0]))
        return ib.get()
    out = tirx.decl_buffer(out_shape, "float32", "out_buf")
    return te.extern([out_shape], inputs, gen, dtype="float32", out_buffers=[out], name=name)


# --- helpers: NumPy -------------------------------------------------------------------------------

def _causal_fir(x, h):
    return np.stack([np.convolve(row, h)[:x.shape[-1]] for row in x.reshape(-1, x.shape[-1])]).reshape(x.shape)


def _frames_np(x, p):
    return refs.frames(x, p["frame"], p["hop"])


def _power_np(x, p):
    fr = _frames_np(x, p) * refs.hann(p["frame"])
    spec = np.fft.rfft(fr, n=p["nfft"], axis=-1)
    return spec.real ** 2 + spec.imag ** 2


def _mel_np(power, p):
    return power @ refs.mel_filterbank(p["nfft"], p["mels"], p["sr"])


def _mfcc_tf_np(p, x):
    mag = np.sqrt(_power_np(x, p))
    mel = mag @ refs.mel_filterbank_tf(p["nfft"], p["mels"], p["sr"], p["fmin"], p["fmax"])
    return np.log(mel + EPS_LOG) @ refs.dct_ii_htk(p["mels"], p["c"])


def _dct_np(x, n_out):
    return x @ refs.dct_ii_ortho(x.shape[-1], n_out)


def _iir_np(x, b, a):
    """Direct form I: y[t] = sum b[i] x[t-i] - sum_{i>=1} a[i] y[t-i] (a[0] = 1)."""
    y = np.zeros_like(x)
    for t in range(x.shape[-1]):
        acc = sum(b[i] * x[..., t - i] for i in range(len(b)) if t - i >= 0)
        acc = acc - sum(a[i] * y[..., t - i] for i in range(1, len(a)) if t - i >= 0)
        y[..., t] = acc
    return y


# --- computes -------------------------------------------------------------------------------------

def _fir(p, X, H):
    taps = p["t"]
    xp = topi.nn.pad(X, (0, taps - 1), (0, 0), name="T_pad")
    j = te.reduce_axis((0, taps), name="j")
    d = p.get("down", 1)
    return te.compute((p["b"], p["n"] // d), lambda b, i: te.sum(H[j] * xp[b, i * d + taps - 1 - j], axis=j),
                      name="T_fir")


def _fir_interp(p, X, H):
    taps, up = p["t"], p["up"]
    j = te.reduce_axis((0, taps), name="j")

    def y(b, i):
        src = i - j
        return te.sum(te.if_then_else(te.all(src >= 0, src % up == 0), H[j] * X[b, te.max(src, 0) // up], 0.0), axis=j)
    return te.compute((p["b"], p["n"] * up), y, name="T_fir_interpolate")


def _fir_interp_ref(p, X, H):
    u = np.zeros((p["b"], p["n"] * p["up"]))
    u[:, ::p["up"]] = X
    return _causal_fir(u, H)


def _moving_average(p, X):
    k = p["k"]
    xp = topi.nn.pad(X, (0, k - 1), (0, 0), name="T_pad")
    j = te.reduce_axis((0, k), name="j")
    s = te.compute(X.shape, lambda b, i: te.sum(xp[b, i + j], axis=j), name="T_window_sum")
    return te.compute(X.shape, lambda b, i: s[b, i] * (1.0 / k), name="T_moving_average")


def _deemphasis(p, X):
    rows, n = p["b"], p["n"]

    def body(ins, y):
        x = ins[0]
        with T.parallel(0, rows) as r:
            y[r, 0] = x[r, 0]
            with T.serial(0, n - 1) as t:
                y[r, t + 1] = x[r, t + 1] + T.float32(PRE) * y[r, t]
    return _recurrence("T_deemphasis", [X], (rows, n), body)


def _biquad(p, X):
    rows, n = p["b"], p["n"]
    b0, b1, b2, a1, a2 = (T.float32(c) for c in BIQUAD)

    def body(ins, y):
        x = ins[0]
        with T.parallel(0, rows) as r:
            y[r, 0] = b0 * x[r, 0]
            y[r, 1] = b0 * x[r, 1] + b1 * x[r, 0] - a1 * y[r, 0]
            with T.serial(2, n) as t:
                y[r, t] = b0 * x[r, t] + b1 * x[r, t - 1] + b2 * x[r, t - 2] - a1 * y[r, t - 1] - a2 * y[r, t - 2]
    return _recurrence("T_biquad", [X], (rows, n), body)


def _goertzel(p, X):
    frames, n = p["f"], p["n"]

    def body(ins, out):
        x = ins[0]
        with T.parallel(0, frames) as r:
            for b, k in enumerate(DTMF_BINS):  # one sequential pass per bin, unrolled in Python
                coeff = T.float32(2.0 * math.cos(2.0 * math.pi * k / n))
                s = T.buffer_proxy(T.alloc_buffer((3,), "float32", scope="local"))  # s[n-1], s[n-2], s[n]
                s[0] = T.float32(0.0)
                s[1] = T.float32(0.0)
                with T.serial(0, n) as t:
                    s[2] = x[r, t] + coeff * s[0] - s[1]
                    s[1] = s[0]
                    s[0] = s[2]
                out[r, b] = s[0] * s[0] + s[1] * s[1] - coeff * s[0] * s[1]
    return _recurrence("T_goertzel", [X], (frames, len(DTMF_BINS)), body)


def _goertzel_ref(p, X):
    n = np.arange(p["n"])
    basis = np.exp(-2j * np.pi * np.outer(n, DTMF_BINS) / p["n"])
    return np.abs(X @ basis) ** 2


def _autocorr(p, X):
    n = p["n"]
    t = te.reduce_axis((0, n), name="t")
    return te.compute((p["f"], p["lags"]), lambda f, k: te.sum(
        te.if_then_else(t + k < n, X[f, t] * X[f, te.min(t + k, n - 1)], 0.0), axis=t), name="T_autocorr")


def _autocorr_ref(p, X):
    n = p["n"]
    return np.stack([(X[:, :n - k] * X[:, k:]).sum(axis=1) for k in range(p["lags"])], axis=1)


def _xcorr(p, X, Y):
    t = te.reduce_axis((0, p["n"]), name="t")
    return te.compute((p["b"], p["lags"]), lambda b, k: te.sum(X[b, t] * Y[b, t + k], axis=t), name="T_xcorr")


def _xcorr_ref(p, X, Y):
    return np.stack([(X * Y[:, k:k + p["n"]]).sum(axis=1) for k in range(p["lags"])], axis=1)


def _overlap_add(p, X):
    frames, n, hop = p["f"], p["n"], p["hop"]
    length = (frames - 1) * hop + n
    f = te.reduce_axis((0, frames), name="f")

    def y(t):
        i = t - f * hop
        return te.sum(te.if_then_else(te.all(i >= 0, i < n), X[f, te.min(te.max(i, 0), n - 1)], 0.0), axis=f)
    return te.compute((length,), y, name="T_overlap_add")


def _overlap_add_ref(p, X):
    y = np.zeros((p["f"] - 1) * p["hop"] + p["n"])
    for f in range(p["f"]):
        y[f * p["hop"]:f * p["hop"] + p["n"]] += X[f]
    return y


def _delta(p, X):
    """d[t] = sum_{n=1..2} n (c[t+n] - c[t-n]) / 10, frames clamped at the edges (HTK)."""
    last = p["t"] - 1

    def c(t):
        return te.min(te.max(t, 0), last)
    return te.compute(X.shape, lambda t, j: (X[c(t + 1), j] - X[c(t - 1), j] + 2.0 * (X[c(t + 2), j] - X[c(t - 2), j]))
                      * 0.1, name="T_delta")


def _delta_ref(p, X):
    xp = np.pad(X, ((2, 2), (0, 0)), mode="edge")
    t = p["t"]
    return ((xp[3:t + 3] - xp[1:t + 1]) + 2 * (xp[4:t + 4] - xp[0:t])) / 10.0


def _zcr(p, X):
    i = te.reduce_axis((1, p["n"]), name="i")
    c = te.compute((p["f"],), lambda f: te.sum(te.if_then_else(X[f, i] * X[f, i - 1] < 0.0, 1.0, 0.0), axis=i),
                   name="T_crossings")
    return te.compute((p["f"],), lambda f: c[f] / p["n"], name="T_zcr")


def _log_energy(p, X):
    i = te.reduce_axis((0, p["n"]), name="i")
    e = te.compute((p["f"],), lambda f: te.sum(X[f, i] * X[f, i], axis=i), name="T_energy")
    return te.compute((p["f"],), lambda f: te.log(e[f] + 1e-10), name="T_log_energy")


def _centroid(p, P):
    hz = p["sr"] / p["nfft"]
    k1 = te.reduce_axis((0, p["k"]), name="k1")
    num = te.compute((p["f"],), lambda f: te.sum(P[f, k1] * (_f32(k1) * hz), axis=k1), name="T_weighted")
    k2 = te.reduce_axis((0, p["k"]), name="k2")
    den = te.compute((p["f"],), lambda f: te.sum(P[f, k2], axis=k2), name="T_total")
    return te.compute((p["f"],), lambda f: num[f] / den[f], name="T_centroid")


def _peak_normalize(p, X):
    i = te.reduce_axis((0, p["n"]), name="i")
    peak = te.compute((p["b"],), lambda b: te.max(te.abs(X[b, i]), axis=i), name="T_peak")
    return te.compute(X.shape, lambda b, t: X[b, t] / peak[b], name="T_normalize")


def _dc_removal(p, X):
    i = te.reduce_axis((0, p["n"]), name="i")
    s = te.compute((p["f"],), lambda f: te.sum(X[f, i], axis=i), name="T_sum")
    return te.compute(X.shape, lambda f, t: X[f, t] - s[f] / p["n"], name="T_dc_removal")


def _complex_mul(p, ar, ai, br, bi):
    cr = te.compute(ar.shape, lambda *i: ar(*i) * br(*i) - ai(*i) * bi(*i), name="T_real")
    ci = te.compute(ar.shape, lambda *i: ar(*i) * bi(*i) + ai(*i) * br(*i), name="T_imag")
    return [cr, ci]


def _mu_encode(p, X):
    return te.compute(X.shape, lambda *i: te.if_then_else(X(*i) < 0.0, -1.0, 1.0) * te.log(1.0 + MU * te.abs(X(*i)))
                      / math.log(1.0 + MU), name="T_mu_law")


def _mu_decode(p, Y):
    return te.compute(Y.shape, lambda *i: te.if_then_else(Y(*i) < 0.0, -1.0, 1.0)
                      * (te.power(1.0 + MU, te.abs(Y(*i))) - 1.0) / MU, name="T_mu_law_inverse")


def _idft(p, re, im):
    """x[f, t] = (1/N) sum_k c_k (Re_k cos(2 pi k t / N) - Im_k sin(...)), c_0 = c_{N/2} = 1, else 2."""
    n, bins = p["nfft"], p["nfft"] // 2 + 1
    w = 2.0 * math.pi / n
    k = te.reduce_axis((0, bins), name="k")

    def x(f, t):
        ang = w * _f32((k * t) % n)
        c = te.if_then_else(te.any(k == 0, k == bins - 1), 1.0 / n, 2.0 / n)
        edge = te.any(k == 0, k == bins - 1)  # irfft ignores the imaginary part of DC and Nyquist
        return te.sum(c * (re[f, k] * te.cos(ang) - te.if_then_else(edge, 0.0, im[f, k] * te.sin(ang))), axis=k)
    return te.compute((p["f"], n), x, name="T_idft")


def _gcc_phat(p, xr, xi, yr, yi):
    """R = X conj(Y) / |X conj(Y)|, then the inverse real DFT: the PHAT-weighted cross-correlation."""
    cr = te.compute(xr.shape, lambda f, k: xr[f, k] * yr[f, k] + xi[f, k] * yi[f, k], name="T_cross_re")
    ci = te.compute(xr.shape, lambda f, k: xi[f, k] * yr[f, k] - xr[f, k] * yi[f, k], name="T_cross_im")
    mag = te.compute(xr.shape, lambda f, k: te.sqrt(cr[f, k] * cr[f, k] + ci[f, k] * ci[f, k]) + 1e-12, name="T_mag")
    wr = te.compute(xr.shape, lambda f, k: cr[f, k] / mag[f, k], name="T_phat_re")
    wi = te.compute(xr.shape, lambda f, k: ci[f, k] / mag[f, k], name="T_phat_im")
    return _idft(p, wr, wi)


def _gcc_phat_ref(p, xr, xi, yr, yi):
    cross = (xr + 1j * xi) * np.conj(yr + 1j * yi)
    return np.fft.irfft(cross / (np.abs(cross) + 1e-12), n=p["nfft"], axis=-1)


def _power_to_db(p, P):
    db = te.compute(P.shape, lambda f, k: 10.0 * te.log10(te.max(P[f, k], 1e-10)), name="T_db")
    f1, k1 = te.reduce_axis((0, p["f"]), name="f1"), te.reduce_axis((0, p["k"]), name="k1")
    top = te.compute((1,), lambda _: te.max(db[f1, k1], axis=[f1, k1]), name="T_top")
    return te.compute(P.shape, lambda f, k: te.max(db[f, k], top[0] - TOP_DB), name="T_power_to_db")


def _power_to_db_ref(p, P):
    db = 10.0 * np.log10(np.maximum(P, 1e-10))
    return np.maximum(db, db.max() - TOP_DB)


# --- patterns -------------------------------------------------------------------------------------

def _pattern(name, summary, inputs, compute, reference, flops, workloads, level="L1",
             domains=("signal-processing", "audio"), shape_space=None):
    return OpPattern(id=f"signal/{name}", family="signal", level=level, domains=domains, summary=summary,
                     inputs=inputs, compute=compute, reference=reference, vendor=None, flops=flops,
                     workloads=workloads, shape_space=shape_space)


def _sig(p):
    return [Tensor("x", (p["b"], p["n"]))]


def _frames_in(p, init="normal"):
    return [Tensor("X", (p["f"], p["n"]), init=init)]


def _spec_in(p, init="positive"):
    return [Tensor("P", (p["f"], p["nfft"] // 2 + 1), init=init, scale=10.0)]


# MLPerf Tiny KWS front end (its get_dataset.py): 1 s at 16 kHz, 30 ms / 20 ms frames, FFT 512,
# 40 mel bands over 20-4000 Hz, 10 MFCCs: 49 x 10
_KWS = dict(n=16000, frame=480, hop=320, nfft=512, sr=16000, mels=40, fmin=20, fmax=4000)
_ASR = dict(n=16000, frame=400, hop=160, nfft=512, sr=16000, mels=40)   # 25 ms / 10 ms frames
_STFT_KWS = dict(n=16000, frame=480, hop=320, nfft=512)   # the KWS framing (its front end takes |X|)
_STFT_ASR = dict(n=16000, frame=400, hop=160, nfft=512)


def _dft_flops(frames, n_fft):
    return 4 * frames * n_fft * (n_fft // 2 + 1)


def _mel_flops(p, frames):
    return 2 * frames * (p["nfft"] // 2 + 1) * p["mels"]


PATTERNS = [
    _pattern("fir-filter", "y[b, t] = sum_j h[j] x[b, t - j] (causal FIR, zero initial state)",
             lambda p: _sig(p) + [Tensor("h", (p["t"],), init="uniform", scale=0.2)], _fir,
             lambda p, X, H: _causal_fir(X, H), lambda p: 2 * p["b"] * p["n"] * p["t"],
             [wl(b=1, n=16000, t=64), wl(b=8, n=4096, t=31, domains=("anomaly-detection",))]),
    _pattern("fir-decimate", "y[b, t] = sum_j h[j] x[b, t*D - j] (anti-alias filter + keep every D-th sample)",
             lambda p: _sig(p) + [Tensor("h", (p["t"],), init="uniform", scale=0.2)], _fir,
             lambda p, X, H: _causal_fir(X, H)[:, ::p["down"]], lambda p: 2 * p["b"] * p["n"] // p["down"] * p["t"],
             [wl(b=1, n=48000, t=63, down=3), wl(b=4, n=8192, t=32, down=4)]),
    _pattern("fir-interpolate", "y = h * (x with L-1 zeros after each sample) (zero-stuffing upsampler + FIR)",
             lambda p: _sig(p) + [Tensor("h", (p["t"],), init="uniform", scale=0.2)], _fir_interp, _fir_interp_ref,
             lambda p: 2 * p["b"] * p["n"] * p["t"], [wl(b=1, n=8000, t=48, up=2)]),
    _pattern("moving-average", "y[b, t] = (1/K) sum_{j<K} x[b, t - j] (causal boxcar, zero initial state)",
             _sig, _moving_average, lambda p, X: _causal_fir(X, np.ones(p["k"]) / p["k"]),
             lambda p: p["b"] * p["n"] * p["k"],
             [wl(b=6, n=4096, k=32, domains=("anomaly-detection", "signal-processing"))]),
    _pattern("pre-emphasis", f"y[t] = x[t] - {PRE} x[t-1], y[0] = x[0]", _sig,
             lambda p, X: te.compute(X.shape,
                                     lambda b, t: te.if_then_else(t == 0, X[b, t],
                                                                  X[b, t] - PRE * X[b, te.max(t - 1, 0)]),
                                     name="T_pre_emphasis"),
             lambda p, X: np.concatenate([X[:, :1], X[:, 1:] - PRE * X[:, :-1]], axis=1),
             lambda p: 2 * p["b"] * p["n"], [wl(b=1, n=16000), wl(b=4, n=16000)]),
    _pattern("de-emphasis", f"y[t] = x[t] + {PRE} y[t-1] (first-order IIR; sequential in t)", _sig, _deemphasis,
             lambda p, X: _iir_np(X, [1.0], [1.0, -PRE]), lambda p: 2 * p["b"] * p["n"],
             [wl(b=1, n=16000), wl(b=16, n=4000)]),
    _pattern("biquad", "y[t] = b0 x[t] + b1 x[t-1] + b2 x[t-2] - a1 y[t-1] - a2 y[t-2] (RBJ low-pass, 1 kHz at 16 kHz)",
             _sig, _biquad, lambda p, X: _iir_np(X, BIQUAD[:3], (1.0,) + BIQUAD[3:]), lambda p: 9 * p["b"] * p["n"],
             [wl(b=1, n=16000), wl(b=8, n=4096, domains=("anomaly-detection", "signal-processing"))]),
    _pattern("frame", "Y[b, f, i] = x[b, f*hop + i] (overlapping frames)", _sig,
             lambda p, X: te.compute((p["b"], 1 + (p["n"] - p["frame"]) // p["hop"], p["frame"]),
                                     lambda b, f, i: X[b, f * p["hop"] + i], name="T_frame"),
             lambda p, X: refs.frames(X, p["frame"], p["hop"]), lambda p: 0,
             [wl(b=1, n=16000, frame=400, hop=160), wl(b=2, n=16000, frame=640, hop=320)]),
    _pattern("frame-window", "Y[f, i] = x[f*hop + i] * hann[i] (frames times a periodic Hann window)",
             lambda p: [Tensor("x", (p["n"],))],
             _frame_window,
             lambda p, X: _frames_np(X, p) * refs.hann(p["frame"]),
             lambda p: _n_frames(p) * p["frame"] * 4,
             [wl(n=16000, frame=400, hop=160), wl(n=16000, frame=640, hop=320)]),
    _pattern("dft-real", "Re[f, k] + i Im[f, k] = sum_n X[f, n] e^{-2 pi i n k / N}, k = 0..N/2 (DFT as a matmul)",
             lambda p: [Tensor("X", (p["f"], p["nfft"]))],
             lambda p, X: list(_dft_te(lambda f, n: X[f, n], (p["f"], p["nfft"] // 2 + 1), p["nfft"])),
             lambda p, X: _rfft_np(X),
             lambda p: _dft_flops(p["f"], p["nfft"]), [wl(f=98, nfft=512), wl(f=49, nfft=640)]),
    _pattern("idft-real", "x[f, t] = inverse real DFT of (Re, Im)[f, 0..N/2] (irfft as a matmul)",
             lambda p: [Tensor("re", (p["f"], p["nfft"] // 2 + 1)), Tensor("im", (p["f"], p["nfft"] // 2 + 1))],
             _idft, lambda p, re, im: np.fft.irfft(re + 1j * im, n=p["nfft"], axis=-1),
             lambda p: _dft_flops(p["f"], p["nfft"]), [wl(f=98, nfft=512)]),
    _pattern("power-spectrum", "P = Re^2 + Im^2",
             lambda p: [Tensor("re", (p["f"], p["k"])), Tensor("im", (p["f"], p["k"]))],
             lambda p, re, im: te.compute(re.shape, lambda f, k: re[f, k] * re[f, k] + im[f, k] * im[f, k],
                                          name="T_power"),
             lambda p, re, im: re ** 2 + im ** 2, lambda p: 3 * p["f"] * p["k"], [wl(f=98, k=257), wl(f=49, k=321)]),
    _pattern("stft-power", "P[f, k] = |DFT(hann * frame_f(x))[k]|^2 (short-time power spectrum from samples)",
             lambda p: [Tensor("x", (p["n"],))], _power_from_signal, lambda p, x: _power_np(x, p),
             lambda p: _dft_flops(_n_frames(p), p["nfft"]), [wl(**_STFT_ASR), wl(**_STFT_KWS)], level="L2"),
    _pattern("mel-filterbank", "M[f, m] = sum_k P[f, k] tri_m(k) (HTK mel triangles computed in the kernel)",
             _spec_in, lambda p, P: _mel_te(P, p), lambda p, P: _mel_np(P, p),
             lambda p: _mel_flops(p, p["f"]),
             [wl(f=98, nfft=512, sr=16000, mels=40), wl(f=49, nfft=640, sr=16000, mels=40)]),
    _pattern("log-mel", f"L = log(mel_filterbank(P) + {EPS_LOG:g}) (log-mel spectrogram from a power spectrum)",
             _spec_in, _log_mel,
             lambda p, P: np.log(_mel_np(P, p) + EPS_LOG),
             lambda p: _mel_flops(p, p["f"]) + p["f"] * p["mels"], [wl(f=98, nfft=512, sr=16000, mels=64)], level="L2"),
    _pattern("dct-ii", "C[f, k] = sum_i X[f, i] cos(pi k (2i + 1) / 2M) s_k (orthonormal DCT-II, basis in-kernel)",
             lambda p: [Tensor("X", (p["f"], p["m"]))], lambda p, X: _dct_te(X, p["m"], p["c"]),
             lambda p, X: _dct_np(X, p["c"]), lambda p: 2 * p["f"] * p["m"] * p["c"],
             [wl(f=49, m=40, c=10), wl(f=98, m=40, c=13)]),
    _pattern("mfcc", "C = DCT-II(log(mel_filterbank(P) + 1e-6))[:, :c] (MFCCs from a power spectrum)",
             _spec_in, _mfcc,
             lambda p, P: _dct_np(np.log(_mel_np(P, p) + EPS_LOG), p["c"]),
             lambda p: _mel_flops(p, p["f"]) + 2 * p["f"] * p["mels"] * p["c"],
             [wl(f=98, nfft=512, sr=16000, mels=40, c=13)], level="L2"),
    _pattern("mfcc-frontend", "MFCC front end from raw samples: frames, Hann, DFT power, mel, log, DCT (ASR: 98 x 13)",
             lambda p: [Tensor("x", (p["n"],))],
             _mfcc_frontend,
             lambda p, x: _dct_np(np.log(_mel_np(_power_np(x, p), p) + EPS_LOG), p["c"]),
             lambda p: (_dft_flops(_n_frames(p), p["nfft"]) + _mel_flops(p, _n_frames(p))
                        + 2 * _n_frames(p) * p["mels"] * p["c"]),
             [wl(**_ASR, c=13)], level="L2"),
    _pattern("mfcc-frontend-tf", "MFCCs from raw samples as tf.signal computes them (MLPerf Tiny KWS: 49 x 10): "
             "|DFT(hann * frame)|, mel triangles linear in mel over [fmin, fmax], log(+1e-6), DCT-II x sqrt(2/M)",
             lambda p: [Tensor("x", (p["n"],))],
             _mfcc_frontend_tf, _mfcc_tf_np,
             lambda p: (_dft_flops(_n_frames(p), p["nfft"]) + 4 * _n_frames(p) * (p["nfft"] // 2 + 1)
                        + _mel_flops(p, _n_frames(p)) + 2 * _n_frames(p) * p["mels"] * p["c"]),
             [wl(**_KWS, c=10, source="MLPerf Tiny KWS (keyword_spotting/get_dataset.py, feature_type mfcc)")],
             level="L2",
             # the band edges are the reference's; a frame fits its FFT, and the MFCCs kept its mel bands
             shape_space=ShapeSpace(fixed=frozenset({"fmin", "fmax"}),
                                    valid=lambda p: p["frame"] <= p["nfft"] and p["c"] <= p["mels"])),
    _pattern("autocorrelation", "r[f, k] = sum_t X[f, t] X[f, t + k], k < lags (LPC, pitch)", _frames_in, _autocorr,
             _autocorr_ref, lambda p: 2 * p["f"] * p["n"] * p["lags"],
             [wl(f=98, n=400, lags=13), wl(f=49, n=640, lags=160)]),
    _pattern("cross-correlation", "c[b, k] = sum_t x[b, t] y[b, t + k] (template matching, time-delay search)",
             lambda p: [Tensor("x", (p["b"], p["n"])), Tensor("y", (p["b"], p["n"] + p["lags"] - 1))], _xcorr,
             _xcorr_ref,
             lambda p: 2 * p["b"] * p["n"] * p["lags"], [wl(b=4, n=1024, lags=64)]),
    _pattern("overlap-add", "y[t] = sum_f X[f, t - f*hop] (resynthesis from overlapping frames)", _frames_in,
             _overlap_add, _overlap_add_ref, lambda p: p["f"] * p["n"],
             [wl(f=98, n=400, hop=160), wl(f=32, n=512, hop=128)]),
    _pattern("delta", "d[t] = sum_{n=1,2} n (c[t+n] - c[t-n]) / 10, edge frames repeated (HTK delta features)",
             lambda p: [Tensor("X", (p["t"], p["c"]))], _delta, _delta_ref, lambda p: 5 * p["t"] * p["c"],
             [wl(t=98, c=13), wl(t=49, c=40)]),
    _pattern("zero-crossing-rate", "z[f] = #{i : X[f, i] X[f, i-1] < 0} / N", _frames_in, _zcr,
             lambda p, X: (X[:, 1:] * X[:, :-1] < 0).sum(axis=1) / p["n"], lambda p: 2 * p["f"] * p["n"],
             [wl(f=98, n=400)]),
    _pattern("frame-log-energy", "e[f] = log(sum_i X[f, i]^2 + 1e-10)", _frames_in, _log_energy,
             lambda p, X: np.log((X * X).sum(axis=1) + 1e-10), lambda p: 2 * p["f"] * p["n"],
             [wl(f=98, n=400), wl(f=256, n=256, domains=("anomaly-detection",))]),
    _pattern("spectral-centroid", "c[f] = sum_k (k sr / N) P[f, k] / sum_k P[f, k] (Hz)",
             lambda p: [Tensor("P", (p["f"], p["k"]), init="positive")], _centroid,
             lambda p, P: (P * (np.arange(p["k"]) * p["sr"] / p["nfft"])).sum(axis=1) / P.sum(axis=1),
             lambda p: 3 * p["f"] * p["k"], [wl(f=98, k=257, sr=16000, nfft=512)]),
    _pattern("peak-normalize", "y[b, t] = x[b, t] / max_t |x[b, t]|", _sig, _peak_normalize,
             lambda p, X: X / np.abs(X).max(axis=1, keepdims=True), lambda p: 2 * p["b"] * p["n"],
             [wl(b=1, n=16000), wl(b=16, n=2048, domains=("anomaly-detection", "signal-processing"))]),
    _pattern("dc-removal", "y[f, t] = x[f, t] - mean_t x[f, t] (remove each frame's DC offset)", _frames_in,
             _dc_removal,
             lambda p, X: X - X.mean(axis=1, keepdims=True), lambda p: 2 * p["f"] * p["n"],
             [wl(f=98, n=400), wl(f=64, n=1024, domains=("anomaly-detection",))]),
    _pattern("mu-law-encode", f"y = sign(x) log(1 + {MU:g} |x|) / log(1 + {MU:g}), x in [-1, 1]",
             lambda p: [Tensor("x", (p["n"],), init="uniform")], _mu_encode,
             lambda p, x: np.sign(x) * np.log1p(MU * np.abs(x)) / np.log1p(MU), lambda p: 5 * p["n"],
             [wl(n=16000), wl(n=65536)]),
    _pattern("mu-law-decode", f"x = sign(y) ((1 + {MU:g})^|y| - 1) / {MU:g}, y in [-1, 1]",
             lambda p: [Tensor("y", (p["n"],), init="uniform")], _mu_decode,
             lambda p, y: np.sign(y) * ((1 + MU) ** np.abs(y) - 1) / MU, lambda p: 5 * p["n"], [wl(n=16000)]),
    _pattern("complex-multiply", "(cr, ci) = (ar br - ai bi, ar bi + ai br) (frequency-domain filtering)",
             lambda p: [Tensor(n, (p["f"], p["k"])) for n in ("ar", "ai", "br", "bi")], _complex_mul,
             lambda p, ar, ai, br, bi: [ar * br - ai * bi, ar * bi + ai * br], lambda p: 6 * p["f"] * p["k"],
             [wl(f=98, k=257), wl(f=16, k=1025)]),
    _pattern("goertzel", "power of 8 DTMF tones per frame by the Goertzel recurrence (sequential in t)",
             _frames_in, _goertzel, _goertzel_ref, lambda p: 4 * p["f"] * p["n"] * len(DTMF_BINS),
             [wl(f=40, n=DTMF_N), wl(f=200, n=DTMF_N)]),
    _pattern("gcc-phat", "r[f, t] = irfft(X conj(Y) / |X conj(Y)|) (GCC-PHAT time-delay estimation for mic arrays)",
             lambda p: [Tensor(n, (p["f"], p["nfft"] // 2 + 1)) for n in ("xr", "xi", "yr", "yi")], _gcc_phat,
             _gcc_phat_ref,
             lambda p: _dft_flops(p["f"], p["nfft"]) + 12 * p["f"] * (p["nfft"] // 2 + 1),
             [wl(f=32, nfft=512), wl(f=8, nfft=1024)], level="L2"),
    _pattern("power-to-db", f"D = max(10 log10(max(P, 1e-10)), max(D) - {TOP_DB:g}) (dB with an {TOP_DB:g} dB floor)",
             lambda p: [Tensor("P", (p["f"], p["k"]), init="positive")], _power_to_db, _power_to_db_ref,
             lambda p: 3 * p["f"] * p["k"], [wl(f=98, k=257), wl(f=32, k=128, domains=("anomaly-detection",))]),
]
