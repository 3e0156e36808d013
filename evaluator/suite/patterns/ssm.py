"""State-space sequence models: Mamba's selective scan (S6), the recurrence at the heart of every
Mamba block, over the short sequences and small states (d_state 16) of on-device language and
keyword-spotting models.

The kernel is mamba_ssm's ``selective_scan_fn(u, delta, A, B, C, D, delta_softplus=True)`` in its
layout: u, delta (b, d, l); B, C (b, n, l), shared by the d channels; D (d,). A is passed as Mamba
stores it, ``A_log`` (d, n), with A = -exp(A_log) < 0 so every step decays. Per channel and state,

    dt_t = softplus(delta_t),  h_t = exp(dt_t A) h_{t-1} + dt_t B_t u_t,  y_t = sum_n C_t h_t + D u_t,

from h_0 = 0. The canonical compute is sequential in time, parallel over (batch, channel): a loop
nest written with TVM's IR builder, as TOPI writes its scans (a faster kernel may reorder the
state loop, or use the chunked/parallel-scan forms). The reference steps through time with
NumPy over all channels at once (mamba_ssm's ``selective_scan_ref``).
"""

import numpy as np
from tvm import te, tirx
from tvm.script.ir_builder import IRBuilder
from tvm.script.ir_builder import tirx as T

from evaluator.suite.base import OpPattern, Tensor
from evaluator.suite.declare import wl

# per (batch, channel, step, state): exp argument, exp, dt*B*u (2), the state update (2), C*h and its sum (2)
STATE_FLOPS = 8
# per (batch, channel, step): softplus (exp, add, log), D*u and its add
STEP_FLOPS = 5


def _softplus(x):
    return tirx.log(1.0 + tirx.exp(x))


def _selective_scan(p, u, delta, A_log, B, C, D):
    b, d, length, n = p["b"], p["d"], p["l"], p["n"]

    def gen(ins, outs):
        with IRBuilder() as ib:
            u_, dl, al, bm, cm, dv = (T.buffer_proxy(x) for x in ins)
            y = T.buffer_proxy(outs[0])
            with T.parallel(0, b * d) as row:
                bi = row // d
                di = row % d
                a = T.buffer_proxy(T.alloc_buffer((n,), "float32", scope="local"))
                h = T.buffer_proxy(T.alloc_buffer((n,), "float32", scope="local"))
                acc = T.buffer_proxy(T.alloc_buffer((1,), "float32", scope="local"))
                with T.serial(0, n) as s:
                    a[s] = -tirx.exp(al[di, s])
                    h[s] = T.float32(0.0)
                with T.serial(0, length) as t:
                    dt = _softplus(dl[bi, di, t])
                    x = u_[bi, di, t]
                    acc[0] = T.float32(0.0)
                    with T.serial(0, n) as s:
                        h[s] = tirx.exp(dt * a[s]) * h[s] + dt * bm[bi, s, t] * x
                        acc[0] = acc[0] + cm[bi, s, t] * h[s]
                    y[bi, di, t] = acc[0] + dv[di] * x
        return ib.get()

    out = tirx.decl_buffer((b, d, length), "float32", "out_buf")
    return te.extern([(b, d, length)], [u, delta, A_log, B, C, D], gen, dtype="float32", out_buffers=[out],
                     name="T_selective_scan")


def selective_scan_np(u, delta, A_log, B, C, D):
    """mamba_ssm's selective_scan_ref (delta_softplus=True, no z): all channels, one step at a time."""
    dt = np.logaddexp(0.0, delta)                      # (b, d, l)
    A = -np.exp(A_log)                                  # (d, n)
    h = np.zeros(u.shape[:2] + A.shape[1:])             # (b, d, n)
    ys = []
    for t in range(u.shape[2]):
        h = np.exp(dt[:, :, t, None] * A) * h + (dt[:, :, t] * u[:, :, t])[:, :, None] * B[:, None, :, t]
        ys.append(np.einsum("bdn,bn->bd", h, C[:, :, t]))
    return np.stack(ys, axis=-1) + u * D[None, :, None]


def _inputs(p):
    b, d, length, n = p["b"], p["d"], p["l"], p["n"]
    return [Tensor("u", (b, d, length)),
            Tensor("delta", (b, d, length)),          # softplus(N(0, 1)): steps of ~0.05 to ~3
            Tensor("A_log", (d, n), init="uniform"),  # A in [-e, -1/e]
            Tensor("B", (b, n, length)),
            Tensor("C", (b, n, length)),
            Tensor("D", (d,))]


PATTERNS = [
    OpPattern(
        id="ssm/selective-scan", family="ssm", level="L1", domains=("language",),
        summary="h_t = exp(softplus(delta_t) A) h_{t-1} + softplus(delta_t) B_t u_t, y_t = C_t . h_t + D u_t "
                "per channel (Mamba S6; A = -exp(A_log), d_state n)",
        inputs=_inputs, compute=_selective_scan,
        reference=lambda p, *args: selective_scan_np(*args), vendor=lambda p, *args: selective_scan_np(*args),
        flops=lambda p: p["b"] * p["d"] * p["l"] * (STATE_FLOPS * p["n"] + STEP_FLOPS),
        workloads=[
            wl(b=1, d=1536, l=32, n=16),   # Mamba-130m's inner width, a 32-token prompt chunk
            wl(b=1, d=512, l=128, n=16),   # a small on-device language model
            # keyword spotting, 1 s of 10 ms frames
            wl(b=4, d=128, l=100, n=16, domains=("audio", "signal-processing")),
        ],
    ),
]
