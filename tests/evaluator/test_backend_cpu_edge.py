"""cpu-edge: this host's CPU under an edge profile, through the real sandbox and pipeline — its run
steps pinned to the profile's CPUs (read from the live step processes), its memory cap the
profile's, its settings checked with the bad value named."""

import os
import platform

import pytest

from evaluator import records
from evaluator.backends import BACKENDS, BUILDERS, get_backend, get_builder
from evaluator.backends.cpu_edge import CpuEdge, CpuEdgeBuilder, EdgeProfile, ProfileError
from evaluator.backends.cpu_llvm import CpuLlvmBuilder, CpuLlvmRunner
from evaluator.pipeline import Candidate, Pipeline
from evaluator.sandbox import probe
from evaluator.vocabulary import Baseline, BackendKind
from step_helpers import LAUNCH, RELU, UNPIN, serve_step_cpus

needs_sandbox = pytest.mark.skipif(probe() is not None, reason=f"no sandbox on this machine: {probe()}")

GOOD = """
void relu(const float *restrict X, float *restrict Y) {
    for (int i = 0; i < 128 * 768; ++i) Y[i] = X[i] > 0.0f ? X[i] : 0.0f;
}
"""
# correct, but its first call takes 512 MiB and touches every page (kept: later calls are free):
# more than the test profile's 256 MiB, less than the deployment's 4 GiB
HUNGRY = """
#include <stdlib.h>
#include <string.h>
static char *hoard;
void relu(const float *restrict X, float *restrict Y) {
    if (!hoard) { hoard = malloc(512L << 20); memset(hoard, 1, 512L << 20); }
    for (int i = 0; i < 128 * 768; ++i) Y[i] = X[i] > 0.0f ? X[i] : 0.0f;
    Y[0] += hoard[(512L << 20) - 1] - 1;
}
"""
ALL_CPUS = tuple(sorted(os.sched_getaffinity(0)))


@pytest.fixture
def profile(monkeypatch):
    monkeypatch.setenv("EKB_EDGE_CPU_CORES", "1")
    monkeypatch.setenv("EKB_EDGE_CPU_MEMORY_MB", "256")
    monkeypatch.delenv("EKB_EDGE_CPU_LIST", raising=False)
    monkeypatch.delenv("EKB_SANDBOX_MEMORY_MB", raising=False)
    return EdgeProfile.from_env()


def evaluate(pipe, source):
    return pipe.evaluate(RELU, Candidate("c-source", source, launch=LAUNCH))


# --- the backend --------------------------------------------------------------------------------
def test_it_is_registered_and_composed_of_cpu_llvm_s_halves():
    assert BACKENDS[BackendKind.CPU_EDGE] is CpuEdge and BUILDERS[BackendKind.CPU_EDGE] is CpuEdgeBuilder
    assert issubclass(CpuEdge, CpuLlvmBuilder) and issubclass(CpuEdge, CpuLlvmRunner)


def test_the_target_is_built_for_the_profile_s_cores(monkeypatch):
    monkeypatch.setenv("EKB_EDGE_CPU_CORES", "1")
    target = get_backend("cpu-edge").target()
    assert target["num-cores"] == 1
    assert {k: v for k, v in target.items() if k != "num-cores"} == \
        {k: v for k, v in get_backend("cpu-llvm").target().items() if k != "num-cores"}
    # a build step is handed the target: its cores, not its own environment's
    assert get_builder("cpu-edge", {**target, "num-cores": 4}).target()["num-cores"] == 4


@needs_sandbox
def test_the_device_names_the_cpu_and_the_constraint(profile):
    info = get_backend("cpu-edge").info()
    assert info.available, info.reason
    cpus = ",".join(map(str, profile.cpus))
    assert info.device.endswith(f"— edge profile: 1 core (CPU {cpus}) pinned, 256 MiB memory cap (cgroup)")
    assert info.device.startswith(get_backend("cpu-llvm").info().device.split(" (")[0])
    assert profile.cpus == ALL_CPUS[-1:]  # the last CPU: the evaluating process is mostly on CPU 0


def test_the_thread_counts_are_the_profile_s(profile):
    env = get_backend("cpu-edge").child_env()
    assert env["TVM_NUM_THREADS"] == env["OMP_NUM_THREADS"] == env["OPENBLAS_NUM_THREADS"] == "1"
    assert env["TVM_BIND_THREADS"] == "0"  # TVM's own pinning would spread its pool over every CPU


# --- the CPU list's validation ------------------------------------------------------------------
def test_a_cpu_outside_the_affinity_is_named(monkeypatch):
    monkeypatch.setenv("EKB_EDGE_CPU_CORES", "1")
    monkeypatch.setenv("EKB_EDGE_CPU_LIST", "4095")
    with pytest.raises(ProfileError, match=r"EKB_EDGE_CPU_LIST='4095': CPU 4095 is not among this machine's CPUs"):
        EdgeProfile.from_env()
    info = CpuEdge().info()
    assert not info.available and "CPU 4095" in info.reason


def test_a_count_other_than_the_cores_is_named(monkeypatch):
    monkeypatch.setenv("EKB_EDGE_CPU_CORES", "1")
    monkeypatch.setenv("EKB_EDGE_CPU_LIST", ",".join(map(str, ALL_CPUS[:1] * 2)) + f",{ALL_CPUS[0]}")
    assert EdgeProfile.from_env().cpus == ALL_CPUS[:1]  # a CPU named twice is one CPU
    if len(ALL_CPUS) < 2:
        pytest.skip("one CPU: no list of two to name")
    monkeypatch.setenv("EKB_EDGE_CPU_LIST", f"{ALL_CPUS[0]}-{ALL_CPUS[1]}")
    with pytest.raises(ProfileError, match=rf"EKB_EDGE_CPU_LIST='{ALL_CPUS[0]}-{ALL_CPUS[1]}' names 2 CPUs; "
                                           r"the profile has EKB_EDGE_CPU_CORES=1"):
        EdgeProfile.from_env()


@pytest.mark.parametrize("name,value,words", [
    ("EKB_EDGE_CPU_LIST", "one", "'one' is not a CPU number or range"),
    ("EKB_EDGE_CPU_CORES", "0", "EKB_EDGE_CPU_CORES='0': expected a whole number of at least 1"),
    ("EKB_EDGE_CPU_CORES", "4096", "EKB_EDGE_CPU_CORES=4096: this process may run on only"),
    ("EKB_EDGE_CPU_MEMORY_MB", "lots", "EKB_EDGE_CPU_MEMORY_MB='lots'"),
])
def test_bad_settings_are_named(monkeypatch, name, value, words):
    monkeypatch.setenv(name, value)
    with pytest.raises(ProfileError) as e:
        EdgeProfile.from_env()
    assert words in str(e.value)


# --- never unconstrained -----------------------------------------------------------------------
def test_without_the_sandbox_it_refuses_to_run(profile, monkeypatch, quick_protocol):
    monkeypatch.setenv("EKB_UNSAFE_LOCAL", "1")
    with pytest.raises(Exception, match="never runs unsandboxed"):
        Pipeline("cpu-edge", quick_protocol, sandbox=None)


def test_where_the_sandbox_is_missing_it_is_unavailable_with_the_reason(profile, monkeypatch):
    monkeypatch.setattr("evaluator.backends.cpu_edge.probe", lambda: "bubblewrap (bwrap) is not installed")
    info = CpuEdge().info()
    assert not info.available and info.device == ""
    assert info.reason == ("the edge profile is applied by the sandbox, which is unavailable: "
                           "bubblewrap (bwrap) is not installed")


# --- through the real launch path ---------------------------------------------------------------
@needs_sandbox
def test_every_run_step_thread_runs_on_exactly_the_profile_s_cpus(profile, quick_protocol):
    pipe = Pipeline("cpu-edge", quick_protocol)
    assert pipe.run_sandbox.cpus == profile.cpus and pipe.sandbox.cpus == ()  # builds are not the device's
    with serve_step_cpus() as seen:
        r = evaluate(pipe, GOOD)
    assert r.status == records.CORRECT, r.reason
    assert r.backend == BackendKind.CPU_EDGE
    # the candidate, tvm-default and the vendor call each ran in a process of its own
    assert {Baseline.TVM_DEFAULT, Baseline.VENDOR} <= set(r.speedup), r.speedup
    assert len({pid for pid, _ in seen}) >= 3, seen
    expected = ",".join(map(str, profile.cpus))
    assert set(seen.values()) == {expected}, seen


@needs_sandbox
def test_a_candidate_over_the_profile_s_memory_is_stopped_on_cpu_edge_only(profile, quick_protocol):
    edge = evaluate(Pipeline("cpu-edge", quick_protocol), HUNGRY)
    assert edge.status == records.RUNTIME_ERROR
    assert "memory limit of 256 MiB exceeded" in edge.reason, edge.reason
    llvm = evaluate(Pipeline("cpu-llvm", quick_protocol), HUNGRY)
    assert llvm.status == records.CORRECT, llvm.reason  # the deployment's 4 GiB holds it


@needs_sandbox
@pytest.mark.skipif(platform.machine() != "x86_64", reason="the candidate makes an x86-64 system call")
def test_a_pinned_step_that_widens_its_cpu_set_is_killed_and_named(profile, quick_protocol):
    """The pin is the launcher's affinity, which a process may change: the pinned steps' filter
    kills sched_setaffinity (cpu-llvm's steps are pinned too: tests/evaluator/test_timing_cpus.py)."""
    edge = evaluate(Pipeline("cpu-edge", quick_protocol), UNPIN)
    assert edge.status == records.RUNTIME_ERROR, edge.reason
    assert "changing the CPU affinity of a step pinned to its CPUs" in edge.reason, edge.reason
