"""c-source on cpu-llvm, through the real sandbox: the system C compiler in the build step, the
library called through ctypes on the harness's buffers in the run step."""

import os

import pytest

from evaluator import records, suite
from evaluator.formats.bundle import load_bundle
from evaluator.pipeline import Candidate, Pipeline, evaluate_bundle
from evaluator.sandbox import probe

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "bundles")
pytestmark = pytest.mark.skipif(probe() is not None, reason=f"no sandbox on this machine: {probe()}")

RELU = suite.get_workload("activation/relu@m128n768")  # X[128, 768] -> T_relu
LAUNCH = {"entry": "relu", "args": ["X", "T_relu"]}
GOOD = """
void relu(const float *restrict X, float *restrict Y) {
    for (int i = 0; i < 128 * 768; ++i) Y[i] = X[i] > 0.0f ? X[i] : 0.0f;
}
"""


@pytest.fixture(scope="module")
def pipe(quick_protocol):
    return Pipeline("cpu-llvm", protocol=quick_protocol)


def run(pipe, source, launch=LAUNCH, w=RELU):
    return pipe.evaluate(w, Candidate("c-source", source, launch=launch))


def test_example_bundle_is_correct_and_its_broken_entry_names_the_signature(quick_protocol):
    bundle = load_bundle(os.path.join(EXAMPLES, "c-source"))
    picked = ["matmul/matmul@m256n256k256", "embedding/embedding-bag-sum@r10000d64b32l20"]
    report = evaluate_bundle(bundle, "cpu-llvm", globs=picked, protocol=quick_protocol)
    assert report["sandbox"] is not None
    got = {t["workload"]: t for t in report["tasks"]}
    assert got[picked[0]]["status"] == records.CORRECT, got[picked[0]]["reason"]
    assert got[picked[0]]["speedup"]["tvm-default"] > 0
    broken = got[picked[1]]
    assert broken["status"] == records.COMPILE_ERROR
    assert ("signature does not match launch 'args': it must be void embedding_bag(const int32_t*, "
            "const float*, float*)") in broken["reason"]
    assert "conflicting types for 'embedding_bag'" in broken["reason"]  # the compiler's own words


def test_compile_error_carries_the_compilers_message(pipe):
    r = run(pipe, GOOD.replace("0.0f;\n}", "0.0f\n}"))
    assert r.status == records.COMPILE_ERROR
    assert "the C compiler rejected the source" in r.reason
    assert "kernel.c:3" in r.reason and "expected ';'" in r.reason


def test_missing_function_is_a_build_error(pipe):
    r = run(pipe, GOOD.replace("void relu(", "void relu2("))
    assert r.status == records.COMPILE_ERROR
    assert "the source defines no function 'relu'" in r.reason


def test_args_naming_unknown_tensors_are_refused(pipe):
    r = run(pipe, GOOD, {"entry": "relu", "args": ["X", "Y"]})
    assert r.status == records.COMPILE_ERROR
    assert "unknown tensors ['Y']; missing tensors ['T_relu']" in r.reason


def test_wrong_parameter_count_is_a_signature_error(pipe):
    r = run(pipe, GOOD.replace("float *restrict Y)", "float *restrict Y, int n)"))
    assert r.status == records.COMPILE_ERROR
    assert "must be void relu(const float*, float*)" in r.reason


def test_a_kernel_that_writes_out_of_bounds_is_a_runtime_error(pipe):
    wild = GOOD.replace("Y[i] = X[i] > 0.0f ? X[i] : 0.0f;", "Y[i + (1L << 40)] = X[i];")
    r = run(pipe, wild)
    assert r.status == records.RUNTIME_ERROR
    assert "SIGSEGV" in r.reason
    # and the harness carries on: the same kernel, in bounds, is correct and timed
    r = run(pipe, GOOD)
    assert r.status == records.CORRECT, r.reason
    assert r.times["candidate"].median_s > 0 and "tvm-default" in r.speedup
