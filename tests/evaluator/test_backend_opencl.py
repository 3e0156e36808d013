"""The opencl backend on the OpenCL device of this machine (PoCL's CPU device on CI), through the
real sandbox: TVM-generated OpenCL C from dlight and from layered traces with ``bind``, the
errors a GPU-style schedule can make, model graphs (L3) as launch plans, and the run half's
tensors, timer and artifact checks."""

import base64
import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from tvm import relax

from evaluator import records, suite
from evaluator.backends import BackendUnavailable, get_backend
from evaluator.backends.opencl import runtime as ocl
from evaluator.backends.opencl import OpenCL, lower_to_artifact
from evaluator.examples import default_entry
from evaluator.harness.protocol import Protocol
from evaluator import formats
from evaluator.pipeline import Candidate, Pipeline
from evaluator.sandbox import probe
from evaluator.suite.inputs import generate

ROOT = Path(__file__).resolve().parents[2]
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


@pytest.fixture(scope="module")
def graph_pipeline(pipeline, quick_protocol):
    """The same (sandboxed: ``pipeline`` checks that), with the protocol's own correctness limit: a
    graph's first call compiles each of its kernels for its work-group size (on PoCL ~2 s for the
    model graphs, more on a busy machine), and the quick protocol's 8 s would make these tests flaky."""
    limits = dataclasses.replace(quick_protocol.limits, check_s=Protocol().limits.check_s)
    return Pipeline("opencl", dataclasses.replace(quick_protocol, limits=limits))


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
    assert info.arch.startswith("OpenCL C")
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
    w = suite.get_workload("conv-block/depthwise-separable-bn@n1c64h25w5k64s1p1")
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


def test_stages_tvm_names_alike_get_a_buffer_each_and_run_correct(tmp_path):
    """A fire module's squeeze and two expand convolutions are all ``conv2d_nchw`` in the
    lowered function; built straight from the schedule (as the cached baseline is, with no
    TVMScript round trip to rename them) they shared one buffer and the process crashed."""
    w = suite.get_workload("conv-block/fire-module@n1c256h13w13q48e192")
    b = OpenCL()
    b.build(b.default_module(w.canonical_module(), w), str(tmp_path / "fire.json"))
    doc = json.loads((tmp_path / "fire.json").read_text())
    names = [t["name"] for t in doc["workspace"]]
    assert len(names) == 3 == len(set(names))
    assert sorted(t["shape"] for t in doc["workspace"]) == [[8112], [32448], [32448]]
    arrays = generate(w, 1)
    outs = [b.tensor(np.full(t.shape, np.nan, t.dtype)) for t in w.outputs]
    got = b.load(str(tmp_path / "fire.json"), graph=False)([b.tensor(a) for a in arrays], outs)
    np.testing.assert_allclose(got[0].numpy(), w.reference(arrays)[0], rtol=1e-4, atol=1e-4)


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
    mod = formats.lower("layered-trace", json.dumps(doc), w.canonical_module())
    with pytest.raises(ValueError, match=problem) as e:
        OpenCL().build(mod, "/dev/null")
    assert "bind" in str(e.value)


# --- model graphs: lowering and running the launch plan (in-process) --------------------------

def _graph(body, legalize=True):
    """A Relax ``main(x: float32[8])`` of one dataflow block, legalized into call_tir of PrimFuncs."""
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorType((8,), "float32"))
    with bb.function("main", [x]):
        with bb.dataflow():
            out = bb.emit_output(body(bb, x))
        bb.emit_func_output(out)
    return relax.transform.LegalizeOps()(bb.get()) if legalize else bb.get()


def test_a_model_graph_becomes_one_launch_plan_in_binding_order():
    w = suite.get_workload("model/anomaly-autoencoder@b1")
    b = OpenCL()
    mod = b.default_module(w.canonical_module())
    doc = lower_to_artifact(mod, b.target())
    # the harness's tensors in its order: the data, the weights (main's parameters), the output
    assert ([(p["shape"], p["dtype"]) for p in doc["params"]]
            == [(t["shape"], t["dtype"]) for t in w.signature()])
    calls = [bd.value.args[0].name_hint for blk in mod["main"].body.blocks for bd in blk.bindings]
    assert [k["name"] for k in doc["kernels"]] == [f"{c}_kernel" for c in calls]  # dlight: one kernel each
    # every result but the last is an intermediate, written by one launch and read by a later one;
    # the last is the harness's output buffer
    assert len(doc["workspace"]) == len(calls) - 1
    uses: dict[str, list[int]] = {}
    for i, k in enumerate(doc["kernels"]):
        for a in k["args"]:
            uses.setdefault(a["buffer"], []).append(i)
    assert all(len(uses[t["name"]]) >= 2 for t in doc["workspace"])
    assert uses[doc["params"][-1]["name"]] == [len(calls) - 1]


def test_a_graph_with_tuples_and_a_tensor_passed_twice_runs_correct(tmp_path):
    """split (two outputs TVM names alike), tuple items, add(a, a), and a tuple returned."""
    def body(bb, x):
        parts = bb.emit(relax.op.split(x, 2))
        a, c = bb.emit(relax.TupleGetItem(parts, 0)), bb.emit(relax.TupleGetItem(parts, 1))
        return relax.Tuple([bb.emit(relax.op.multiply(bb.emit(relax.op.add(a, a)), c)), relax.op.nn.relu(a)])

    b = OpenCL()
    b.build(_graph(body), str(tmp_path / "plan.json"))  # every function unscheduled: dlight's
    doc = json.loads((tmp_path / "plan.json").read_text())
    assert len(doc["kernels"]) == 5 and len(doc["workspace"]) == 3
    x = np.random.default_rng(0).standard_normal(8).astype(np.float32)
    outs = [b.tensor(np.full(4, np.nan, np.float32)) for _ in range(2)]
    prod, pos = (t.numpy() for t in b.load(str(tmp_path / "plan.json"), graph=True)([b.tensor(x)], outs))
    np.testing.assert_allclose(prod, 2 * x[:4] * x[4:], rtol=1e-6)
    np.testing.assert_array_equal(pos, np.maximum(x[:4], 0))


@pytest.mark.parametrize("body, legalize, problem", [
    (lambda bb, x: relax.op.add(x, x), False, "a call to relax.add"),  # no PrimFunc behind it
    (lambda bb, x: relax.op.call_dps_packed("ext_fn", [x], relax.TensorType((8,), "float32")), True,
     "a call to relax.call_dps_packed"),
    # a constant as the model's output is no launch
    (lambda bb, x: relax.const(np.ones(8, np.float32)), True, "returns its constant"),
])
def test_what_a_launch_plan_cannot_hold_is_a_build_error_naming_it(body, legalize, problem):
    with pytest.raises(ValueError, match=problem) as e:
        OpenCL().build(_graph(body, legalize), "/dev/null")
    assert "the opencl backend" in str(e.value)


def test_a_graph_constant_is_loaded_into_its_buffer(tmp_path):
    """DLRM's index lists are constants of its Relax main: they travel in the artifact."""
    c = np.arange(8, dtype=np.float32)[::-1].copy()
    b = OpenCL()
    b.build(_graph(lambda bb, x: relax.op.multiply(x, relax.const(c))), str(tmp_path / "plan.json"))
    doc = json.loads((tmp_path / "plan.json").read_text())
    [const] = [t for t in doc["workspace"] if "data" in t]
    assert np.array_equal(np.frombuffer(base64.b64decode(const["data"]), np.float32), c)
    x = np.random.default_rng(0).standard_normal(8).astype(np.float32)
    kernel = b.load(str(tmp_path / "plan.json"), graph=True)
    for _ in range(2):  # the constant survives a call
        [out] = kernel([b.tensor(x)], [b.tensor(np.full(8, np.nan, np.float32))])
        np.testing.assert_array_equal(out.numpy(), x * c)


def test_a_graph_function_a_trace_leaves_partly_unbound_is_named_in_the_error():
    w = suite.get_workload("model/anomaly-autoencoder@b1")
    fn = "fused_matmul4_add4"
    doc = {"format": "layered-trace", "version": 1, "functions": {fn: {"schedule": [
        {"op": "get_loops", "block": "T_add", "into": ["i", "j"]},
        {"op": "bind", "loop": "j", "thread": "blockIdx.x"}]}}}
    mod = formats.lower("layered-trace", json.dumps(doc), w.canonical_module(),
                      default_layers=OpenCL().default_layers)
    with pytest.raises(ValueError, match=f"function '{fn}': part of the computation is not bound"):
        OpenCL().build(mod, "/dev/null")


def test_the_hand_tuned_graph_entry_keeps_its_function_and_leaves_the_rest_to_dlight(tmp_path):
    w = suite.get_workload("model/ds-cnn-kws@n1h49w10")
    b = OpenCL()
    text = _entry("hand-tuned", w.id)
    b.build(formats.lower("layered-trace", text, w.canonical_module(), default_layers=b.default_layers),
            str(tmp_path / "plan.json"))
    tuned = json.loads((tmp_path / "plan.json").read_text())
    default = lower_to_artifact(b.default_module(w.canonical_module()), b.target())
    named = set(json.loads(text)["functions"])
    for k, d in zip(tuned["kernels"], default["kernels"]):
        assert k["name"] == d["name"]
        sizes, dlight_sizes = (k["global"], k["local"]), (d["global"], d["local"])
        assert (sizes != dlight_sizes) == any(k["name"].startswith(f + "_kernel") for f in named), k["name"]
    kernel = ocl.ClKernel(ocl.runtime(), ocl.parse_artifact(json.dumps(tuned)))
    arrays = generate(w, 0)
    (out,) = kernel([b.tensor(a) for a in arrays], [b.tensor(np.full((1, 12), np.nan, np.float32))])
    np.testing.assert_allclose(out.numpy(), w.reference(arrays)[0], rtol=1e-4, atol=1e-4)


# --- through the pipeline and the sandbox ----------------------------------------------------

def test_the_dlight_default_entry_builds_and_runs_correct_with_several_kernels(pipeline):
    """The shipped tvm-default entry (dlight, as TVMScript) of a function lowered to three
    kernels with two intermediate buffers: correct, and timed against itself as baseline."""
    w = suite.get_workload("conv-block/depthwise-separable-bn@n1c64h25w5k64s1p1")
    fmt, _, text = default_entry(w, "opencl")
    assert _entry("tvm-default", w.id) == text
    r = pipeline.evaluate(w, Candidate(fmt, text))
    assert r.status == records.CORRECT, r.reason
    assert set(r.times) == {"candidate", "tvm-default"}  # no vendor baseline on opencl
    assert "tvm-default" in r.speedup and "vendor" not in r.speedup  # ≈1, not asserted: timing is noisy
    assert r.times["candidate"].median_s > 0 and not r.detail["timing_suspicious"]
    # the same kernel, so about the same batch: tvm-default's first launch compiles its program
    # (the candidate's was compiled by the correctness runs) and once set its batch to one call.
    # Not equal: kernels are batched alike only when their per-call estimates are within 1.5x,
    # and on PoCL two estimates of one kernel have come out 9 and 14 calls a sample apart.
    calls = r.detail["timing"]["calls_per_sample"]
    assert min(calls.values()) > 1 and max(calls.values()) <= 2 * min(calls.values()), calls


def test_a_layered_trace_with_bind_runs_correct(pipeline):
    w = suite.get_workload("matmul/matmul@m128n512k128")
    r = pipeline.evaluate(w, Candidate("layered-trace", _entry("hand-tuned", w.id)))
    assert r.status == records.CORRECT, r.reason
    assert r.speedup["tvm-default"] > 0


@pytest.mark.parametrize("wid", [
    "activation/log1p@t98f257",  # TVM writes C99's log1pf, which OpenCL C lacks
    "scan/cumsum-lastaxis@m64n1024",  # an opaque loop nest: rows become work-groups
    "index/topk@m1n1000k5",  # built from TOPI's GPU kernel, not the CPU sorting library
    "index/sort@m64n1024",  # TOPI's GPU sort: a host loop of merge passes, unrolled into launches
    "signal/goertzel@f40n205",  # a resonant recurrence: its coefficients must be exact
    "elementwise/add@m128n768-f16",  # float16 on a device that may lack half arithmetic
    "pool/adaptive-avg-pool2d@n1c256h13w13o6",  # windows of varying size: dlight's Fallback declines
    "signal/zero-crossing-rate@f98n400",  # a reduction loop from 1: Fallback declines too
    "transformer-block/qkv-projection@s197d192h3",  # dlight's Matmul leaves two epilogues reading a
                                                    # buffer it removed: another rule takes it
])
def test_the_tvm_default_entry_is_correct_where_dlight_alone_is_not_enough(pipeline, wid):
    w = suite.get_workload(wid)
    fmt, _, text = default_entry(w, "opencl")
    assert _entry("tvm-default", w.id) == text
    r = pipeline.evaluate(w, Candidate(fmt, text))
    assert r.status == records.CORRECT, r.reason


def test_float_constants_are_written_exactly():
    w = suite.get_workload("signal/goertzel@f40n205")
    b = OpenCL()
    source = lower_to_artifact(b.default_module(w.canonical_module(), w), b.target())["source"]
    assert "1.703275e+00f" not in source  # what TVM's codegen prints: 7 digits
    assert float.hex(float(np.float32(1.7032753991180369))) + "f" in source


def test_a_host_loop_of_launches_is_unrolled_with_its_arguments_bound():
    w = suite.get_workload("index/sort@m64n1024")
    b = OpenCL()
    doc = lower_to_artifact(b.default_module(w.canonical_module(), w), b.target())
    merges = [k for k in doc["kernels"] if k["name"] == "main_kernel_2"]
    assert len(merges) == 3  # log2(1024) - 7 merge passes, one launch each
    widths = [next(a["scalar"] for a in k["args"] if "scalar" in a) for k in merges]
    assert widths == [0, 1, 2]  # the loop variable, bound per iteration


def test_float16_runs_through_a_float32_variant_only_where_the_device_lacks_half(tmp_path, monkeypatch):
    w = suite.get_workload("elementwise/add@m128n768-f16")
    b = OpenCL()
    path = tmp_path / "k.json"
    b.build(b.default_module(w.canonical_module(), w), str(path))
    doc = ocl.parse_artifact(path.read_text())
    assert "half" in doc["source"] and "half" not in doc["half_as_float"]["source"]
    rt = ocl.runtime()
    kernel = b.load(str(path), False)
    assert bool(kernel.widened) == (not rt.has_fp16)
    a, c = (np.random.default_rng(0).standard_normal((128, 768)).astype("float16") for _ in range(2))
    out = kernel([b.tensor(a), b.tensor(c)], [b.tensor(np.zeros((128, 768), "float16"))])[0].numpy()
    assert out.dtype == np.float16
    np.testing.assert_allclose(out, (a.astype(np.float32) + c).astype(np.float16), rtol=1e-3)
    # a device with half arithmetic runs the artifact's own source
    monkeypatch.setattr(type(rt), "has_fp16", property(lambda self: True))
    assert ocl.runs_as(rt, doc) is doc


def test_an_unbound_schedule_is_a_compile_error(pipeline):
    w = suite.get_workload("activation/relu@m128n768")
    r = pipeline.evaluate(w, Candidate("layered-trace", json.dumps(
        {"format": "layered-trace", "version": 1, "layers": {}})))
    assert r.status == records.COMPILE_ERROR
    assert "nothing runs on the OpenCL device" in r.reason and "bind" in r.reason


@pytest.mark.parametrize("wid", ["model/anomaly-autoencoder@b1", "model/ds-cnn-kws@n1h49w10"])
def test_a_model_graph_runs_correct_with_the_tvm_default_entry(graph_pipeline, wid):
    """The shipped L3 entry (every fused function left to dlight) runs as a launch plan: checked
    against the reference and timed against the tvm-default build of the same graph."""
    w = suite.get_workload(wid)
    fmt, _, text = default_entry(w, "opencl")
    assert _entry("tvm-default", w.id) == text
    r = graph_pipeline.evaluate(w, Candidate(fmt, text))
    assert r.status == records.CORRECT, r.reason
    assert set(r.times) == {"candidate", "tvm-default"} and "baseline_error" not in r.detail
    assert r.times["candidate"].median_s > 0 and not r.detail["timing_suspicious"]


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
    (lambda d: d["workspace"].append({"name": "c", "shape": [4], "dtype": "int32", "data": "@@"}),
     "not valid base64"),
    (lambda d: d["workspace"].append({"name": "c", "shape": [4], "dtype": "int32",
                                      "data": base64.b64encode(bytes(12)).decode()}), "holds 12 bytes"),
    (lambda d: d["workspace"].append({"name": "c", "shape": [5 << 18], "dtype": "int32",
                                      "data": base64.b64encode(bytes(5 << 20)).decode()}),
     "bytes of constant tensors"),
])
def test_a_tampered_artifact_is_refused(change, problem):
    w = suite.get_workload("activation/relu@m128n768")
    b = OpenCL()
    doc = lower_to_artifact(b.default_module(w.canonical_module()), b.target())
    change(doc)
    with pytest.raises(ValueError, match=problem):
        ocl.parse_artifact(json.dumps(doc))
