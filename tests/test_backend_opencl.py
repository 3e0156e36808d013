"""The opencl backend on the OpenCL device of this machine (PoCL's CPU device on CI), through the
real sandbox: TVM-generated OpenCL C from dlight and from layered traces with ``bind``, the
errors a GPU-style schedule can make, and the run half's tensors, timer and artifact checks."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from evaluator import records, suite
from evaluator.backends import BackendUnavailable, get_backend
from evaluator.backends import opencl_runtime as ocl
from evaluator.backends.opencl import OpenCL, lower_to_artifact
from evaluator.examples import default_entry
from evaluator.ir import lower
from evaluator.pipeline import Candidate, Pipeline
from evaluator.sandbox import probe

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "bundles"

_why = OpenCL().unavailable()
pytestmark = pytest.mark.skipif(bool(_why), reason=f"no OpenCL device here: {_why}")


@pytest.fixture(scope="module")
def pipeline(quick_protocol):
    why = probe()
    if why:
        pytest.skip(f"the sandbox cannot run here: {why}")
    pipe = Pipeline("opencl", quick_protocol)
    assert pipe.sandbox is not None  # these runs are sandboxed, not --unsafe-local
    return pipe


def _entry(bundle: str, workload: str) -> str:
    manifest = json.loads((EXAMPLES / bundle / "manifest.json").read_text())
    e = next(e for e in manifest["entries"] if e["workload"] == workload and e["backend"] == "opencl")
    return (EXAMPLES / bundle / e["file"]).read_text()


# --- identity --------------------------------------------------------------------------------

def test_info_names_the_platform_and_device_and_the_cli_lists_it():
    info = OpenCL().info()
    rt = ocl.runtime()
    assert info.available and info.reason == ""
    assert info.device == ocl.device_identity(rt.platform, rt.device)
    assert rt.device.name.strip() in info.device and ": " in info.device
    assert info.arch.startswith("OpenCL C") and info.queue == "eval.opencl"
    out = subprocess.run([sys.executable, "-m", "evaluator", "backends", "--json"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    listed = {b["name"]: b for b in json.loads(out)}
    assert listed["opencl"]["available"] and listed["opencl"]["device"] == info.device


def test_a_device_that_is_not_there_makes_the_backend_unavailable_with_the_reason(monkeypatch):
    monkeypatch.setenv(ocl.DEVICE_ENV, "no-such-opencl-device")
    info = OpenCL().info()
    assert not info.available
    assert "no-such-opencl-device" in info.reason and "found" in info.reason
    assert OpenCL().unavailable() == info.reason
    with pytest.raises(BackendUnavailable, match="no-such-opencl-device"):
        get_backend("opencl")


def test_without_an_icd_the_backend_is_listed_unavailable_with_why(tmp_path):
    # the ICD loader reads the platforms from OCL_ICD_VENDORS when set: an empty directory
    env = {**os.environ, "OCL_ICD_VENDORS": str(tmp_path)}
    out = subprocess.run([sys.executable, "-m", "evaluator", "backends", "--json"], cwd=ROOT, env=env,
                         check=True, capture_output=True, text=True).stdout
    listed = {b["name"]: b for b in json.loads(out)}
    assert not listed["opencl"]["available"]
    assert "no OpenCL platform found" in listed["opencl"]["reason"]
    assert listed["cpu-llvm"]["available"]


# --- lowering (in-process: fast) -------------------------------------------------------------

def test_a_function_that_lowers_to_several_kernels_keeps_their_order_and_workspace():
    w = suite.get_workload("fused/depthwise-separable@n1c64h25w5k64")
    b = OpenCL()
    doc = lower_to_artifact(b.default_module(w.canonical_module()), b.target())
    assert [k["name"] for k in doc["kernels"]] == ["main_kernel", "main_kernel_1", "main_kernel_2"]
    assert [p["name"] for p in doc["params"]] == [t["name"] for t in w.signature()]
    space = {t["name"] for t in doc["workspace"]}
    assert len(space) == 2
    # the intermediate written by the first kernel is read by the second, by name
    first, second = ({a["buffer"] for a in k["args"] if "buffer" in a} for k in doc["kernels"][:2])
    assert (first & second) & space
    for k in doc["kernels"]:
        assert all(g % lo == 0 for g, lo in zip(k["global"], k["local"]))


@pytest.mark.parametrize("layers, problem", [
    ({}, "nothing runs on the OpenCL device"),
    # only the output block bound: the reductions feeding it would stay on the host
    ({"schedule": [{"op": "get_loops", "block": "T_softmax_norm", "into": ["i", "j"]},
                   {"op": "bind", "loop": "i", "thread": "blockIdx.x"},
                   {"op": "bind", "loop": "j", "thread": "threadIdx.x"}]},
     "part of the computation is not bound to OpenCL work-items"),
])
def test_an_unbound_schedule_is_refused_with_what_to_do(layers, problem):
    w = suite.get_workload("softmax/softmax@m256n512")
    doc = {"format": "layered-trace", "version": 1, "layers": layers}
    mod = lower.lower("layered-trace", json.dumps(doc), w.canonical_module())
    with pytest.raises(ValueError, match=problem) as e:
        OpenCL().build(mod, "/dev/null")
    assert "bind" in str(e.value)


# --- through the pipeline and the sandbox ----------------------------------------------------

def test_the_dlight_default_entry_builds_and_runs_correct_with_several_kernels(pipeline):
    """The shipped tvm-default entry (dlight, as TVMScript) of a function lowered to three
    kernels with two intermediate buffers: correct, and timed against itself as baseline."""
    w = suite.get_workload("fused/depthwise-separable@n1c64h25w5k64")
    fmt, _, text = default_entry(w, "opencl")
    assert _entry("tvm-default", w.id) == text
    r = pipeline.evaluate(w, Candidate(fmt, text))
    assert r.status == records.CORRECT, r.reason
    assert set(r.times) == {"candidate", "tvm-default"}  # no vendor baseline on opencl
    assert "tvm-default" in r.speedup and "vendor" not in r.speedup  # ≈1, not asserted: timing is noisy
    assert r.times["candidate"].median_s > 0 and not r.detail["timing_suspicious"]


def test_a_layered_trace_with_bind_runs_correct(pipeline):
    w = suite.get_workload("matmul/matmul@m128n512k128")
    r = pipeline.evaluate(w, Candidate("layered-trace", _entry("hand-tuned", w.id)))
    assert r.status == records.CORRECT, r.reason
    assert r.speedup["tvm-default"] > 0


def test_an_unbound_schedule_is_a_compile_error(pipeline):
    w = suite.get_workload("activation/relu@m128n768")
    r = pipeline.evaluate(w, Candidate("layered-trace", json.dumps(
        {"format": "layered-trace", "version": 1, "layers": {}})))
    assert r.status == records.COMPILE_ERROR
    assert "nothing runs on the OpenCL device" in r.reason and "bind" in r.reason


def test_model_graphs_are_refused_with_a_reason(pipeline):
    w = suite.get_workload("model/anomaly-autoencoder@b1")
    doc = {"format": "layered-trace", "version": 1, "functions": {"transpose": {"schedule": []}}}
    r = pipeline.evaluate(w, Candidate("layered-trace", json.dumps(doc)))
    assert r.status == records.COMPILE_ERROR
    assert "model graphs (L3) are not supported on opencl" in r.reason


# --- the run half ----------------------------------------------------------------------------

def test_tensors_round_trip_with_what_the_harness_uses():
    b = OpenCL()
    for a in (np.arange(12, dtype=np.float32).reshape(3, 4), np.arange(-5, 5, dtype=np.int32)):
        t = b.tensor(a)
        assert t.shape == a.shape and t.dtype == str(a.dtype)
        np.testing.assert_array_equal(t.numpy(), a)
        t.copyfrom(a[::-1].copy())
        np.testing.assert_array_equal(t.numpy(), a[::-1])
    with pytest.raises(ValueError, match="float32"):
        b.tensor(np.zeros(4, np.float32)).copyfrom(np.zeros(4, np.float64))


def _relu_kernel():
    w = suite.get_workload("activation/relu@m128n768")
    b = OpenCL()
    doc = lower_to_artifact(b.default_module(w.canonical_module()), b.target())
    x = np.random.default_rng(0).standard_normal((128, 768)).astype(np.float32)
    kernel = ocl.ClKernel(ocl.runtime(), ocl.parse_artifact(json.dumps(doc)))
    return kernel, b.tensor(x), b.tensor(np.zeros((128, 768), np.float32)), x


def test_the_timer_uses_device_events_within_the_host_wall_time():
    kernel, x, y, host = _relu_kernel()
    assert kernel([x], [y]) == [y]
    np.testing.assert_array_equal(y.numpy(), np.maximum(host, 0))
    per_call = kernel.timer([x], [y], 20)()
    assert 0 < per_call < 1.0


class _Event:
    def __init__(self, start, end):
        self.profile = type("P", (), {"start": start, "end": end})()

    def wait(self):
        pass


def test_a_device_clock_that_outruns_the_host_clock_is_refused(monkeypatch):
    kernel, x, y, _ = _relu_kernel()
    # events claiming ten seconds, returned at once
    monkeypatch.setattr(kernel, "_enqueue", lambda bound: [_Event(0, 10**10)])
    with pytest.raises(ocl.OpenCLError, match="cannot be trusted"):
        kernel.timer([x], [y], 2)()


@pytest.mark.parametrize("change, problem", [
    (lambda d: d["workspace"].append({"name": "huge", "shape": [1 << 30], "dtype": "float32"}), "workspace"),
    (lambda d: d["kernels"][0]["args"].append({"buffer": "elsewhere"}), "neither a known buffer"),
    (lambda d: d["kernels"][0].update({"local": [512, 2]}), "differ in rank"),
    (lambda d: d.update({"format": "something-else"}), "not an opencl artifact"),
])
def test_a_tampered_artifact_is_refused(change, problem):
    w = suite.get_workload("activation/relu@m128n768")
    b = OpenCL()
    doc = lower_to_artifact(b.default_module(w.canonical_module()), b.target())
    change(doc)
    with pytest.raises(ValueError, match=problem):
        ocl.parse_artifact(json.dumps(doc))
