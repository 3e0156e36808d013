"""The ``vendor`` baseline of the int8 workloads: NumPy's ufuncs where NumPy has the op's call,
none where it would be NumPy's naive integer loop (a matmul or a convolution)."""

import numpy as np
import pytest

from evaluator import suite
from evaluator.harness.check import _mismatch
from evaluator.suite.inputs import generate

INT8 = [w for w in suite.workloads() if w.family == "quant"]
NO_LIBRARY_CALL = ("matmul", "gemv", "conv", "dense", "classifier-head")


def _int8_elementwise(w) -> bool:
    return not any(word in w.pattern.id for word in NO_LIBRARY_CALL)


@pytest.mark.parametrize("w", [w for w in INT8 if _int8_elementwise(w)], ids=lambda w: w.id)
def test_a_numpy_vendor_call_gives_the_reference_exactly(w):
    vendor = w.vendor_call()
    assert vendor is not None, f"{w.pattern.id}: NumPy has this op's call"
    arrays = generate(w, seed=1)
    before = [a.copy() for a in arrays]
    got = vendor(*arrays)
    got = list(got) if isinstance(got, (list, tuple)) else [got]
    for g, e, spec in zip(got, w.reference(arrays), w.outputs, strict=True):
        assert _mismatch(np.asarray(g).astype(spec.dtype), e, spec.dtype) is None, f"{w.id} {spec.name}"
    assert all(np.array_equal(a, b) for a, b in zip(arrays, before)), "the vendor call wrote to its inputs"


def test_integer_matmuls_and_convolutions_have_no_vendor_call():
    loops = [w for w in INT8 if not _int8_elementwise(w)]
    assert loops and all(w.vendor_call() is None for w in loops), \
        [w.id for w in loops if w.vendor_call() is not None]
