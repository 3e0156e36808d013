"""The backend interface: each backend is a builder and a runner composed, and a compile farm's
build worker (``get_builder``) holds the builder alone — no device half, nothing on the build path
asking for one — while what it builds is what the whole backend loads."""

import numpy as np
import pytest

from evaluator import suite
from evaluator.backends import BACKENDS, BUILDERS, get_backend, get_builder
from evaluator.backends.base import Backend, DeviceRunner, TargetBuilder
from evaluator.backends.cuda import CudaBuilder, cuda_sources
from evaluator.backends.rpc import RpcBuilder
from evaluator.pipeline import Builder, Candidate
from evaluator.suite.inputs import generate
from evaluator.suite.spec import WorkloadSpec

H100 = {"kind": "cuda", "arch": "sm_90", "max_threads_per_block": 1024, "max_shared_memory_per_block": 49152,
        "thread_warp_size": 32, "host": {"kind": "llvm", "mtriple": "x86_64-linux-gnu", "mcpu": "x86-64-v3"}}
RUNNER_ONLY = ("info", "device", "device_target", "load", "tensor", "wrap", "vendor_kernel", "measure_peaks",
               "child_env", "device_paths", "prepare_run", "runs_target", "unavailable")
TINY = "activation/relu@m128n768"


def test_every_backend_is_its_builder_and_a_runner_composed():
    assert set(BUILDERS) == set(BACKENDS)
    for name, backend in BACKENDS.items():
        builder = BUILDERS[name]
        assert issubclass(backend, Backend) and issubclass(backend, builder), name
        # the runner half is a base of its own, which never builds
        (runner,) = [c for c in backend.__bases__ if issubclass(c, DeviceRunner) and c is not Backend]
        assert not issubclass(runner, TargetBuilder), name
        assert not any(hasattr(runner, a) for a in ("target", "build", "build_source", "default_module")), name


@pytest.mark.parametrize("name,target", [("cpu-llvm", None), ("opencl", None), ("cuda", H100), ("rpc:pi", None)])
def test_the_builder_alone_has_no_device_half(name, target):
    builder = get_builder(name, target)
    assert isinstance(builder, TargetBuilder) and not isinstance(builder, DeviceRunner)
    assert not any(hasattr(builder, a) for a in RUNNER_ONLY), [a for a in RUNNER_ONLY if hasattr(builder, a)]
    assert builder.name == name and builder.target()["kind"] in ("llvm", "opencl", "cuda")
    if name.startswith("rpc:"):
        assert type(builder) is RpcBuilder


def test_cuda_s_builder_builds_for_a_gpu_elsewhere_from_its_target_json(tmp_path):
    # this machine need have no GPU: arch, limits and host all come from the target
    builder = get_builder("cuda", {**H100, "max_shared_memory_per_block": 101376})
    assert type(builder) is CudaBuilder
    target = builder.target()
    assert (target["arch"], target["max_shared_memory_per_block"], target["host"]) == (
        "sm_90", 101376, H100["host"])
    w = suite.get_workload(TINY)
    ex = builder.compile(builder.default_module(w.canonical_module(), w))
    (source,) = cuda_sources(ex.mod)
    assert "__global__" in source
    ex.export_library(str(tmp_path / "relu.so"))
    assert (tmp_path / "relu.so").stat().st_size > 0
    # the vendor call is the builder's to say (a farm's WorkloadSpec carries it to the device)
    conv = suite.get_workload("conv2d/conv2d-nchw@n1c32h28w28k32r3s1")
    assert builder.vendor_spec(conv) == {"pattern": conv.pattern.id, "params": conv.params}


def test_what_the_builder_alone_builds_the_whole_backend_loads(tmp_path):
    w = suite.get_workload(TINY)
    builder = get_builder("cpu-llvm")
    path = tmp_path / "relu.so"
    builder.build(builder.default_module(w.canonical_module(), w), str(path))

    backend = get_backend("cpu-llvm")
    assert backend.runs_target(builder.target()) == ""
    arrays = generate(w, seed=0)
    outs = [backend.tensor(np.zeros(t.shape, t.dtype)) for t in w.outputs]
    got = backend.load(str(path), graph=False)([backend.tensor(a) for a in arrays], outs)
    for g, expected in zip(got, w.reference(arrays)):
        np.testing.assert_allclose(g.numpy(), expected, rtol=1e-6)


def test_a_farm_s_build_path_needs_the_builder_only(quick_protocol):
    """``Builder`` over the build half alone: the candidate's sandboxed build step, the baselines
    and the workload's spec — none of which may reach for a device method it does not have."""
    w = suite.get_workload(TINY)
    builder = Builder(get_builder("cpu-llvm"), quick_protocol)
    source = builder.backend.default_module(w.canonical_module(), w).script()
    built = builder.build(w, Candidate("tvmscript", source))
    assert built.artifact is not None, built.record.reason
    assert built.pure
    assert builder.build_inputs(w, Candidate("tvmscript", source))["env"] == builder.backend.build_env()
    assert set(builder.baselines(w, built.record)) >= {"tvm-default"}
    spec = WorkloadSpec.of(w, builder.backend, quick_protocol.seeds)
    assert spec.vendor == get_backend("cpu-llvm").vendor_spec(w)
