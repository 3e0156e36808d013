"""cpu-llvm's run steps all run on the same CPUs (``cpu_llvm.timing_cpus``), through the real
sandbox and pipeline: on a shared host one CPU runs slower than another for seconds at a time, so
a candidate and its baseline left to the scheduler were timed on different CPUs (the same kernel
read 0.6x or 1.6x of itself; bench/results/timing_cpus-*). A step cannot move itself off them."""

import os
import platform

import pytest

from evaluator import records
from evaluator.backends import get_backend
from evaluator.backends.cpu_llvm import timing_cpus
from evaluator.pipeline import Candidate, Pipeline
from evaluator.sandbox import probe
from evaluator.vocabulary import Baseline
from step_helpers import LAUNCH, RELU, UNPIN, serve_step_cpus

needs_sandbox = pytest.mark.skipif(probe() is not None, reason=f"no sandbox on this machine: {probe()}")

# a kernel that starts threads of its own (OpenMP): they inherit the step's CPUs too
THREADED = """
void relu(const float *restrict X, float *restrict Y) {
    #pragma omp parallel for schedule(static)
    for (int i = 0; i < 128 * 768; ++i) Y[i] = X[i] > 0.0f ? X[i] : 0.0f;
}
"""
MINE = tuple(sorted(os.sched_getaffinity(0)))


def test_the_timing_cpus_leave_the_first_to_the_evaluating_process():
    assert timing_cpus() == (MINE[1:] or MINE)
    assert set(timing_cpus()) <= set(MINE)


def test_the_thread_pools_are_sized_to_the_timing_cpus_and_never_re_pinned():
    env = get_backend("cpu-llvm").child_env()
    n = str(len(timing_cpus()))
    # TVM's own count halves what it finds on x86 (hyper-threads): 1 thread on a 2-core machine
    # whether or not it is pinned; stated, it cannot differ between the processes of a task
    assert env["TVM_NUM_THREADS"] == env["OMP_NUM_THREADS"] == env["OPENBLAS_NUM_THREADS"] == n
    assert env["TVM_BIND_THREADS"] == "0"  # TVM's pinning would call sched_setaffinity: killed here


@needs_sandbox
def test_every_serve_step_thread_of_a_task_runs_on_the_timing_cpus(quick_protocol):
    pipe = Pipeline("cpu-llvm", quick_protocol)
    assert pipe.run_sandbox.cpus == timing_cpus() and pipe.sandbox.cpus == ()  # builds are not timed
    with serve_step_cpus() as seen:
        r = pipe.evaluate(RELU, Candidate("c-source", THREADED, launch=LAUNCH))
    assert r.status == records.CORRECT, r.reason
    assert Baseline.TVM_DEFAULT in r.speedup, r.speedup
    assert len({pid for pid, _ in seen}) >= 2, seen  # the candidate's process and tvm-default's
    assert set(seen.values()) == {",".join(map(str, timing_cpus()))}, seen


@needs_sandbox
@pytest.mark.skipif(platform.machine() != "x86_64", reason="the candidate makes an x86-64 system call")
def test_a_candidate_that_moves_itself_to_other_cpus_is_killed_and_named(quick_protocol):
    r = Pipeline("cpu-llvm", quick_protocol).evaluate(RELU, Candidate("c-source", UNPIN, launch=LAUNCH))
    assert r.status == records.RUNTIME_ERROR, r.reason
    assert "changing the CPU affinity of a step pinned to its CPUs" in r.reason, r.reason

