"""cuda-edge: the GPU held to a Jetson Orin-class share by an MPS daemon per run step, emulated.

What holds without a GPU (the reason it is unavailable, the share's settings, that its board is
emulated) runs everywhere; the share itself — a step's kernels get a fraction of the SMs and a
capped device memory, and a normal entry is still correct — runs on a machine with a CUDA GPU,
MPS and the sandbox (marked ``gpu``, skipped here with the reason)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from gpu_helpers import LAUNCH, M, N, RELU, Relu

from evaluator import records
from evaluator.backends import emulation, get_backend, infos
from evaluator.backends.cuda import Cuda
from evaluator.backends.cuda_edge import (MEMORY_ENV, MPS_CONTROL, SM_PERCENT_ENV, CudaEdge, EdgeShare,
                                          ShareError)
from evaluator.harness import messages as m
from evaluator.harness.protocol import Limits, Protocol
from evaluator.sandbox import SandboxLimits, probe
from evaluator.vocabulary import BackendKind

WHY_NOT = Cuda().unavailable() or probe() or ("" if shutil.which(MPS_CONTROL) else f"no {MPS_CONTROL}")
needs_gpu = pytest.mark.skipif(bool(WHY_NOT), reason=f"no sandboxed CUDA GPU with MPS here: {WHY_NOT}")
LIMITS = SandboxLimits(memory_bytes=3 << 30, pids=96, cpu_seconds=60)
PROTOCOL = Protocol(time_budget_s=0.5, min_rounds=10, limits=Limits(build_s=20, check_s=30, time_s=30))


def test_the_board_is_emulated_and_says_why_it_is_unavailable():
    info = next(i for i in infos() if i.name == BackendKind.CUDA_EDGE)
    assert info.emulated  # its times never rank, whatever the machine
    assert emulation.is_emulated(BackendKind.CUDA_EDGE) and not emulation.is_emulated(BackendKind.CUDA)
    # a result recorded with the share's device line stays emulated where it is read back
    line = EdgeShare(12, 8192).describe(132)
    assert emulation.is_emulated("cuda", f"NVIDIA H100 — {line}")
    assert line == (f"{emulation.EDGE_GPU_MARK}: MPS active threads 12 % of 132 SMs, "
                    "8 GiB device memory cap (MPS)")
    if Cuda().unavailable():
        assert not info.available and info.reason == Cuda().unavailable()


@pytest.mark.parametrize("name, value, words", [
    (SM_PERCENT_ENV, "0", "from 1 to 100"), (SM_PERCENT_ENV, "101", "from 1 to 100"),
    (SM_PERCENT_ENV, "half", "from 1 to 100"), (MEMORY_ENV, "8", "of at least 16")])
def test_a_bad_share_names_the_setting(monkeypatch, name, value, words):
    monkeypatch.setenv(name, value)
    with pytest.raises(ShareError, match=f"{name}='{value}': expected a whole number {words}"):
        EdgeShare.from_env()


def test_the_share_is_set_on_the_steps_daemon_before_any_client(monkeypatch):
    monkeypatch.setenv(SM_PERCENT_ENV, "25")
    monkeypatch.setenv(MEMORY_ENV, "2048")
    lines = EdgeShare.from_env().launch("/opt/nvidia/nvidia-cuda-mps-control")
    pipe = "CUDA_MPS_PIPE_DIRECTORY={scratch}/mps/pipe"
    assert lines[1].startswith(pipe) and lines[1].endswith("nvidia-cuda-mps-control -d")
    assert "set_default_active_thread_percentage 25 |" in lines[2] and pipe in lines[2]
    assert "set_default_device_pinned_mem_limit 0 2048M |" in lines[3] and pipe in lines[3]
    # the step's client finds the same daemon (its scratch is bound at the same path)
    env = CudaEdge().prepare_run("/scratch/x", 10)
    assert env["CUDA_MPS_PIPE_DIRECTORY"] == "/scratch/x/mps/pipe"


def test_it_never_runs_unsandboxed():
    if Cuda().unavailable():
        pytest.skip(f"needs a CUDA GPU to get that far: {Cuda().unavailable()}")
    from evaluator.backends import BackendUnavailable

    with pytest.raises(BackendUnavailable, match="never runs unsandboxed"):
        CudaEdge().run_sandbox(None)


# --- on a GPU machine with MPS ------------------------------------------------------------------

# relu with a compute-bound loop in front: 4,096 dependent FMAs a thread, kept by the result
BUSY = """extern "C" __global__ void relu(const float* X, float* Y, long long n) {
    long long i = blockIdx.x * 256LL + threadIdx.x;
    if (i >= n) return;
    float x = X[i], a = x;
    for (int k = 0; k < 4096; ++k) a = fmaf(a, 0.999999f, 1e-7f);
    Y[i] = (a == 12345.678f ? 1.0f : 0.0f) + (x > 0.0f ? x : 0.0f);
}"""


def _pipe(backend: str):
    from evaluator.pipeline import Pipeline
    from evaluator.sandbox import Sandbox

    return Pipeline(backend, PROTOCOL, sandbox=Sandbox(LIMITS), tuned_records=None)


def _measure(backend: str, tmp_path: Path, source: str):
    from evaluator.pipeline import Artifact

    path = tmp_path / f"{backend}-{time.monotonic_ns()}.json"
    Cuda().build_source("cuda-source", source, LAUNCH, Relu().signature(), str(path))
    return _pipe(backend).measure(Relu(), Artifact.trusted(path), {}, time_vendor=False)


@pytest.mark.gpu
@needs_gpu
def test_the_board_names_the_gpu_and_its_share():
    info = get_backend(BackendKind.CUDA_EDGE).info()
    assert info.available and info.emulated, info.reason
    assert emulation.EDGE_GPU_MARK in info.device and "MPS active threads 12 %" in info.device


@pytest.mark.gpu
@needs_gpu
def test_a_normal_entry_is_correct_on_its_share(tmp_path):
    r = _measure(BackendKind.CUDA_EDGE, tmp_path, RELU)
    assert r.status == records.CORRECT, r.reason


@pytest.mark.gpu
@needs_gpu
def test_a_compute_bound_kernel_gets_a_fraction_of_the_sms(tmp_path):
    """12 % of the SMs: a kernel of 384 blocks that keeps every SM busy takes several times as
    long on the share as on the whole GPU (an H100: 14 of 132 SMs)."""
    whole = _measure(BackendKind.CUDA, tmp_path, BUSY)
    share = _measure(BackendKind.CUDA_EDGE, tmp_path, BUSY)
    assert whole.status == share.status == records.CORRECT, (whole.reason, share.reason)
    slower = share.times["candidate"].median_s / whole.times["candidate"].median_s
    assert slower > 3, slower


@pytest.mark.gpu
@needs_gpu
def test_device_memory_past_the_cap_is_refused(tmp_path, monkeypatch):
    """A 16 MiB cap: the step's device tensors (the slots of a 128x768 relu, about 24 MiB) do not
    fit, and the task ends with the allocation's error rather than using the whole GPU's memory."""
    from evaluator.harness import timing
    from evaluator.harness.arena import layout as arena_layout

    specs = [m.TensorSpec("X", (M, N), "float32"), m.TensorSpec("T_relu", (M, N), "float32", "output")]
    assert arena_layout(*timing.arena_plan(specs, CudaEdge.max_slots)).total > 16 << 20
    monkeypatch.setenv(MEMORY_ENV, "16")
    r = _measure(BackendKind.CUDA_EDGE, tmp_path, RELU)
    assert r.status == records.RUNTIME_ERROR
    assert "memory" in r.reason.lower(), r.reason
