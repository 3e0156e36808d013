"""Untrusted code on a GPU, sandboxed: the attacks a measurement machine must contain, then a
normal entry that must still evaluate (the device is not left wedged).

Runs on a machine with a CUDA GPU and the sandbox; nothing here needs TVM's compiler (the GPU
machine has only its runtime), so the kernels are what reaches such a machine: a CUDA C entry
(compiled by NVRTC in the run step) and a shared library built elsewhere, here a hostile one whose
load-time constructor makes raw system calls (no libc symbol for the library policy to catch).
Each goes through the product's runner (``Pipeline.measure``: the kernel's own sandboxed
process, the parent's clock, the checks) and each asserts its specific reason.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from gpu_helpers import LAUNCH, RELU, Relu

from evaluator import records
from evaluator.backends.cuda import Cuda
from evaluator.harness.protocol import Limits, Protocol
from evaluator.sandbox import SandboxLimits, probe

WHY_NOT = Cuda().unavailable() or probe()
pytestmark = [pytest.mark.gpu, pytest.mark.skipif(bool(WHY_NOT), reason=f"no sandboxed CUDA GPU here: {WHY_NOT}")]
ROOT = Path(__file__).resolve().parents[2]
LIMITS = SandboxLimits(memory_bytes=3 << 30, pids=96, cpu_seconds=60)


@pytest.fixture(scope="module", params=["detected", "memory-only"])
def pipe(request):
    """The cgroup layout this machine has, and the one where only memory is delegated (what a
    GPU job slice gives: the pids limit is then RLIMIT_NPROC, as uid 65534 outside too)."""
    from dataclasses import replace

    from evaluator.pipeline import Pipeline
    from evaluator.sandbox import Sandbox, cgroup

    layout = cgroup.detect()
    if request.param == "memory-only":
        layout = replace(layout, controllers=frozenset({"memory"}))
    protocol = Protocol(time_budget_s=0.3, min_rounds=5, limits=Limits(build_s=20, check_s=20, time_s=30))
    p = Pipeline("cuda", protocol, sandbox=Sandbox(LIMITS, layout=layout), tuned_records=None)
    assert p.sandbox.devices.nodes, "the cuda steps get the GPU's device nodes"
    p.layout_name = request.param
    return p


def measure(pipe, artifact_path: Path):
    from evaluator.pipeline import Artifact

    t0 = time.monotonic()
    r = pipe.measure(Relu(), Artifact.trusted(artifact_path), {}, time_vendor=False)
    report = os.environ.get("EKB_GPU_SANDBOX_REPORT")  # what bench/results records of a GPU run
    if report:
        with open(report, "a") as f:
            f.write(json.dumps({"test": os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0],
                                "sandbox": pipe.sandbox.describe(), "status": r.status, "reason": r.reason,
                                "seconds": round(time.monotonic() - t0, 1)}) + "\n")
    return r


def cuda_source(tmp_path: Path, source: str, launch: dict = LAUNCH) -> Path:
    path = tmp_path / f"k{time.monotonic_ns()}.json"
    Cuda().build_source("cuda-source", source, launch, Relu().signature(), str(path))
    return path


# A library whose constructor runs at load, in the kernel's process, with raw system calls.
HOSTILE = r"""
static long sys6(long n, long a, long b, long c, long d, long e, long f) {
    long r;
    register long r10 __asm__("r10") = d, r8 __asm__("r8") = e, r9 __asm__("r9") = f;
    __asm__ volatile ("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                      : "rcx", "r11", "memory");
    return r;
}
#define sys(n, a, b, c) sys6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)
__attribute__((constructor)) static void attack(void) { ATTACK }
"""


def hostile(tmp_path: Path, attack: str) -> Path:
    if shutil.which("gcc") is None:
        pytest.skip("building the hostile libraries needs gcc")
    src, lib = tmp_path / "hostile.c", tmp_path / f"hostile{time.monotonic_ns()}.so"
    src.write_text(HOSTILE.replace("ATTACK", attack))
    subprocess.run(["gcc", "-O1", "-shared", "-fPIC", "-o", str(lib), str(src)], check=True)
    return lib


def test_a_normal_cuda_entry_is_correct_sandboxed(pipe, tmp_path):
    r = measure(pipe, cuda_source(tmp_path, RELU))
    assert r.status == records.CORRECT, r.reason
    assert r.detail["run_usage"]["peak_memory_bytes"] > 0


def test_network_from_the_gpu_machine_is_a_forbidden_system_call(pipe, tmp_path):
    r = measure(pipe, hostile(tmp_path, "sys(41, 2, 1, 0);  /* socket(AF_INET, SOCK_STREAM) */"))
    assert r.status == records.RUNTIME_ERROR, r.reason
    assert "a forbidden system call" in r.reason, r.reason


def test_host_files_are_not_there(pipe, tmp_path):
    # exits 23 when none of them opens, 17 when one does
    paths = ["/etc/shadow", str(ROOT / "tests" / "conftest.py"), str(ROOT / "config" / "settings.py"),
             str(tmp_path / "hostile.c")]
    opens = " ".join(f'if (sys(2, "{p}", 0, 0) >= 0) sys(231, 17, 0, 0);' for p in paths)
    r = measure(pipe, hostile(tmp_path, opens + " sys(231, 23, 0, 0);"))
    assert r.status == records.RUNTIME_ERROR, r.reason
    assert "exited with status 23" in r.reason, r.reason


def test_a_fork_bomb_is_held(pipe, tmp_path):
    t0 = time.monotonic()
    r = measure(pipe, hostile(tmp_path, "for (;;) sys(57, 0, 0, 0);  /* fork */"))
    assert r.status in (records.RUNTIME_ERROR, records.TIMEOUT), r.reason
    assert r.reason.startswith("process limit"), r.reason
    assert time.monotonic() - t0 < 90


def test_a_memory_bomb_hits_the_memory_limit(pipe, tmp_path):
    bomb = ("for (int i = 0; i < 256; ++i) { char *p = (char *)sys6(9, 0, 64L << 20, 3, 0x22, -1, 0);"
            " if ((long)p < 0) break; for (long j = 0; j < (64L << 20); j += 4096) p[j] = 1; }")
    r = measure(pipe, hostile(tmp_path, bomb))
    assert r.status == records.RUNTIME_ERROR, r.reason
    assert "memory limit of 3072 MiB exceeded" in r.reason, r.reason


def test_a_daemon_does_not_outlive_the_step(pipe, tmp_path):
    marker = f"ekb-gpu-daemon-{os.getpid()}-{time.monotonic_ns()}"
    daemon = ('if (sys(57, 0, 0, 0) == 0) { sys(112, 0, 0, 0); if (sys(57, 0, 0, 0) == 0) {'
              f' char *argv[] = {{"sleep", "600", "{marker}", 0}}; sys(59, "/usr/bin/sleep", argv, 0); }}'
              ' sys(231, 0, 0, 0); }')
    r = measure(pipe, hostile(tmp_path, daemon))
    assert r.status == records.RUNTIME_ERROR, r.reason  # not a TVM module: it fails to load
    time.sleep(0.5)
    left = [d.name for d in Path("/proc").iterdir() if d.name.isdigit() and _cmdline_has(d, marker)]
    assert left == []


def _cmdline_has(d: Path, marker: str) -> bool:
    try:
        return marker.encode() in (d / "cmdline").read_bytes()
    except OSError:
        return False


def test_an_out_of_bounds_gpu_kernel_fails_and_the_next_job_runs(pipe, tmp_path):
    oob = RELU.replace("if (i < n) Y[i] =", "Y[i + (1LL << 36)] =")
    r = measure(pipe, cuda_source(tmp_path, oob))
    assert r.status == records.RUNTIME_ERROR, r.reason
    assert "cudaErrorIllegalAddress: an illegal memory access" in r.reason, r.reason
    assert measure(pipe, cuda_source(tmp_path, RELU)).status == records.CORRECT


def test_a_never_ending_gpu_kernel_times_out_and_the_next_job_runs(pipe, tmp_path):
    spin = RELU.replace("if (i < n) Y[i] =", "volatile int s = 1; while (s) { __nanosleep(1000); } Y[i] =")
    t0 = time.monotonic()
    r = measure(pipe, cuda_source(tmp_path, spin))
    assert r.status == records.TIMEOUT, r.reason
    assert r.reason == "correctness runs exceeded the 20 s limit", r.reason
    assert time.monotonic() - t0 < 120
    assert measure(pipe, cuda_source(tmp_path, RELU)).status == records.CORRECT
