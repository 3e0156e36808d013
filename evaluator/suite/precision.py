"""Float16 variants of float32 patterns and model graphs, by the precision convention of
:mod:`evaluator.suite.declare`: tensors stored in float16, arithmetic in float32, each stored
result rounded once.

For an operator pattern (L1/L2): :func:`stored_inputs` and :func:`in_float32` wrap a pattern's
``inputs`` and ``compute`` so a workload with ``dtype="float16"`` stores its floating inputs and
outputs in float16 and computes on float32 copies; a float32 workload gets the very tensors and
compute it had. Its reference needs nothing: references compute in float64 and
:meth:`WorkloadDef.reference` rounds the result to the output dtype once. A NumPy vendor call
takes float16 operands as float32 (:func:`vendor_in_float32`).

For a model graph (L3): a float16 graph stores its data, its parameters and the output of each of
its layers (``GraphPattern.layers``) in float16 and computes each layer in float32 (the Relax
helpers below), as the chain of the layers' own float16 workloads does; its reference rounds at
the same places (:func:`stored`). Tensors inside a layer stay float32, as inside the layer's one
PrimFunc. Where a graph rounds moves its output by a few hundredths of the float16 tolerance
(``tests/evaluator/test_fp16_workloads.py``), so a kernel that keeps a layer's output in float32 passes too
(PoCL, which lacks half arithmetic, runs the whole graph so) and the tolerance needs no scaling
with depth.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, Callable

import numpy as np

from evaluator.suite.declare import dtype_of, narrow, widen


# --- operator patterns (TE) ----------------------------------------------------------------------

def stored_inputs(inputs: Callable[[dict], list]) -> Callable[[dict], list]:
    """``inputs(p)`` with every float32 tensor stored as the workload's dtype (integers kept)."""
    @functools.wraps(inputs)
    def typed(p):
        tensors = list(inputs(p))
        dtype = dtype_of(p)
        if dtype == "float32":
            return tensors
        return [dataclasses.replace(t, dtype=dtype) if t.dtype == "float32" else t for t in tensors]
    return typed


def in_float32(compute: Callable[..., Any]) -> Callable[..., Any]:
    """``compute`` on float32 copies of the inputs, each output rounded once to the workload's dtype."""
    @functools.wraps(compute)  # ``__wrapped__``: the compute as written, for a test to build it in float16
    def mixed(p, *args):
        dtype = dtype_of(p)
        if dtype == "float32":
            return compute(p, *args)
        out = compute(p, *[widen(a) for a in args])
        if isinstance(out, (list, tuple)):
            return [narrow(o, dtype) for o in out]
        return narrow(out, dtype)
    return mixed


def vendor_in_float32(vendor: Callable[..., Any]) -> Callable[..., Any]:
    """A NumPy ``vendor(p, *inputs)`` call given float16 operands as float32 (NumPy has no fast
    float16 BLAS and would also accumulate in float16), its results rounded back to float16."""
    @functools.wraps(vendor)
    def call(p, *xs):
        if dtype_of(p) == "float32":
            return vendor(p, *xs)
        out = vendor(p, *[x.astype(np.float32) if x.dtype == np.float16 else x for x in xs])
        if isinstance(out, (list, tuple)):
            return [np.asarray(o).astype(dtype_of(p)) for o in out]
        return np.asarray(out).astype(dtype_of(p))
    return call


# --- model graphs (Relax nn, NumPy) --------------------------------------------------------------

def stored(x: np.ndarray, dtype: str) -> np.ndarray:
    """NumPy: a float64 value as a graph stores it in ``dtype`` (float32 graphs: not rounded, as
    every float32 reference)."""
    if dtype == "float32":
        return x
    return x.astype(dtype).astype(np.float64)


def store(y, dtype: str):
    """Relax nn: a layer's float32 output stored as the graph's ``dtype``."""
    return y if y.dtype == dtype else y.astype(dtype)


def as_float32(t):
    """Relax nn: ``t`` as float32 (a float32 tensor itself)."""
    return t if t.dtype == "float32" else t.astype("float32")


def conv2d(x, weight, bias=None, stride=1, padding=0, groups=1):
    """Relax nn: ``nn.op.conv2d`` computed in float32. float16 data and weights are widened inside
    the convolution's own kernel (``out_dtype``) rather than by a cast of their own, which TVM's
    fusion would move into the kernel that writes them: a float16 feature map stays float16 in
    memory. With float32 operands it is ``nn.op.conv2d`` itself."""
    # heavy: TVM is imported on use, never with this module
    from tvm import relax
    from tvm.relax.frontend import nn

    if x.dtype == "float32" and weight.dtype == "float32":
        return nn.op.conv2d(x, weight, bias, stride=stride, padding=padding, groups=groups)
    # relax.frontend.nn.Tensor exposes its Relax expression only as ``_expr``
    y = nn.op.wrap_nested(relax.op.nn.conv2d(x._expr, weight._expr,  # noqa: SLF001
                                             strides=stride, padding=padding, groups=groups,
                                             out_dtype="float32"), name="conv2d")
    return y if bias is None else y + nn.op.reshape(as_float32(bias), (1, -1, 1, 1))


def linear(x, fc):
    """Relax nn: ``fc(x)`` (an ``nn.Linear``) computed in float32 from float16 weights."""
    from tvm.relax.frontend import nn  # heavy: TVM is imported on use, never with this module

    if fc.weight.dtype == "float32":
        return fc(x)
    y = nn.op.matmul(as_float32(x), nn.op.permute_dims(fc.weight), out_dtype="float32")
    return y if fc.bias is None else y + as_float32(fc.bias)
