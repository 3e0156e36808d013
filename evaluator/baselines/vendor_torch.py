"""``vendor`` on GPU backends: the PyTorch call a user would make (cuBLAS, cuDNN), per pattern.

The NumPy vendor calls live with their patterns; these live here, in a module that imports
neither TVM nor PyTorch, so a measurement machine with a runtime-only TVM can use them. Each
entry is a one-liner ``fn(torch, params, *inputs) -> output`` over tensors already on the device;
a pattern without an entry has no GPU vendor baseline. fp32 is computed in fp32: TF32 is switched
off by the caller, since the candidates are held to fp32 tolerances.
"""

from __future__ import annotations

from typing import Any, Callable

_EPS = 1e-5  # the norms' epsilon, as in their patterns
_GELU_C = 0.7978845608028654  # sqrt(2 / pi)


def _gelu_tanh(t, y):
    return 0.5 * y * (1.0 + t.tanh(_GELU_C * (y + 0.044715 * y * y * y)))


CALLS: dict[str, Callable[..., Any]] = {
    "matmul/matmul": lambda t, p, A, B: t.matmul(A, B),
    "batch-matmul/batch-matmul": lambda t, p, A, B: t.bmm(A, B),
    "gemv/gemv": lambda t, p, A, x: t.mv(A, x),
    "elementwise/add-bias": lambda t, p, X, b: X + b,
    "elementwise/mul-channel": lambda t, p, X, s: X * s[:, None, None],
    "activation/relu": lambda t, p, X: t.relu(X),
    "activation/relu6": lambda t, p, X: t.nn.functional.relu6(X),
    "activation/sigmoid": lambda t, p, X: t.sigmoid(X),
    "activation/gelu-tanh": lambda t, p, X: t.nn.functional.gelu(X, approximate="tanh"),
    "activation/hard-swish": lambda t, p, X: t.nn.functional.hardswish(X),
    "softmax/softmax": lambda t, p, X: t.softmax(X, dim=-1),
    "reduction/sum-lastaxis": lambda t, p, X: X.sum(dim=-1),
    "reduction/max-lastaxis": lambda t, p, X: X.amax(dim=-1),
    "norm/layer-norm": lambda t, p, X, g, b: t.nn.functional.layer_norm(X, X.shape[-1:], g, b, _EPS),
    "norm/rms-norm": lambda t, p, X, g: t.nn.functional.rms_norm(X, X.shape[-1:], g, _EPS),
    "fused/residual-layer-norm": lambda t, p, X, R, g, b: t.nn.functional.layer_norm(
        X + R, X.shape[-1:], g, b, _EPS),
    "fused/dense-bias-gelu": lambda t, p, X, W, b: _gelu_tanh(t, t.addmm(b, X, W.T)),
    "fused/attention": lambda t, p, Q, K, V: t.nn.functional.scaled_dot_product_attention(Q, K, V),
    "conv1d/conv1d-ncw": lambda t, p, X, W: t.nn.functional.conv1d(X, W, stride=p["stride"], padding=p["pad"]),
    "conv2d/conv2d-nchw": lambda t, p, X, W: t.nn.functional.conv2d(X, W, stride=p["stride"], padding=p["pad"]),
    "depthwise-conv2d/depthwise-conv2d-nchw": lambda t, p, X, W: t.nn.functional.conv2d(
        X, W, stride=p["stride"], padding=p["pad"], groups=p["c"]),
    "fused/conv2d-bias-relu": lambda t, p, X, W, b: t.relu(t.nn.functional.conv2d(
        X, W, b, stride=p["stride"], padding=p["pad"])),
    "pool/max-pool2d": lambda t, p, X: t.nn.functional.max_pool2d(X, p["k"], p["stride"], p["pad"]),
    "pool/avg-pool2d": lambda t, p, X: t.nn.functional.avg_pool2d(X, p["k"], p["stride"], p["pad"]),
    "pool/global-avg-pool": lambda t, p, X: X.mean(dim=(2, 3), keepdim=True),
    "embedding/embedding-bag-sum": lambda t, p, table, idx: t.nn.functional.embedding_bag(
        idx, table, mode="sum"),
}


def call(pattern_id: str, params: dict) -> Callable[..., Any] | None:
    """``fn(torch, *inputs)`` for a pattern at these parameters, or None without a vendor call."""
    fn = CALLS.get(pattern_id)
    if fn is None:
        return None
    return lambda torch, *inputs: fn(torch, params, *inputs)
