"""Kept step processes (``Pipeline.session``): one submission's tasks share a build process and
each role's kernel process, through the real pipeline with the sandbox on.

What a kept process could carry from one task to the next is the attack class here: work left
running after a task (a thread that burns the cores while the next task's baselines are timed),
a process left in a broken state by a failure, and a process outliving its submission.
"""

from __future__ import annotations

import time

import pytest

from evaluator import records, suite
from evaluator.pipeline import Candidate, Pipeline
from evaluator.sandbox import probe
from test_hostile import RELU, c_relu

pytestmark = pytest.mark.skipif(probe() is not None, reason=f"no sandbox here: {probe()}")

HONEST = c_relu("relu(X, T_relu);")

# Starts a thread on its first call that waits, doing nothing, until the process has loaded a
# second candidate library (the next task's, in a kept process), then burns a core for ever.
LINGER = c_relu("""
    if (!started) { pthread_t t; started = 1; pthread_create(&t, 0, later, 0); }
    relu(X, T_relu);
""", """#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
static void relu(const float *x, float *y);
static int started;
static int candidates_mapped(void) {
    char line[512]; int n = 0; FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return 0;
    while (fgets(line, sizeof line, f)) if (strstr(line, "candidate-") && strstr(line, "r-xp")) n++;
    fclose(f); return n;
}
static void *later(void *arg) {
    while (candidates_mapped() < 2) usleep(50000);  /* a cheap poll: no CPU to speak of */
    volatile double x = 0; for (;;) x += 1.0;
    return 0;
}
""")


def when_idle(wait_s: float, then: str) -> Candidate:
    """A ReLU that starts a thread on its first call; the thread waits until no call has come
    for ``wait_s`` (the task is over and the process sits idle, kept) and then runs ``then``."""
    return c_relu("""
    seen = now_s();
    if (!started) { pthread_t t; started = 1; pthread_create(&t, 0, later, 0); }
    relu(X, T_relu);
""", """#include <pthread.h>
#include <time.h>
#include <unistd.h>
static void relu(const float *x, float *y);
static int started;
static _Atomic double seen;
static double now_s(void) {
    struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9;
}
static void *later(void *arg) {
    while (now_s() - seen < %g) usleep(20000);
%s
    return 0;
}
""" % (wait_s, then))


# Once idle for 0.4 s, writes a reply for the next task ahead of it — a load that went well and
# a finished run — on every descriptor the harness could read.
FORGE_AHEAD = when_idle(0.4, """
    const char *fake = "{\\"kind\\":\\"ready\\",\\"ok\\":true,\\"role\\":\\"candidate\\"}\\n"
                       "{\\"kind\\":\\"done\\",\\"op\\":\\"run\\",\\"ok\\":true,\\"child_s\\":0}\\n";
    for (int fd = 1; fd < 64; fd++) write(fd, fake, strlen(fake));""")


@pytest.fixture()
def pipe(quick_protocol):
    return Pipeline("cpu-llvm", quick_protocol)


def _pid(pipe, role: str) -> int | None:
    kept = [k for k in pipe._serving.idle.values() if k.key[0] == role]
    return kept[0].child.proc.pid if kept else None


def test_a_kept_process_serves_the_next_task_and_a_failure_ends_it(pipe):
    w = suite.get_workload(RELU)
    with pipe.session():
        assert pipe.evaluate(w, HONEST).status == records.CORRECT
        first = _pid(pipe, "candidate")
        assert first is not None and _pid(pipe, "tvm-default") is not None
        assert pipe.evaluate(w, HONEST).status == records.CORRECT
        assert _pid(pipe, "candidate") == first  # kept: no new process, no new import
        wrong = pipe.evaluate(w, c_relu("relu(X, T_relu); T_relu[7] += 1.0f;"))
        assert wrong.status == records.WRONG_RESULT, wrong.reason
        assert _pid(pipe, "candidate") is None  # a failure ends every process of the task
        again = pipe.evaluate(w, HONEST)
        assert again.status == records.CORRECT, again.reason
        assert _pid(pipe, "candidate") not in (None, first)
        kept = [k.child for k in pipe._serving.idle.values()]
    assert kept and all(c.proc.poll() is not None for c in kept)  # the session's end ends them


def test_work_left_running_for_the_next_task_makes_that_task_suspect(pipe):
    w = suite.get_workload(RELU)
    with pipe.session():
        first = pipe.evaluate(w, LINGER)
        assert first.status == records.CORRECT, first.reason  # the thread has not woken yet
        second = pipe.evaluate(w, HONEST)
    # the burning thread lives in the kept candidate process: its cgroup's CPU between calls
    assert second.status == records.SUSPECT, second.reason
    assert "while it was not being called" in second.reason


def test_a_kept_process_that_speaks_while_idle_is_not_used_again(pipe):
    w = suite.get_workload(RELU)
    with pipe.session():
        first = pipe.evaluate(w, FORGE_AHEAD)
        assert first.status == records.CORRECT, first.reason  # the task itself was honest
        forger = _pid(pipe, "candidate")
        assert forger is not None
        kept = [k.child for k in pipe._serving.idle.values() if k.key[0] == "candidate"][0]
        time.sleep(1.0)  # the gap between two tasks, in which its replies are written
        assert not kept.quiet()
        second = pipe.evaluate(w, HONEST)
        # the forged replies were never read as the next task's: a fresh process served it
        assert second.status == records.CORRECT, second.reason
        assert _pid(pipe, "candidate") not in (None, forger)
        assert kept.proc.poll() is not None


def test_builds_of_a_session_share_a_process_and_a_failed_build_does_not_spoil_the_next(pipe):
    w = suite.get_workload(RELU)
    with pipe.session():
        broken = pipe.evaluate(w, c_relu("relu(X, T_relu) syntax error here;"))
        assert broken.status == records.COMPILE_ERROR, broken.reason
        ok = pipe.evaluate(w, HONEST)
        assert ok.status == records.CORRECT, ok.reason
        builder = pipe._session.child
        assert builder is not None and builder.proc.poll() is None
        assert pipe.evaluate(w, HONEST).status == records.CORRECT
        assert pipe._session.child is builder  # one process built both
    assert builder.proc.poll() is not None


def test_a_build_process_retired_at_its_last_build_still_hands_that_build_over(pipe, monkeypatch):
    # the session's 256th build once read a scratch folder already removed with its process
    monkeypatch.setattr("evaluator.pipeline._BuildSession.MAX_BUILDS", 2)
    w = suite.get_workload(RELU)
    builders = []
    with pipe.session():
        for _ in range(3):
            r = pipe.evaluate(w, HONEST)
            assert r.status == records.CORRECT, r.reason
            builders.append(pipe._session.child)
    # retired after its 2nd build, whose kernel was still read; the 3rd build in a new process
    assert builders[0] is not None and builders[1] is None and builders[2] not in (None, builders[0])


def test_each_build_runs_while_the_task_before_is_checked_and_never_while_anything_is_timed(pipe, monkeypatch):
    """``evaluate_all``: a task's build starts once the task before it has its candidate built and
    ends before that task is timed; a build that fails is its own task's failure; after a task
    whose candidate did not build, the next one builds in its turn. The build's thread only talks
    to the step: TVM's IR is made on the evaluating thread (TE's builder keeps global state, and
    two threads building at once failed a sweep with "nested op_tag")."""
    import threading

    from evaluator.harness import timing
    from evaluator.suite import base

    building_while_timed, ir_threads = [], set()
    real = timing.measure

    def watched(*args, **kwargs):
        ahead = pipe._ahead
        building_while_timed.append(ahead is not None and ahead.started() and ahead._thread.is_alive())
        return real(*args, **kwargs)

    def on_main_thread(build_ir):
        def ir(*args, **kwargs):
            ir_threads.add(threading.current_thread() is threading.main_thread())
            return build_ir(*args, **kwargs)
        return ir

    monkeypatch.setattr(timing, "measure", watched)
    for name in ("_op_module", "_graph_module", "_output_specs"):  # every TE build of a workload
        monkeypatch.setattr(base, name, on_main_thread(getattr(base, name)))
    w = suite.get_workload(RELU)
    fresh = [base.WorkloadDef(w.pattern, w.spec) for _ in range(4)]  # none has its IR cached yet
    broken = c_relu("relu(X, T_relu) syntax error here;")
    with pipe.session():
        got = list(pipe.evaluate_all(zip(fresh, [HONEST, broken, HONEST, HONEST])))
    assert [r.status for r in got] == [records.CORRECT, records.COMPILE_ERROR, records.CORRECT, records.CORRECT], \
        [r.reason for r in got]
    assert "error" in got[1].reason
    assert [r.detail.get("built_ahead", False) for r in got] == [False, True, False, True]
    # tasks 1, 3 and 4 were timed (and the vendor figure, where this machine had none yet)
    assert len(building_while_timed) >= 3 and not any(building_while_timed)
    assert ir_threads == {True}


def test_a_build_process_started_for_a_build_run_ahead_outlives_that_build(pipe, monkeypatch):
    """A thread never starts the session's build process (the sandbox ends a process with the
    thread that started it, so every later build would pay a new process): where none is live,
    the build waits for its turn on the evaluating thread."""
    from evaluator.pipeline import _BuildSession

    monkeypatch.setattr(_BuildSession, "MAX_BUILDS", 2)
    started = []
    real = _BuildSession.started
    monkeypatch.setattr(_BuildSession, "started", lambda self, child: (started.append(child), real(self, child)))
    w = suite.get_workload(RELU)
    with pipe.session():
        got = list(pipe.evaluate_all([(w, HONEST)] * 6))
    assert all(r.status == records.CORRECT for r in got), [r.reason for r in got]
    assert len(started) == 3  # two builds each, as MAX_BUILDS says
    assert [r.detail.get("built_ahead", False) for r in got] == [False, True, False, True, False, True]
