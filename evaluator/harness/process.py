"""Runs one step of the child (``evaluator.harness.child``) with a wall-clock limit.

The child is a new session so that a timeout kills its whole process group (a kernel that
forks cannot outlive the step). The sandbox later wraps this command; the harness does not
change.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parents[2])


class StepTimeout(Exception):
    pass


class StepCrashed(Exception):
    """The child died without answering; ``str()`` is the short reason, ``output`` its last
    stderr lines (kept in the record's detail, not in the reason)."""

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
}


class ChildProcess:
    def __init__(self, step: str, request: dict, scratch: Path, env: dict | None = None):
        self.scratch = scratch
        req_path = scratch / f"{step}-request.json"
        req_path.write_text(json.dumps(request))
        self.stderr_path = scratch / f"{step}-stderr.txt"
        extra_env = env
        env = {k: v for k, v in os.environ.items() if not k.startswith("EKB_SECRET")}
        env["PYTHONPATH"] = _ROOT + os.pathsep + env.get("PYTHONPATH", "")
        env.update(extra_env or {})
        env["EKB_PARENT_PID"] = str(os.getpid())
        self._stderr = open(self.stderr_path, "wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "evaluator.harness.child", step, str(req_path)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
            cwd=scratch, env=env, start_new_session=True,
        )
        self._sel = selectors.DefaultSelector()
        self._sel.register(self.proc.stdout, selectors.EVENT_READ)
        self._buf = b""

    def read(self, timeout: float) -> dict:
        """The child's next message; raises StepTimeout or StepCrashed."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buf:
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
        line, self._buf = self._buf.split(b"\n", 1)
        return json.loads(line)

    def send(self, line: str) -> None:
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass

    def _describe_exit(self) -> str:
        rc = self.proc.returncode
        if rc is not None and rc < 0:
            sig = signal.Signals(-rc)
            return f"was killed by {sig.name} ({_SIGNALS.get(sig, 'signal')})"
        return f"exited with status {rc}"

    def stderr_tail(self, n: int = 600) -> str:
        try:
            data = self.stderr_path.read_bytes()[-n:]
        except OSError:
            return ""
        return data.decode("utf-8", "replace").strip()

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait()

    def close(self) -> None:
        self.kill()
        self._sel.close()
        self._stderr.close()
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass
