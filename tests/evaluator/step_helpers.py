"""What the live serve steps of this test process are allowed to run on, read from /proc while
they run (the CPUs of every thread, as the kernel reports them), and a candidate that tries to
widen them."""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

from evaluator import suite

RELU = suite.get_workload("activation/relu@m128n768")  # X[128, 768] -> T_relu
LAUNCH = {"entry": "relu", "args": ["X", "T_relu"]}  # a c-source entry's, for the kernels below
# correct, but its first call asks for every CPU: sched_setaffinity(0, ...) as a raw x86-64 system
# call (203), so that no libc import gives it away
UNPIN = """
static long unpinned;
void relu(const float *restrict X, float *restrict Y) {
    if (!unpinned) {
        unsigned long every = ~0UL;
        long r;
        __asm__ volatile ("syscall" : "=a"(r) : "a"(203L), "D"(0L), "S"((long)sizeof every), "d"(&every)
                          : "rcx", "r11", "memory");
        unpinned = 1;
    }
    for (int i = 0; i < 128 * 768; ++i) Y[i] = X[i] > 0.0f ? X[i] : 0.0f;
}
"""


def _step_threads(seen: dict, stop: threading.Event) -> None:
    """Every thread of this process's serve steps (their cgroups are named after it) and the CPUs
    it may run on."""
    mark = f"/ekb/{os.getpid()}-"
    while not stop.is_set():
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                if mark not in Path(f"/proc/{pid}/cgroup").read_text():
                    continue
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                if b"evaluator.harness.child" not in cmd or b"serve" not in cmd:
                    continue
                for tid in os.listdir(f"/proc/{pid}/task"):
                    status = Path(f"/proc/{pid}/task/{tid}/status").read_text()
                    line = next(ln for ln in status.splitlines() if ln.startswith("Cpus_allowed_list:"))
                    seen[(pid, tid)] = line.split(":", 1)[1].strip()
            except (OSError, StopIteration):
                continue
        stop.wait(0.01)


@contextlib.contextmanager
def serve_step_cpus():
    """A dict filled, while the block runs, with ``(pid, tid) → Cpus_allowed_list`` of every
    serve-step thread seen."""
    seen: dict = {}
    stop = threading.Event()
    watcher = threading.Thread(target=_step_threads, args=(seen, stop), daemon=True)
    watcher.start()
    try:
        yield seen
    finally:
        stop.set()
        watcher.join()
