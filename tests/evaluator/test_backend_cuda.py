"""The cuda backend: what holds without a GPU (availability with its reason, the build half, the
cuda-source static checks, the PyTorch vendor table) and, on a GPU machine, the run half."""

import json
import os
import re

import pytest

from evaluator import records, suite
from evaluator.backends import BackendUnavailable, get_backend, infos
from evaluator.backends.cuda import RAW_FORMAT, Cuda, check_signature, cuda_sources, driver
from evaluator.baselines import vendor_torch
from evaluator.formats.bundle import load_bundle
from evaluator.formats.raw_source import bind_args

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "bundles")
WHY_NO_GPU, FACTS = driver()
HOST = {"kind": "llvm", "mcpu": "x86-64-v3"}
gpu = pytest.mark.skipif(bool(WHY_NO_GPU) or bool(Cuda().unavailable()),
                         reason=f"no usable CUDA GPU here: {WHY_NO_GPU or Cuda().unavailable()}")


@pytest.fixture(scope="module")
def offline():
    """The build half for an H100/H200 (sm_90), as a build machine without a GPU uses it."""
    return Cuda(arch="sm_90", host=HOST)


def test_unavailable_without_a_gpu_names_the_reason():
    if not WHY_NO_GPU:
        pytest.skip(f"this machine has a CUDA device ({FACTS.get('name')})")
    info = next(i for i in infos() if i.name == "cuda")
    assert not info.available and info.reason == WHY_NO_GPU
    assert "libcuda" in info.reason or "no CUDA device" in info.reason
    with pytest.raises(BackendUnavailable, match="'cuda' is unavailable: " + WHY_NO_GPU.split("(")[0]):
        get_backend("cuda")
    # building for a GPU elsewhere still needs to know which one
    with pytest.raises(BackendUnavailable, match="explicit arch"):
        Cuda().target()


def test_builds_the_default_module_without_a_gpu(offline, tmp_path):
    w = suite.get_workload("softmax/softmax@m256n512")
    mod = offline.default_module(w.canonical_module())
    ex = offline.compile(mod)
    (source,) = cuda_sources(ex.mod)
    assert "__global__" in source and 'extern "C"' in source
    path = tmp_path / "softmax.so"
    ex.export_library(str(path))
    assert path.stat().st_size > 0
    target = offline.target()
    assert target["arch"] == "sm_90" and target["max_shared_memory_per_block"] == 48 * 1024
    assert target["host"] == HOST


def test_a_model_graphs_default_entry_builds_with_dlight_for_every_function(offline, tmp_path):
    """A graph's tvm-default entry names every fused function with no steps; the build schedules
    each with dlight, as opencl's does. A kernel-level module left unbound is still refused."""
    from evaluator import formats
    from evaluator.examples import gpu_graph_default

    w = suite.get_workload("model/ds-cnn-kws@n1h49w10")
    doc = gpu_graph_default(w.canonical_module())
    mod = formats.lower("layered-trace", json.dumps(doc), w.canonical_module(), default_layers=offline.default_layers)
    ex = offline.compile(mod)
    sources = cuda_sources(ex.mod)
    assert sources and sum(s.count("__global__") for s in sources) >= len(doc["functions"])
    ex.export_library(str(tmp_path / "graph.so"))
    kernel = suite.get_workload("softmax/softmax@m256n512")
    with pytest.raises(ValueError, match="bind loops to blockIdx"):
        offline.compile(kernel.canonical_module())


_SHARED = re.compile(r"__shared__\s+(?:(?:__align__|alignas)\(\d+\)\s+)?(\w+)\s+\w+\[(\d+)\]")
_BYTES = {"float": 4, "half": 2, "int": 4, "char": 1, "signed char": 1, "double": 8, "uint": 4, "int64_t": 8}


@pytest.mark.parametrize("workload", ["gemv/gemv@m1024k1024", "gemv/gemv@m2048k2048-f16", "softmax/softmax@m256n512"])
def test_the_default_module_fits_the_static_shared_memory_of_a_cuda_block(offline, workload):
    # dlight's GEMV staged 64 KiB of a row block in shared memory, which NVRTC refuses on the
    # H200 (48 KiB static); a rule whose result is over the target's limits does not apply
    w = suite.get_workload(workload)
    (source,) = cuda_sources(offline.compile(offline.default_module(w.canonical_module(), w)).mod)
    assert "__shared__" not in source or _SHARED.search(source), "a shared buffer this test cannot read"
    for kernel in source.split("__global__")[1:]:
        used = sum(_BYTES[t] * int(n) for t, n in _SHARED.findall(kernel))
        assert used <= 48 * 1024, f"{used} bytes of static shared memory in {workload}"


def test_a_cpu_schedule_is_refused_rather_than_run_on_the_host(offline, tmp_path):
    from evaluator import formats

    bundle = load_bundle(os.path.join(EXAMPLES, "hand-tuned"))
    entry = next(e for e in bundle.entries if e.workload == "matmul/matmul@m256n256k256")
    w = suite.get_workload(entry.workload)
    mod = formats.lower(entry.format, entry.source, w.canonical_module(), default_layers=offline.default_layers)
    with pytest.raises(ValueError, match=r"nothing of \['main'\] runs on the GPU.*bind"):
        offline.build(mod, str(tmp_path / "m.so"))


def test_cuda_source_bundle_passes_the_build_checks(offline, tmp_path):
    bundle = load_bundle(os.path.join(EXAMPLES, "cuda-source"))
    assert len(bundle.entries) >= 10
    for e in bundle.entries:
        w = suite.get_workload(e.workload)
        path = tmp_path / "k.json"
        offline.build_source(e.format, e.source, e.launch, w.signature(), str(path))
        doc = json.loads(path.read_text())
        assert doc["format"] == RAW_FORMAT and doc["entry"] == e.launch["entry"]
        # each kernel parameter is bound to the workload tensor the manifest names
        names = [t["name"] for t in w.signature()]
        assert [names[i] for i in doc["order"]] == e.launch["args"]


SRC = 'extern "C" __global__ void __launch_bounds__(256) k(const float* __restrict__ X, float* Y) {}'


@pytest.mark.parametrize("source,entry,args,message", [
    (SRC, "nope", ["X", "T_relu"], "defines no __global__ kernel 'nope'; it defines \\['k'\\]"),
    (SRC.replace('extern "C" ', ""), "k", ["X", "T_relu"], 'extern "C"'),
    (SRC.replace("float* Y", "float* Y, int n"), "k", ["X", "T_relu"], "takes 3 parameters but launch 'args' lists 2"),
    (SRC.replace("const float* __restrict__ X", "const int* X"), "k", ["X", "T_relu"],
     "parameter 0 .* points to 'int' but launch 'args' binds tensor 'X', which is float32"),
    (SRC.replace("float* Y", "float Y"), "k", ["X", "T_relu"], "parameter 1 .* is not a pointer"),
])
def test_cuda_source_static_check_names_the_problem(source, entry, args, message):
    tensors = suite.get_workload("activation/relu@m128n768").signature()
    with pytest.raises(ValueError, match=message):
        check_signature(source, entry, bind_args({"args": args}, tensors))


def test_cuda_source_with_unknown_tensors_is_refused(offline, tmp_path):
    w = suite.get_workload("activation/relu@m128n768")
    launch = {"entry": "k", "args": ["X", "Y"], "grid": [96], "block": [256]}
    with pytest.raises(ValueError, match=r"unknown tensors \['Y'\]; missing tensors \['T_relu'\]"):
        offline.build_source("cuda-source", SRC, launch, w.signature(), str(tmp_path / "k.json"))


MM = """extern "C" __global__ void mm(const float* A, const float* B, float* C, long long m, long long n,
                                      long long k) {
    long long j = blockIdx.x * 16LL + threadIdx.x, i = blockIdx.y * 16LL + threadIdx.y;
    if (i >= m || j >= n) return;
    float acc = 0.0f;
    for (long long p = 0; p < k; ++p) acc += A[i * k + p] * B[p * n + j];
    C[i * n + j] = acc;
}"""
MM_LAUNCH = {"entry": "mm", "args": ["A", "B", "T_matmul"], "shape_args": ["m", "n", "k"],
             "grid": ["ceil_div(n, 16)", "ceil_div(m, 16)"], "block": [16, 16]}


def test_a_pattern_level_kernel_is_built_with_each_workloads_sizes(offline, tmp_path, monkeypatch):
    from evaluator.formats.raw_source import bind_shape

    for wid, grid, shape in [("matmul/matmul@m128n512k128", [32, 8], [128, 512, 128]),
                             ("matmul/matmul@m256n256k256", [16, 16], [256, 256, 256])]:
        w = suite.get_workload(wid)
        path = tmp_path / "k.json"
        offline.build_source("cuda-source", MM, bind_shape(MM_LAUNCH, w.params), w.signature(), str(path))
        doc = json.loads(path.read_text())
        assert (doc["grid"], doc["block"], doc["shape"]) == (grid, [16, 16], shape)
    # the shape parameters must be 64-bit integers
    w = suite.get_workload("matmul/matmul@m128n512k128")
    with pytest.raises(ValueError, match="parameter 3 \\('int m'\\) must be a 64-bit integer .*'shape_args' "
                                         "passes 'm' there"):
        offline.build_source("cuda-source", MM.replace("long long m", "int m"),
                             bind_shape(MM_LAUNCH, w.params), w.signature(), str(tmp_path / "k.json"))


def test_vendor_calls_exist_for_real_patterns_only():
    ids = {p.id for p in suite.patterns()}
    assert set(vendor_torch.CALLS) <= ids, set(vendor_torch.CALLS) - ids
    w = suite.get_workload("conv2d/conv2d-nchw@n1c32h28w28k32r3s1")  # no NumPy vendor, a cuDNN one
    assert Cuda().vendor_spec(w) == {"pattern": w.pattern.id, "params": w.params}
    assert Cuda().vendor_spec(suite.get_workload("model/ds-cnn-kws@n1h49w10")) is None


# --- on a GPU machine ------------------------------------------------------------------------

@gpu
@pytest.mark.gpu
def test_cuda_tasks_are_correct_and_at_parity_with_themselves(quick_protocol, monkeypatch):
    """The default module submitted as TVMScript against itself (≈1×), and a cuda-source kernel."""
    from evaluator.pipeline import Candidate, Pipeline

    pipe = Pipeline("cuda", protocol=quick_protocol)  # sandboxed: the steps get the GPU's nodes
    w = suite.get_workload("softmax/softmax@m1536n128")
    own = pipe.evaluate(w, Candidate("tvmscript", pipe.backend.default_module(w.canonical_module()).script()))
    assert own.status == records.CORRECT, own.reason
    assert 0.8 < own.speedup["tvm-default"] < 1.25
    assert "vendor" in own.speedup  # PyTorch
    entry = next(e for e in load_bundle(os.path.join(EXAMPLES, "cuda-source")).entries if e.workload == w.id)
    raw = pipe.evaluate(w, Candidate(entry.format, entry.source, launch=entry.launch))
    assert raw.status == records.CORRECT, raw.reason
    assert not raw.detail["timing_suspicious"]


@gpu
@pytest.mark.gpu
def test_a_pattern_level_cuda_kernel_is_right_on_every_shape(quick_protocol, monkeypatch):
    from evaluator.formats.raw_source import bind_shape
    from evaluator.pipeline import Candidate, Pipeline

    pipe = Pipeline("cuda", protocol=quick_protocol)
    for wid in ("matmul/matmul@m128n512k128", "matmul/matmul@m256n256k256"):
        w = suite.get_workload(wid)
        r = pipe.evaluate(w, Candidate("cuda-source", MM, launch=bind_shape(MM_LAUNCH, w.params)))
        assert r.status == records.CORRECT, (wid, r.reason)


@gpu
@pytest.mark.gpu
def test_device_clock_times_each_call_inside_the_host_interval():
    import cupy

    clock = Cuda().clock()
    a = cupy.ones(1 << 22, cupy.float32)
    per_call = clock.per_call(lambda: cupy.multiply(a, 2.0, out=a), 20)
    device, host = clock.last
    assert 0 < per_call * 20 == pytest.approx(device) and device < host


def test_steps_on_a_gpu_get_its_nodes_and_nothing_of_mig_administration(tmp_path):
    from evaluator.sandbox import nvidia_device_nodes

    for name in ("nvidia0", "nvidia1", "nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "nvidia-modeset"):
        (tmp_path / name).touch()
    (tmp_path / "nvidia-caps").mkdir()
    (tmp_path / "nvidia-caps" / "nvidia-cap1").touch()
    assert nvidia_device_nodes(tmp_path) == tuple(str(tmp_path / n) for n in (
        "nvidia0", "nvidia1", "nvidiactl", "nvidia-uvm", "nvidia-uvm-tools"))
    # the backend asks for what this machine has (nothing here), and the driver's libraries
    assert Cuda().device_paths().nodes == nvidia_device_nodes()
