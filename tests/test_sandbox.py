"""Hostile submissions are contained by the sandbox and reported with the matching reason.

Each attack is a TVMScript entry whose parsing runs Python (``exec`` inside a buffer expression):
exactly what an untrusted submission can do in the build step. Every one goes through the real
pipeline; afterwards the host must be unchanged and a normal entry must still evaluate.
"""

import hashlib
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from evaluator import records, suite
from evaluator.harness.protocol import Limits, Protocol
from evaluator.pipeline import Candidate, Pipeline
from evaluator.sandbox import PACKAGE_DIR, Sandbox, SandboxLimits, probe

ROOT = Path(__file__).resolve().parents[1]
WORKLOAD = "activation/relu@m128n768"
pytestmark = pytest.mark.skipif(probe() is not None, reason=f"no sandbox on this machine: {probe()}")


def kernel(code: str = "", body: str = "T.max(X[v_i0, v_i1], T.float32(0.0))") -> str:
    """A correct ReLU kernel whose parsing first runs ``code``."""
    return f'''
@T.prim_func(s_tir=True)
def main(X: T.Buffer((128, 768), "float32"), T_relu: T.Buffer((128, 768), "float32")):
    T.evaluate(exec({code!r}) or 0)
    for i0, i1 in T.grid(128, 768):
        with T.sblock("T_relu"):
            v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
            T_relu[v_i0, v_i1] = {body}
'''


@pytest.fixture(scope="module")
def pipe():
    protocol = Protocol(time_budget_s=0.3, min_rounds=5, limits=Limits(build_s=15, check_s=15, time_s=30))
    return Pipeline("cpu-llvm", protocol,
                    sandbox=Sandbox(SandboxLimits(memory_bytes=1 << 30, pids=64, scratch_bytes=64 << 20,
                                                  tmp_bytes=32 << 20)))


def run(pipe, code: str, **kw):
    return pipe.evaluate(suite.get_workload(WORKLOAD), Candidate("tvmscript", kernel(code, **kw)))


FORBIDDEN = "forbidden system call"


@pytest.mark.parametrize("code", [
    "import socket; socket.create_connection(('127.0.0.1', 5432), timeout=2)",
    "import socket; socket.create_connection(('1.1.1.1', 443), timeout=2)",
    "import socket; socket.getaddrinfo('example.com', 80)",
], ids=["connect-postgres", "connect-public", "resolve-name"])
def test_network_is_blocked(pipe, code):
    r = run(pipe, code)
    assert r.status == records.COMPILE_ERROR
    assert FORBIDDEN in r.reason or "resolution" in r.reason or "not known" in r.reason, r.reason


@pytest.mark.parametrize("path", [
    "/etc/shadow",
    str(ROOT / "portal" / "settings.py"),
    str(ROOT / "var" / "portal.sqlite3"),
    str(Path.home() / ".cache" / "edgekernelbench"),
])
def test_host_files_are_invisible(pipe, path):
    r = run(pipe, f"import os\nos.listdir({path!r}) if os.path.isdir({path!r}) else open({path!r}).read()")
    assert r.status == records.COMPILE_ERROR
    assert "No such file or directory" in r.reason, r.reason


def test_another_submissions_files_are_invisible(pipe):
    other = Path(tempfile.mkdtemp(prefix="ekb-other-submission-"))
    (other / "kernel.json").write_text("secret schedule")
    try:
        r = run(pipe, f"open({str(other / 'kernel.json')!r}).read()")
        assert r.status == records.COMPILE_ERROR and "No such file or directory" in r.reason, r.reason
    finally:
        shutil.rmtree(other)


def test_hidden_workloads_never_enter(pipe):
    assert sum(w.hidden for w in suite.workloads(include_hidden=True)) > 0  # they exist outside
    r = run(pipe, "from evaluator import suite\n"
                  "n = sum(w.hidden for w in suite.workloads(include_hidden=True))\n"
                  "size = len(open(suite.__path__[0] + '/hidden_workloads.py').read())\n"
                  "raise ValueError(f'hidden={n} size={size}')")
    assert "hidden=0 size=0" in r.reason, r.reason


@pytest.mark.parametrize("target", ["/usr/lib/ekb-evil", str(PACKAGE_DIR / "evil.py"), "/etc/ekb-evil"])
def test_writes_outside_scratch_fail(pipe, target):
    r = run(pipe, f"open({target!r}, 'w').write('x')")
    assert r.status == records.COMPILE_ERROR
    assert "Read-only file system" in r.reason or "Permission denied" in r.reason or "No such file" in r.reason, r.reason
    assert not Path(target).exists()


def test_filling_scratch_hits_its_limit(pipe):
    r = run(pipe, "import os, sys\n"
                  "with open(os.path.join(os.path.dirname(sys.argv[-1]), 'fill'), 'wb') as f:\n"
                  "    [f.write(b'x' * (1 << 20)) for _ in range(512)]")
    assert r.status == records.COMPILE_ERROR
    assert "No space left on device" in r.reason or "file size limit" in r.reason, r.reason


def test_filling_tmp_hits_its_limit(pipe):
    r = run(pipe, "with open('/tmp/fill', 'wb') as f:\n    [f.write(b'x' * (1 << 20)) for _ in range(512)]")
    assert r.status == records.COMPILE_ERROR and "No space left on device" in r.reason, r.reason


def test_fork_bomb_hits_the_pids_limit(pipe):
    r = run(pipe, "import os\nwhile True:\n    os.fork()")
    assert r.status in (records.COMPILE_ERROR, records.TIMEOUT)
    assert "process limit of 64 reached" in r.reason, r.reason


def test_memory_bomb_hits_the_memory_limit(pipe):
    r = run(pipe, "b = b'x' * (3 << 30)")
    assert r.status == records.COMPILE_ERROR
    assert "memory limit of 1024 MiB exceeded" in r.reason or "MemoryError" in r.reason, r.reason


def test_infinite_loop_while_parsing_times_out(pipe):
    t0 = time.monotonic()
    r = run(pipe, "while True:\n    pass")
    assert r.status == records.TIMEOUT and "build exceeded the 15 s limit" in r.reason, r.reason
    assert time.monotonic() - t0 < 40


def _processes_with(marker: str) -> list[int]:
    found = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if marker.encode() in (d / "cmdline").read_bytes():
                    found.append(int(d.name))
            except OSError:
                pass
    return found


def test_daemon_does_not_outlive_the_step(pipe):
    marker = f"ekb-daemon-{os.getpid()}-{time.monotonic_ns()}"
    r = run(pipe, "import os\n"
                  "if os.fork() == 0:\n"
                  "    os.setsid()\n"
                  "    if os.fork() == 0:\n"
                  f"        os.execv('/bin/sh', ['sh', '-c', 'sleep 600; echo {marker}'])\n"
                  "    os._exit(0)\n")
    assert r.status == records.CORRECT, r.reason  # the kernel itself is fine
    time.sleep(0.5)
    assert _processes_with(marker) == []


def test_files_planted_for_the_run_step_are_not_imported(pipe):
    """The build step plants a fake timing module and a sitecustomize next to the run step's
    files; the run step must still time with the harness's own code."""
    before = hashlib.sha256((PACKAGE_DIR / "harness" / "timing.py").read_bytes()).hexdigest()
    fake = ("def interleaved(calls, vendor, arrays, proto):\n"
            "    t = {'median_s': 1e-9, 'p25_s': 1e-9, 'p75_s': 1e-9, 'min_s': 1e-9, 'rse': 0.0, 'rounds': 5, 'number': 1}\n"
            "    return {'times': {n: dict(t) for n in calls}, 'wall_s': 1.0, 'measured_s': 0.0}\n")
    plant = ("import os, sys\nd = os.path.dirname(sys.argv[-1])\n"
             "os.makedirs(d + '/evaluator/harness', exist_ok=True)\n"
             f"open(d + '/evaluator/harness/timing.py', 'w').write({fake!r})\n"
             "open(d + '/evaluator/__init__.py', 'w').write('')\n"
             "open(d + '/evaluator/harness/__init__.py', 'w').write('')\n"
             "open(d + '/sitecustomize.py', 'w').write('import time; time.perf_counter = lambda: 0.0')\n")
    r = run(pipe, plant)
    assert r.status == records.CORRECT, r.reason
    # the fake would report 1 ns; a ReLU over 98k floats takes microseconds (serial here)
    assert r.times["candidate"].median_s > 1e-6
    assert 0.1 < r.speedup["tvm-default"] < 20
    assert hashlib.sha256((PACKAGE_DIR / "harness" / "timing.py").read_bytes()).hexdigest() == before


def test_a_normal_entry_still_evaluates_after_the_attacks(pipe):
    from evaluator.baselines.tvm_default import default_document

    w = suite.get_workload(WORKLOAD)
    r = pipe.evaluate(w, Candidate("layered-trace", json.dumps(default_document(w.canonical_module()))))
    assert r.status == records.CORRECT, r.reason
    assert r.detail["run_usage"]["peak_memory_bytes"] > 0 and r.detail["run_usage"]["cpu_s"] > 0


def test_no_cgroup_or_scratch_is_left_behind(pipe):
    from evaluator.sandbox import SCRATCH_ROOT, cgroup

    run(pipe, "")
    assert not any(SCRATCH_ROOT.iterdir()) if SCRATCH_ROOT.exists() else True
    v = cgroup.version()
    base = cgroup.ROOT / ("memory" if v == 1 else "") / cgroup.PREFIX
    assert not base.exists() or not [d for d in base.iterdir() if d.is_dir()]


def test_sweep_removes_only_what_dead_evaluators_left(tmp_path):
    import subprocess

    from evaluator.sandbox import SCRATCH_ROOT, cgroup, sweep

    dead = subprocess.Popen(["true"])
    dead.wait()  # a pid that no longer runs
    stale = cgroup.Cgroup(64 << 20, 1.0, 8)
    live = cgroup.Cgroup(64 << 20, 1.0, 8)
    for d in stale.dirs:  # pretend a dead worker made it
        d.rename(d.parent / f"{dead.pid}-stale")
    SCRATCH_ROOT.mkdir(parents=True, exist_ok=True)
    old_scratch = SCRATCH_ROOT / f"task-{dead.pid}-x"
    old_scratch.mkdir()
    try:
        result = sweep()
        assert result["cgroups"] >= 1 and result["scratch_dirs"] >= 1
        assert not any((d.parent / f"{dead.pid}-stale").exists() for d in stale.dirs)
        assert not old_scratch.exists()
        assert all(d.exists() for d in live.dirs)
    finally:
        live.remove()


def test_no_sandbox_means_refusal_unless_unsafe_local(monkeypatch, tmp_path):
    from evaluator.sandbox import SandboxUnavailable

    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap on this PATH
    monkeypatch.delenv("EKB_UNSAFE_LOCAL", raising=False)
    with pytest.raises(SandboxUnavailable, match="refusing to evaluate untrusted code: bubblewrap"):
        Pipeline("cpu-llvm")
    monkeypatch.setenv("EKB_UNSAFE_LOCAL", "1")
    assert Pipeline("cpu-llvm").sandbox is None
