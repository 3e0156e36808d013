"""Runs one step of the child (``evaluator.harness.child``) with a wall-clock limit.

The child is a new session so that a timeout kills its whole process group (a kernel that
forks cannot outlive the step). Its request is the first line on its stdin and every reply is a
typed message (``harness.messages``) read with a size limit and a deadline: a step that floods,
stalls or sends garbage ends with a reason, never with the evaluating process stuck or crashed.
"""

from __future__ import annotations


import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from evaluator.harness import messages as m
from evaluator.sandbox import child_environment

_ROOT = str(Path(__file__).resolve().parents[2])


class StepTimeout(Exception):
    pass


class StepCrashed(Exception):
    """The child died without answering or broke the protocol; ``str()`` is the short reason,
    ``output`` its last stderr lines (kept in the record's detail, not in the reason)."""

    def __init__(self, reason: str, output: str = ""):
        super().__init__(reason)
        self.output = output


_SIGNALS = {
    signal.SIGSEGV: "invalid memory access",
    signal.SIGBUS: "bus error",
    signal.SIGFPE: "arithmetic error",
    signal.SIGILL: "illegal instruction",
    signal.SIGABRT: "aborted",
    signal.SIGKILL: "killed, e.g. out of memory",
    signal.SIGSYS: "a forbidden system call",
}


class ChildProcess:
    def __init__(self, step: str, request: m.Message, scratch: Path, env: dict | None = None, sandbox=None,
                 pass_fds: tuple[int, ...] = ()):
        self.scratch = scratch
        # stderr stays outside the scratch directory: the step cannot rewrite what it said
        self._stderr = tempfile.TemporaryFile()
        # -P: the working directory never lands on sys.path, so files a previous step wrote
        # cannot shadow the harness's modules; -s: no user site-packages.
        argv = [sys.executable, "-P", "-s", "-m", "evaluator.harness.child", step, str(scratch)]
        self.group = None
        self.sandbox = sandbox  # whose limits a stopped step is measured against
        self.usage = None
        self._closed = False
        self.reusable = False  # set by a session once a task ended well: it may serve the next
        if sandbox is not None:
            self.group = sandbox.cgroup()
            cmd, fd = sandbox.command(argv, scratch, dict(env or {}), self.group)
            try:
                self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             stderr=self._stderr, cwd="/", pass_fds=[fd, *pass_fds],
                                             env={"PATH": "/usr/bin:/bin"}, start_new_session=True)
            finally:
                os.close(fd)
        else:
            # absolute: the step runs in its scratch directory, where a relative entry means nothing
            paths = [_ROOT] + [os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
            full_env = child_environment({"PYTHONPATH": os.pathsep.join(paths),
                                          **(env or {}), "EKB_PARENT_PID": str(os.getpid())})
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._stderr, cwd=scratch, env=full_env,
                                         pass_fds=list(pass_fds), start_new_session=True)
        self._sel = selectors.DefaultSelector()
        self._sel.register(self.proc.stdout, selectors.EVENT_READ)
        self._buf = b""
        self.arrived_ns = 0
        self.send(request.to_json())

    def read(self, cls: type[m.Message], timeout: float, limit: int = m.MAX_LINE_BYTES) -> m.Message:
        """The child's next message, parsed as ``cls``; raises StepTimeout or StepCrashed."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buf:
            if len(self._buf) > limit:
                self.kill()
                raise StepCrashed(f"sent a message over the {limit >> 10} KiB limit", self.stderr_tail())
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise StepTimeout()
            if not self._sel.select(left):
                continue
            chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
            if not chunk:
                self.proc.wait()
                raise StepCrashed(self._describe_exit(), self.stderr_tail())
            self._buf += chunk
        # when the answer arrived, before any parsing: what a timed sample ends at
        self.arrived_ns = time.perf_counter_ns()
        line, self._buf = self._buf.split(b"\n", 1)
        if len(line) > limit:
            self.kill()
            raise StepCrashed(f"sent a message over the {limit >> 10} KiB limit", self.stderr_tail())
        try:
            return cls.from_json(line)
        except m.ProtocolError as e:
            # a step that reports its own failure does so with an error message of its own kind
            try:
                err = m.Done.from_json(line)
            except m.ProtocolError:
                err = None
            self.kill()
            if err is not None and not err.ok:
                raise StepCrashed(f"failed: {err.error}", self.stderr_tail()) from None
            raise StepCrashed(f"broke the step protocol: {e}", self.stderr_tail()) from None

    def quiet(self) -> bool:
        """Nothing unread from the step: no bytes kept and none waiting. A kept process that
        wrote while idle (a reply forged ahead for the next task) is not used again."""
        return not self._buf and not self._sel.select(0)

    def send(self, line: str) -> None:
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass

    @property
    def killed_by(self) -> int | None:
        """The signal that ended the step; bwrap's init reports it as 128 + signal."""
        rc = self.proc.returncode
        if rc is None:
            return None
        if rc < 0:
            return -rc
        if self.group is not None and 128 < rc < 128 + 65:
            return rc - 128
        return None

    def _describe_exit(self) -> str:
        sig = self.killed_by
        if sig:
            try:
                s = signal.Signals(sig)
                return f"was killed by {s.name} ({_SIGNALS.get(s, 'signal')})"
            except ValueError:
                return f"was killed by signal {sig}"
        last = [ln for ln in self.stderr_tail().splitlines() if ln.strip()]
        return f"exited with status {self.proc.returncode}" + (f": {last[-1][:300]}" if last else "")

    def stderr_tail(self, n: int = 600) -> str:
        try:
            self._stderr.seek(0, os.SEEK_END)
            size = self._stderr.tell()
            self._stderr.seek(max(0, size - n))
            data = self._stderr.read()
        except (OSError, ValueError):
            return ""
        return data.decode("utf-8", "replace").strip()

    def cpu_s(self) -> float | None:
        """CPU seconds the step's processes have used so far (its cgroup), or None unsandboxed."""
        return self.group.cpu_s() if self.group is not None else None

    def kill(self) -> None:
        if self.group is not None:
            self.group.kill()  # every process of the step, daemonised ones included
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.kill()
        if self.group is not None:
            self.usage = self.group.usage()
            self.group.remove()
        self._sel.close()
        self._stderr.close()
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass
