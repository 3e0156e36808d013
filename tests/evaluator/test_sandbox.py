"""Hostile submissions are contained by the sandbox and reported with the matching reason.

Each attack is a TVMScript entry whose parsing runs Python (``exec`` inside a buffer expression):
exactly what an untrusted submission can do in the build step. Every one goes through the real
pipeline; afterwards the host must be unchanged and a normal entry must still evaluate.
"""

import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pytest

from evaluator import records, suite
from evaluator.harness.protocol import Limits, Protocol
from evaluator.pipeline import Candidate, Pipeline
from evaluator.sandbox import PACKAGE_DIR, Sandbox, SandboxLimits, probe

ROOT = Path(__file__).resolve().parents[2]
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


LIMITS = SandboxLimits(memory_bytes=1 << 30, pids=64, scratch_bytes=64 << 20, tmp_bytes=32 << 20)


@pytest.fixture(scope="module")
def sandbox():
    return Sandbox(LIMITS)


@pytest.fixture(scope="module")
def pipe(sandbox):
    protocol = Protocol(time_budget_s=0.3, min_rounds=5, limits=Limits(build_s=15, check_s=15, time_s=30))
    return Pipeline("cpu-llvm", protocol, sandbox=sandbox)


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
    str(ROOT / "config" / "settings.py"),
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


def test_held_out_workloads_never_enter(pipe):
    """Outside, the held-out workloads exist (drawn from the secret); submitted code inside has
    neither the secret nor any file that names a held-out shape."""
    held = suite.held_out()
    assert held
    shapes = sorted({repr(w.params) for w in held})
    r = run(pipe, "import os\n"
                  "from evaluator import suite\n"
                  "try:\n"
                  "    n = len(suite.workloads(include_hidden=True))\n"
                  "except suite.HeldOutSecretMissing:\n"
                  "    n = 'no-secret'\n"
                  "env = sorted(k for k in os.environ if 'HELDOUT' in k or 'SECRET' in k)\n"
                  "raise ValueError(f'held={n} env={env}')")
    assert "held=no-secret env=[]" in r.reason, r.reason
    assert not any(s in r.reason for s in shapes)


@pytest.mark.parametrize("target", ["/usr/lib/ekb-evil", str(PACKAGE_DIR / "evil.py"), "/etc/ekb-evil"])
def test_writes_outside_scratch_fail(pipe, target):
    r = run(pipe, f"open({target!r}, 'w').write('x')")
    assert r.status == records.COMPILE_ERROR
    assert any(m in r.reason for m in ("Read-only file system", "Permission denied", "No such file")), r.reason
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
    assert "process limit of 64 processes and threads reached" in r.reason, r.reason


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
            "    t = {'median_s': 1e-9, 'p25_s': 1e-9, 'p75_s': 1e-9, 'min_s': 1e-9, 'rse': 0.0,\n"
            "         'rounds': 5, 'number': 1}\n"
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


# --- run directly with Sandbox.command (no pipeline) ------------------------------------------
def in_sandbox(sb: Sandbox, argv: list[str], env: dict | None = None, host_env: dict | None = None,
               files=(), timeout: float = 60):
    """Run ``argv`` in a fresh scratch of ``sb`` (``{scratch}`` in an argument is replaced by its
    path; ``files`` are copied into it first); the CompletedProcess and the seconds it took."""
    import subprocess

    with sb.scratch() as scratch:
        for f in files:
            shutil.copy(f, scratch)
        group = sb.cgroup()
        try:
            cmd, fd = sb.command([a.replace("{scratch}", str(scratch)) for a in argv], scratch, dict(env or {}), group)
            try:
                t0 = time.monotonic()
                p = subprocess.run(cmd, pass_fds=[fd], cwd="/", env=host_env or {"PATH": "/usr/bin:/bin"},
                                   capture_output=True, text=True, timeout=timeout)
                return p, time.monotonic() - t0
            finally:
                os.close(fd)
        finally:
            group.remove()


WALK = f"""
import json, os
root = {str(PACKAGE_DIR)!r}
seen = []
for d, dirs, files in os.walk(root):
    for n in dirs + files:
        p = os.path.join(d, n)
        seen.append([os.path.relpath(p, root), os.path.isdir(p), 0 if os.path.isdir(p) else os.path.getsize(p)])
print(json.dumps(seen))
"""


def _walk_inside(sb: Sandbox) -> dict[str, tuple[bool, int]]:
    p, _ = in_sandbox(sb, [sys.executable, "-c", WALK])
    assert p.returncode == 0, p.stderr
    return {rel: (is_dir, size) for rel, is_dir, size in json.loads(p.stdout)}


def test_the_sandbox_sees_the_package_allow_list_only(sandbox):
    """Exactly the listed sources: no bytecode, no held-out shape, no server-side modules."""
    seen = _walk_inside(sandbox)
    files = {rel for rel, (is_dir, _) in seen.items() if not is_dir}
    assert files == set(sandbox.package_files)
    assert all(rel.endswith(".py") for rel in files), sorted(files)
    assert not [rel for rel in seen if "__pycache__" in rel.split("/") or rel.endswith(".pyc")]
    assert not [rel for rel in seen if "hidden" in rel]  # no list of held-out workloads at all
    for absent in ("agents", "pipeline.py", "cli.py", "records.py", "baselines/tvm_tuned.py", "baselines/tuned"):
        assert absent not in seen, absent
    for needed in ("harness/child.py", "backends/cpu_llvm.py", "formats/__init__.py", "ir/lower.py",
                   "suite/patterns/matmul.py", "sandbox/__init__.py", "baselines/tvm_default.py"):
        assert needed in files, needed
    # and no visible file names a held-out workload (id or opaque tag)
    held = [w.id.split("@", 1)[1] for w in suite.held_out()]
    for rel in files:
        text = (sandbox.package_view / rel).read_text()
        assert not [tag for tag in held if tag in text], rel


def test_what_a_step_imports_is_in_the_view(sandbox):
    """The modules build and run steps import load from the view, and the suite inside has no
    held-out workload."""
    code = ("import evaluator.harness.child, evaluator.backends, evaluator.formats, evaluator.ir.lower\n"
            "import evaluator.baselines.tvm_default, evaluator.baselines.dlight_default\n"
            "from evaluator import suite\n"
            "ws = suite.workloads()\n"
            "try:\n"
            "    held = len(suite.held_out())\n"
            "except suite.HeldOutSecretMissing:\n"
            "    held = 'no-secret'\n"
            "import sys\n"
            "print(len(ws), held, sys.dont_write_bytecode)")
    p, _ = in_sandbox(sandbox, [sys.executable, "-c", code])
    assert p.returncode == 0, p.stderr
    n, held, no_bytecode = p.stdout.split()
    assert int(n) == len(suite.workloads()) > 0 and held == "no-secret" and no_bytecode == "True"


def test_bytecode_planted_in_the_package_is_not_visible():
    """Compiled bytecode (what ``__pycache__`` holds) and a module outside the allow-list, put
    into the real package, never appear in a sandbox made afterwards."""
    import py_compile

    tag = f"ekb-planted-{os.getpid()}"
    pyc = PACKAGE_DIR / "suite" / "__pycache__" / f"{tag}.cpython-311.pyc"
    top_pyc = PACKAGE_DIR / "__pycache__" / f"{tag}.pyc"
    stray = PACKAGE_DIR / f"{tag.replace('-', '_')}.py"
    planted = [pyc, top_pyc, stray]
    made = [d for d in (pyc.parent, top_pyc.parent) if not d.exists()]
    try:
        for d in made:
            d.mkdir()
        py_compile.compile(str(PACKAGE_DIR / "suite" / "heldout.py"), cfile=str(pyc), doraise=True)
        shutil.copy(pyc, top_pyc)
        stray.write_text("HIDDEN = 'planted'\n")
        sb = Sandbox(LIMITS)
        assert not any(tag in f or tag.replace("-", "_") in f for f in sb.package_files)
        seen = _walk_inside(sb)
        assert not [rel for rel in seen if tag in rel or tag.replace("-", "_") in rel or rel.endswith(".pyc")]
        assert not [rel for rel in seen if "__pycache__" in rel.split("/")]
        code = "\n".join(f"print(os.path.exists({str(p)!r}))" for p in planted)
        p, _ = in_sandbox(sb, [sys.executable, "-c", "import os\n" + code])
        assert p.returncode == 0 and p.stdout.split() == ["False"] * len(planted), (p.stdout, p.stderr)
    finally:
        for f in planted:
            f.unlink(missing_ok=True)
        for d in made:
            try:
                d.rmdir()
            except OSError:
                pass  # something else wrote bytecode there meanwhile


def test_the_view_is_read_only_and_private_files_stay_out(sandbox):
    """The view is bound read-only; the folder holding the seccomp filter is not bound at all."""
    import errno

    code = (f"import os\n"
            f"try:\n"
            f"    open({str(PACKAGE_DIR / 'harness' / 'timing.py')!r}, 'a')\n"
            f"except OSError as e:\n"
            f"    print(e.errno)\n"
            f"print(os.path.exists({str(sandbox.bpf_path)!r}), os.path.exists({str(sandbox.package_view)!r}))")
    p, _ = in_sandbox(sandbox, [sys.executable, "-c", code])
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == [str(errno.EROFS), "False", "False"], p.stdout


def test_the_step_environment_is_only_what_is_given(sandbox):
    """bwrap clears the environment: the host's (with its secrets) never reaches the step."""
    host = {**os.environ, "PATH": "/usr/bin:/bin", "DJANGO_SECRET_KEY": "host-secret",
            "DATABASE_URL": "postgres://u:p@db/x", "EKB_VERIFY_SECRET": "verify", "AWS_SECRET_ACCESS_KEY": "aws"}
    given = {"EKB_OPENCL_DEVICE": "pocl:0", "TVM_NUM_THREADS": "2"}
    p, _ = in_sandbox(sandbox, ["/usr/bin/env", "-0"], env=given, host_env=host)
    assert p.returncode == 0, p.stderr
    inside = dict(kv.split("=", 1) for kv in p.stdout.split("\0") if kv)
    expected = sandbox.inner_environment(given)
    assert {k: inside[k] for k in expected} == expected
    assert set(inside) - set(expected) <= {"PWD"}  # bwrap's --chdir sets it
    assert "host-secret" not in p.stdout and "postgres" not in p.stdout


def test_child_environment_is_an_allow_list(monkeypatch):
    from evaluator.sandbox import child_environment

    secrets_ = {"DATABASE_URL": "postgres://u:p@db/x", "DJANGO_SECRET_KEY": "s", "EKB_VERIFY_SECRET": "v",
                "AWS_SECRET_ACCESS_KEY": "a", "AWS_ACCESS_KEY_ID": "i", "CELERY_BROKER_URL": "redis://r",
                "EKB_ENDPOINT_KEYS": "k", "GITHUB_TOKEN": "t", "NVIDIA_API_KEY": "n", "OPENAI_API_KEY": "o",
                "TVM_TRACKER_KEY": "board", "LD_PRELOAD": "/tmp/evil.so", "PYTHONSTARTUP": "/tmp/x.py",
                "DJANGO_SETTINGS_MODULE": "config.settings", "EKB_UNSAFE_LOCAL": "1"}
    kept = {"PATH": "/usr/local/bin:/usr/bin:/bin", "TVM_NUM_THREADS": "4", "TVM_LIBRARY_PATH": "/opt/tvm",
            "OMP_NUM_THREADS": "2", "LANG": "C.UTF-8", "LC_ALL": "C", "POCL_DEVICES": "cpu",
            "CUDA_VISIBLE_DEVICES": "0", "TMPDIR": "/tmp"}
    for k, v in {**secrets_, **kept}.items():
        monkeypatch.setenv(k, v)
    env = child_environment({"EKB_OPENCL_DEVICE": "pocl:0", "OMP_NUM_THREADS": "1"})
    for k in secrets_:
        assert k not in env, k
    same = [k for k in kept if k != "OMP_NUM_THREADS"]
    assert {k: env[k] for k in same} == {k: kept[k] for k in same}
    assert env["EKB_OPENCL_DEVICE"] == "pocl:0" and env["OMP_NUM_THREADS"] == "1"  # extra wins
    assert not [k for k in env if k.startswith(("DJANGO_", "CELERY_", "AWS_")) or k.startswith("EKB_")
                and k != "EKB_OPENCL_DEVICE"]


# --- system calls through another ABI -----------------------------------------------------------
ABI_PROGRAM = r"""
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static void *attempt(void *arg) {
    long ret;
    if (strcmp((const char *)arg, "int80") == 0) {
        /* the i386 entry: socket(AF_INET, SOCK_STREAM, 0) is system call 359 there */
        __asm__ volatile("int $0x80" : "=a"(ret) : "a"(359L), "b"(2L), "c"(1L), "d"(0L) : "memory");
    } else {
        /* x32: socket is 41 | __X32_SYSCALL_BIT */
        register long r10 __asm__("r10") = 0;
        __asm__ volatile("syscall" : "=a"(ret) : "a"(41L | 0x40000000L), "D"(2L), "S"(1L), "d"(0L), "r"(r10)
                         : "rcx", "r11", "memory");
    }
    printf("returned %ld\n", ret);
    fflush(stdout);
    return NULL;
}
int main(int argc, char **argv) {
    pthread_t t;
    pthread_create(&t, NULL, attempt, argv[1]);
    sleep(5); /* a thread killed alone leaves this one running: a real step would hang */
    puts("survived");
    return 0;
}
"""
x86_64_only = pytest.mark.skipif(os.uname().machine != "x86_64", reason="x86-64 ABIs")


@pytest.fixture(scope="module")
def abi_program(tmp_path_factory):
    if shutil.which("gcc") is None:
        pytest.skip("no gcc")
    d = tmp_path_factory.mktemp("abi")
    (d / "abi.c").write_text(ABI_PROGRAM)
    import subprocess

    subprocess.run(["gcc", "-O1", "-pthread", "-o", str(d / "abi"), str(d / "abi.c")], check=True)
    return d / "abi"


@x86_64_only
@pytest.mark.parametrize("abi", ["int80", "x32"])
def test_a_system_call_through_another_abi_kills_the_step(sandbox, abi_program, abi):
    import signal

    p, took = in_sandbox(sandbox, ["{scratch}/abi", abi], files=[abi_program])
    # bwrap's init reports a child killed by a signal as 128 + the signal
    assert p.returncode == 128 + signal.SIGSYS, (p.returncode, p.stdout, p.stderr)
    assert "survived" not in p.stdout and "returned" not in p.stdout
    assert took < 4  # killed at once, not after the program's own 5 s


def test_the_filter_kills_every_other_abi():
    """The exported program itself, run through a BPF interpreter: calls through another ABI
    and denied native calls are KILL_PROCESS; a filter with the old thread-only bad-arch action
    is refused."""
    import tempfile as tf

    import pyseccomp as sc

    from evaluator.sandbox import seccomp

    program = seccomp.build_bpf()
    for what, nr, arch in seccomp.other_abi_calls():
        assert seccomp.run_bpf(program, nr, arch) == seccomp.RET_KILL_PROCESS, what
    native = sc.system_arch()
    assert seccomp.run_bpf(program, sc.resolve_syscall(native, "getpid"), native) == seccomp.RET_ALLOW
    old = sc.SyscallFilter(sc.ALLOW)
    old.add_rule(sc.KILL_PROCESS, "ptrace")
    with tf.TemporaryFile() as f:
        old.export_bpf(f)
        f.seek(0)
        with pytest.raises(RuntimeError, match="does not do what it must"):
            seccomp.check_bpf(f.read())


ABI_CODE = {  # machine code: getpid through the i386 entry / as x32, then ret
    "int80": "b814000000cd80c3",  # mov eax, 20; int 0x80; ret
    "x32": "b8270000400f05c3",  # mov eax, 0x40000027; syscall; ret
}


@x86_64_only
@pytest.mark.parametrize("abi", list(ABI_CODE))
def test_another_abi_in_a_submission_is_reported_forbidden(pipe, abi):
    """A submission's worker thread makes the call while the main thread waits for it: killing
    the thread alone would leave the step hanging until its time limit."""
    code = ("import ctypes, mmap, threading\n"
            "buf = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)\n"
            f"buf.write(bytes.fromhex({ABI_CODE[abi]!r}))\n"
            "fn = ctypes.CFUNCTYPE(ctypes.c_long)(ctypes.addressof(ctypes.c_char.from_buffer(buf)))\n"
            "t = threading.Thread(target=fn)\n"
            "t.start()\n"
            "t.join()\n")
    t0 = time.monotonic()
    r = run(pipe, code)
    assert r.status == records.COMPILE_ERROR and FORBIDDEN in r.reason, (r.status, r.reason)
    assert time.monotonic() - t0 < 14  # well inside the 15 s build limit


# --- where the machine delegates fewer cgroup controllers (the GPU machine: memory only) ------

@pytest.fixture(scope="module")
def memory_only_pipe():
    from dataclasses import replace

    from evaluator.sandbox import cgroup

    layout = cgroup.detect()
    sandbox = Sandbox(LIMITS, layout=replace(layout, controllers=frozenset({"memory"})))
    assert sandbox.unprivileged and sandbox.nproc_fallback() == LIMITS.pids * 6
    protocol = Protocol(time_budget_s=0.3, min_rounds=5, limits=Limits(build_s=15, check_s=15, time_s=30))
    return Pipeline("cpu-llvm", protocol, sandbox=sandbox)


def test_without_a_pids_controller_a_fork_bomb_hits_rlimit_nproc(memory_only_pipe):
    r = run(memory_only_pipe, "import os\nwhile True:\n    os.fork()")
    assert r.status in (records.COMPILE_ERROR, records.TIMEOUT)
    assert r.reason.startswith("process limit reached: "), r.reason
    assert "more than the 64 a step may have (RLIMIT_NPROC of 384 for the sandbox's user" in r.reason, r.reason


def test_without_a_pids_controller_steps_run_as_nobody_outside_too(memory_only_pipe):
    # the kernel applies RLIMIT_NPROC to every user but root: seen from the host, the step's
    # processes must not be root's
    import threading

    marker = f"ekb-uid-{os.getpid()}-{time.monotonic_ns()}"
    seen: list[str] = []

    def watch():
        for _ in range(400):
            for pid in _processes_with(marker):
                try:
                    seen.extend(ln for ln in Path(f"/proc/{pid}/status").read_text().splitlines()
                                if ln.startswith("Uid:"))
                except OSError:
                    pass
            if seen:
                return
            time.sleep(0.01)

    t = threading.Thread(target=watch)
    t.start()
    r = run(memory_only_pipe, f"import subprocess\nsubprocess.run(['/bin/sh', '-c', 'sleep 2; : {marker}'])")
    t.join()
    assert r.status == records.CORRECT, r.reason
    assert seen and all(ln.split()[1:] == ["65534"] * 4 for ln in seen), seen


def test_without_a_pids_controller_the_other_limits_still_hold(memory_only_pipe):
    r = run(memory_only_pipe, "b = b'x' * (3 << 30)")
    assert "memory limit of 1024 MiB exceeded" in r.reason or "MemoryError" in r.reason, r.reason
    marker = f"ekb-daemon-{os.getpid()}-{time.monotonic_ns()}"
    r = run(memory_only_pipe, "import os\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
                              f"        os.execv('/bin/sh', ['sh', '-c', 'sleep 600; echo {marker}'])\n"
                              "    os._exit(0)\n")
    assert r.status == records.CORRECT, r.reason
    time.sleep(0.5)
    assert _processes_with(marker) == []


def test_the_layout_is_detected_where_only_the_own_cgroup_is_delegated(tmp_path, monkeypatch):
    from evaluator.sandbox import cgroup

    own = tmp_path / "job" / "d1330e"
    own.mkdir(parents=True)
    (own / "cgroup.controllers").write_text("memory io\n")
    monkeypatch.setattr(cgroup, "ROOT", tmp_path)
    monkeypatch.setattr(cgroup, "_own_cgroup_line", lambda: "0::/job/d1330e")
    layout = cgroup.detect()
    assert layout == cgroup.Layout(2, own, frozenset({"memory"}))
    assert layout.missing == ["cpu", "pids"]
    assert layout.describe() == "cgroup v2 under job/d1330e (memory)"
    (own / "cgroup.controllers").write_text("io\n")  # no memory: no sandbox
    assert cgroup.detect() is None


def test_a_gpu_backends_device_nodes_are_bound_into_its_steps(tmp_path):
    """The nodes a backend names are in its steps, as devices; nothing else's are."""
    import stat as st

    from evaluator.backends.cpu_llvm import CpuLlvm
    from evaluator.sandbox import DevicePaths

    if os.geteuid() != 0:
        pytest.skip("making a device node takes root (CI runs as root)")
    node = tmp_path / "gpu0"
    os.mknod(node, 0o666 | st.S_IFCHR, os.makedev(1, 3))  # a stand-in GPU: the null device's numbers
    tmp_path.chmod(0o755)

    class WithNode(CpuLlvm):
        def device_paths(self):
            return DevicePaths(nodes=(str(node),))

    protocol = Protocol(time_budget_s=0.3, min_rounds=5, limits=Limits(build_s=15, check_s=15, time_s=30))
    probe_code = (f"import os, stat\nst = os.stat({str(node)!r})\nassert stat.S_ISCHR(st.st_mode)\n"
                  f"open({str(node)!r}, 'wb').write(b'x')")
    with_node = Pipeline(WithNode(), protocol, sandbox=Sandbox(LIMITS))
    assert with_node.sandbox.devices.nodes == (str(node),)
    assert run(with_node, probe_code).status == records.CORRECT
    without = Pipeline("cpu-llvm", protocol, sandbox=Sandbox(LIMITS))
    r = run(without, probe_code)
    assert r.status == records.COMPILE_ERROR and "No such file or directory" in r.reason, r.reason


def test_a_launch_helper_starts_before_the_step_in_its_cgroup_and_ends_with_it(sandbox):
    """``Sandbox.with_launch`` (cuda-edge's MPS daemon): the lines run before bwrap, outside its
    namespaces, inside the step's cgroup; a helper left running there is ended with the step."""
    import subprocess

    helper = sandbox.with_launch(("readlink /proc/self/ns/mnt > {scratch}/helper-ns",
                                  "sleep 300 > /dev/null 2>&1 & echo $! > {scratch}/helper.pid"))
    assert sandbox.launch == ()  # the deployment's sandbox is unchanged
    step = "import os; print(open(os.path.join(os.environ['S'], 'helper-ns')).read().strip(), " \
           "os.readlink('/proc/self/ns/mnt'))"
    with helper.scratch() as scratch:
        group = helper.cgroup()
        try:
            cmd, fd = helper.command([sys.executable, "-c", step], scratch, {"S": str(scratch)}, group)
            try:
                p = subprocess.run(cmd, pass_fds=[fd], cwd="/", env={"PATH": "/usr/bin:/bin"},
                                   capture_output=True, text=True, timeout=60)
            finally:
                os.close(fd)
            assert p.returncode == 0, p.stderr
            helper_ns, step_ns = p.stdout.split()
            assert helper_ns == os.readlink("/proc/self/ns/mnt") != step_ns  # outside bwrap; the step inside
            pid = int((scratch / "helper.pid").read_text())
            assert pid in group.pids()  # counted in the step's limits
        finally:
            group.remove()
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split(")")[1][:3]
