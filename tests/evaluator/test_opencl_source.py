"""``opencl-source`` entries on the opencl backend: hand-written OpenCL C with its launch, built
and run through the real sandbox. Each way a raw kernel can be wrong comes out with its own
reason: the compiler's log, a work-group the device refuses, arguments that do not match the
workload, too few work-items (a wrong result)."""

import json
import re
from pathlib import Path

import pytest

from evaluator import records, suite
from evaluator.backends.opencl import OpenCL
from evaluator.formats.bundle import load_bundle
from evaluator.pipeline import Candidate, Pipeline, evaluate_bundle
from evaluator.sandbox import probe

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "bundles"

_why = OpenCL().unavailable()
pytestmark = pytest.mark.skipif(bool(_why), reason=f"no OpenCL device here: {_why}")

RELU = """
__kernel void relu(__global const float* X, __global float* Y) {
  const size_t i = get_global_id(0);
  Y[i] = fmax(X[i], 0.0f);
}
"""
RELU_WORKLOAD = "activation/relu@m128n768"  # X [128, 768] -> T_relu
RELU_LAUNCH = {"entry": "relu", "args": ["X", "T_relu"], "global": [128 * 768], "local": [256]}


@pytest.fixture(scope="module")
def pipeline(quick_protocol):
    why = probe()
    if why:
        pytest.skip(f"the sandbox cannot run here: {why}")
    pipe = Pipeline("opencl", quick_protocol)
    assert pipe.sandbox is not None
    return pipe


def _relu(pipeline, source=RELU, **launch):
    return pipeline.evaluate(suite.get_workload(RELU_WORKLOAD),
                             Candidate("opencl-source", source, launch={**RELU_LAUNCH, **launch}))


def test_the_example_bundle_kernel_is_correct(quick_protocol, pipeline):
    wid = "softmax/softmax@m256n512"
    report = evaluate_bundle(load_bundle(str(EXAMPLES / "opencl-source")), "opencl", globs=[wid],
                             protocol=quick_protocol)
    (task,) = report["tasks"]
    assert task["status"] == records.CORRECT, task["reason"]
    assert task["speedup"]["tvm-default"] > 0 and "vendor" not in task["speedup"]


def test_a_local_size_the_device_refuses_is_the_broken_bundles_build_error(quick_protocol, pipeline):
    wid = "matmul/matmul@m256n256k256"
    report = evaluate_bundle(load_bundle(str(EXAMPLES / "broken")), "opencl", globs=[wid], protocol=quick_protocol)
    (task,) = report["tasks"]
    assert task["status"] == records.COMPILE_ERROR
    assert "local size [256, 256] is 65536 work-items per work-group" in task["reason"]
    assert "the device runs this kernel with at most" in task["reason"]


def test_source_that_does_not_compile_reports_the_compiler_log(pipeline):
    r = _relu(pipeline, RELU.replace("fmax(X[i], 0.0f)", "fmax(X[i], zero)"))
    assert r.status == records.COMPILE_ERROR
    assert "the OpenCL compiler rejected the source" in r.reason
    assert "zero" in r.reason and "<source>:" in r.reason  # the log's line, without temp paths


def test_too_few_work_items_leave_outputs_unwritten(pipeline):
    r = _relu(pipeline, **{"global": [64 * 768]})
    assert r.status == records.WRONG_RESULT
    assert "output 'T_relu' differs from the reference in" in r.reason
    assert r.detail["nan"] == 64 * 768  # exactly the half never written stays poisoned


def test_args_that_do_not_match_the_workload_are_named(pipeline):
    r = _relu(pipeline, args=["X", "Y"])
    assert r.status == records.COMPILE_ERROR
    assert "launch 'args' do not match the workload's signature" in r.reason
    assert "unknown tensors ['Y']" in r.reason and "missing tensors ['T_relu']" in r.reason


# --- more build-time checks, in-process (the same code the build step runs) --------------------

def _build(source, tmp_path, **launch):
    w = suite.get_workload(RELU_WORKLOAD)
    OpenCL().build_source("opencl-source", source, {**RELU_LAUNCH, **launch}, w.signature(),
                          str(tmp_path / "a.json"))
    return json.loads((tmp_path / "a.json").read_text())


def test_a_good_source_becomes_a_one_kernel_artifact(tmp_path):
    doc = _build(RELU, tmp_path)
    (k,) = doc["kernels"]
    assert k["name"] == "relu" and k["args"] == [{"buffer": "X"}, {"buffer": "T_relu"}]
    assert k["global"] == [128 * 768] and k["local"] == [256]


@pytest.mark.parametrize("source, launch, problem", [
    (RELU.replace("const float* X", "const int* X"), {},
     "declared 'int*' but launch 'args' binds tensor 'X', which is float32"),
    (RELU.replace("__global const float* X, ", "float scale, __global const float* X, "), {},
     "takes 3 parameters but launch 'args' lists 2"),
    (RELU, {"entry": "relu6"}, "the source defines no kernel 'relu6'"),
    (RELU, {"global": [128 * 768], "local": [8192]}, "8192 work-items"),
])
def test_a_launch_that_does_not_fit_the_kernel_is_refused(tmp_path, source, launch, problem):
    with pytest.raises(ValueError, match=re.escape(problem)):
        _build(source, tmp_path, **launch)
