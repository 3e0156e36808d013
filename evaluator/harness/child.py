"""The processes that touch candidate code: ``python -m evaluator.harness.child STEP SCRATCH``.

``build``: lower the submission onto the canonical IR and compile it (parsing TVMScript and
applying schedules can run submitted code, so this never runs in the harness process).
``serve``: load one kernel (the candidate, or one baseline: each has its own process) and run
it on command. The parent drives every sample — it writes the inputs, says ``run``, and reads the
outputs from the arena itself — so nothing this process measures or says decides a score.

The request is the first line on stdin, commands follow on stdin; replies are JSON lines on the
original stdout (the kernel's own prints go to stderr, so they cannot forge one). File names in
messages are plain names inside SCRATCH, the working directory.
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading
import time
import traceback

# Start-up imports the protocol only: main lowers the rlimits first, then each step imports what
# it runs (build: TVM, the builder, the formats; serve: the backend, the arena), so a serve step
# of a C kernel never loads TVM. The imports inside functions below are these, and say so.
from evaluator.harness import messages as m
from evaluator.vocabulary import Baseline


def _channel():
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # anything the kernel prints goes to stderr
    sys.stdout = sys.stderr
    return out


def _send(chan, msg: m.Message) -> None:
    chan.write(msg.to_json() + "\n")
    chan.flush()


def _error_text(e: BaseException) -> str:
    from evaluator.ir.layered_trace import _tvm_message  # a step's import (see the top)

    # our own errors are already one clear sentence; TVM's carry a C++ backtrace to trim
    if isinstance(e, (ValueError, TypeError)) and "Traceback" not in str(e):
        return str(e)[: m.MAX_ERROR]
    return _tvm_message(e)[: m.MAX_ERROR]


# TVM's words when a split's factors multiply to less than the loop's extent (it names the loop
# by an internal id): the case a schedule written for every shape of a pattern meets first.
_SPLIT_SHORT = "product of factors is not larger than or equal to the extent"
_STEP = re.compile(r"(?:function '([A-Za-z_][A-Za-z0-9_.]*)': )?(compute|schedule|memory) step (\d+) \(split\): ")


def _lower_error(e: BaseException, fmt: str, source: str, canonical) -> str:
    """The lower stage's error for the submitter; a split too short for this shape is said so."""
    text = str(e)
    found = _STEP.match(text) if fmt == "layered-trace" and _SPLIT_SHORT in text else None
    if found:
        try:
            text = _split_too_short(found, source, canonical)
        except Exception:  # noqa: BLE001 - the explanation is a courtesy; TVM's own words remain
            pass
    return text[: m.MAX_ERROR]


def _split_too_short(found: re.Match, source: str, canonical) -> str:
    """Replay the steps before the failing split to read the loop's extent on this shape."""
    # the build step's imports (see the top)
    from tvm import s_tir

    from evaluator.ir import layered_trace as lt

    fname, layer, index = found.group(1), found.group(2), int(found.group(3))
    steps = lt.parse(json.loads(source))[fname]
    at = next(i for i, st in enumerate(steps) if st.layer == layer and st.index == index)
    sch = s_tir.Schedule(canonical)
    sch.work_on(fname or "main")
    names = lt._Names(sch)  # noqa: SLF001 - applies a trace's prefix step by step
    for st in steps[:at]:
        lt._apply_step(sch, names, st)  # noqa: SLF001
    split = steps[at]
    loop, factors = split.args["loop"], split.args["factors"]
    extent = int(sch.get(names.loop(loop)).extent)
    product = 1
    for f in factors:
        product *= f
    return (f"{found.group(0)}the factors {factors} multiply to {product}, less than the extent {extent} of loop "
            f"{loop!r} for this workload's shape, so they do not cover it. Factors need not divide the extent "
            f"(TensorIR guards the extra iterations with a predicate), but must cover it: give one factor as "
            f"null to have it inferred for every shape")


def build(req: m.BuildRequest, chan) -> None:
    # the build step's imports (see the top)
    import tvm

    from evaluator.backends import get_builder
    from evaluator import formats

    builder = get_builder(req.backend, req.target)  # the build half alone
    with open(req.canonical) as f:
        canonical = tvm.ir.load_json(f.read())
    with open(req.source, encoding="utf-8") as f:
        source = f.read()
    tensors = [{"name": t.name, "shape": list(t.shape), "dtype": t.dtype, "role": t.role} for t in req.tensors]
    if formats.FORMATS[req.format].raw:
        t0 = time.perf_counter()
        try:
            builder.build_source(req.format, source, req.launch, tensors, req.artifact)
        except Exception as e:  # noqa: BLE001 - the submission's compile error
            _send(chan, m.BuildReply(ok=False, stage="build", error=_error_text(e)))
            return
        _send(chan, m.BuildReply(ok=True, build_s=time.perf_counter() - t0, ir=source[: m.MAX_TEXT]))
        return
    t0 = time.perf_counter()
    try:
        mod = formats.lower(req.format, source, canonical, default_layers=builder.default_layers)
    except Exception as e:  # noqa: BLE001 - every failure to lower is the submission's compile error
        _send(chan, m.BuildReply(ok=False, stage="lower", error=_lower_error(e, req.format, source, canonical)))
        return
    t1 = time.perf_counter()
    try:
        builder.build(mod, req.artifact)
    except Exception as e:  # noqa: BLE001
        _send(chan, m.BuildReply(ok=False, stage="build", error=_error_text(e)))
        return
    t2 = time.perf_counter()
    _send(chan, m.BuildReply(ok=True, lower_s=t1 - t0, build_s=t2 - t1, ir=mod.script()[: m.MAX_TEXT]))


class _Served:
    """One loaded kernel and its tensors, one set per arena slot."""

    def __init__(self, backend, req: m.ServeRequest, spec: m.KernelSpec):
        from evaluator.harness.arena import Arena  # the serve step's import (see the top)

        self.req, self.spec, self.backend = req, spec, backend
        # its own descriptor: a kept process maps its one arena afresh for every task
        self.arena = Arena(list(req.inputs) + list(req.outputs), spec.slots, fd=os.dup(spec.arena_fd))
        n_in = len(req.inputs)
        self.views = [[self.arena.view(s, i) for i in range(n_in + len(req.outputs))] for s in range(spec.slots)]
        self.host = self.backend.host_memory
        if spec.role == Baseline.VENDOR:
            self.kernel = self.backend.vendor_kernel(spec.vendor)
            self.host = self.host or getattr(self.kernel, "host", False)
            self.tensors = [v[:n_in] for v in self.views] if self.host else \
                [[self.backend.tensor(a) for a in v[:n_in]] for v in self.views]
            self.ins, self.outs = self.tensors, [[] for _ in self.views]
        else:
            self.kernel = self.backend.load(spec.artifact, req.graph)
            if getattr(self.kernel, "host", False):  # e.g. a C function: NumPy views, no TVM
                self.host = True
                self.tensors = self.views
            else:
                self.tensors = [[self.backend.wrap(a) if self.host else self.backend.tensor(a) for a in v]
                                for v in self.views]
            self.ins = [t[:n_in] for t in self.tensors]
            self.outs = [t[n_in:] for t in self.tensors]

    def run(self, slots: range, number: int) -> None:
        kernel, ins, outs, graph = self.kernel, self.ins, self.outs, self.req.graph
        launch = kernel.launch
        first, k = slots.start, len(slots)
        for i in range(number):
            s = first + i % k
            got = launch(ins[s], outs[s])
            if graph:  # the VM returns fresh outputs: they land in the arena like any kernel's
                for g, o in zip(got, outs[s]):
                    if g is not o:
                        g.copyto(o)
        kernel.sync()

    def close(self) -> None:
        """Let go of this task's kernel and tensors (the process serves another task next)."""
        self.kernel = self.tensors = self.ins = self.outs = self.views = None
        self.arena.close()

    def load(self, slots) -> None:
        if not self.host:
            for s in slots:
                for t, v in zip(self.tensors[s], self.views[s]):
                    t.copyfrom(v)

    def fetch(self, slots) -> None:
        if not self.host:
            n_in = len(self.req.inputs)
            for s in slots:
                for t, v in zip(self.tensors[s][n_in:], self.views[s][n_in:]):
                    v[...] = t.numpy()


def serve(req: m.ServeRequest, chan, commands) -> bool:
    """Serve one task's kernels; True when told to ``stop`` (a kept process then waits for its
    next task's request), False when it ended otherwise (the process then exits)."""
    from evaluator.backends import get_backend  # the serve step's import (see the top)

    backend = get_backend(req.backend)
    served: dict[str, _Served] = {}
    # baselines first: no candidate code has run in this process when they load
    for spec in sorted(req.kernels, key=lambda k: k.role == "candidate"):
        try:
            served[spec.role] = _Served(backend, req, spec)
        except Exception as e:  # noqa: BLE001 - a kernel that does not load is the submission's error
            _send(chan, m.Ready(ok=False, role=spec.role, stage="load", error=_error_text(e)))
            return False
    _send(chan, m.Ready(ok=True))
    for line in commands:
        cmd = m.Command.from_json(line)
        if cmd.op == "stop":
            for one in served.values():
                one.close()
            return True
        one = served.get(cmd.role)
        if one is None:
            raise m.ProtocolError(f"Command.role: no kernel {cmd.role!r} here")
        if cmd.first + cmd.count > one.spec.slots or (cmd.op == "run" and cmd.number and not cmd.count):
            raise m.ProtocolError(f"Command: slots {cmd.first}..{cmd.first + cmd.count - 1} of {one.spec.slots}")
        slots = range(cmd.first, cmd.first + cmd.count)
        t0 = time.perf_counter()
        try:
            getattr(one, cmd.op)(*((slots, cmd.number) if cmd.op == "run" else (slots,)))
        except Exception as e:  # noqa: BLE001 - the kernel failed while called
            _send(chan, m.Done(op=cmd.op, ok=False, error=_error_text(e)))
            return False
        _send(chan, m.Done(op=cmd.op, child_s=time.perf_counter() - t0))
    return False


def _serve_all(first: str, chan, commands) -> None:
    while first and serve(m.ServeRequest.from_json(first), chan, commands):
        first = next(commands, "")


# Kernels are called from a thread of our own, not the main thread: the main thread's stack
# starts wherever address randomisation (and the length of the environment and arguments) put
# it, 16-byte aligned, so a kernel's stack-resident buffers (a register tile's accumulators)
# landed 32-byte aligned in one process and not in the next, and its speed moved with them (a
# batched matmul: 265 against 290 µs a call, by process; 16 bytes more environment flipped it).
# A thread's stack is a fresh mapping, whose top sits at the same offset in its page in every
# process: every evaluation calls the kernel at one alignment.
SERVE_STACK_BYTES = 16 << 20


def on_fixed_stack(work) -> None:
    """Run ``work`` on a fresh thread (its own stack mapping) and wait; its exception is raised here."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as e:  # noqa: BLE001 - handed to the main thread
            failed.append(e)

    threading.stack_size(SERVE_STACK_BYTES)
    t = threading.Thread(target=run, name="serve")
    t.start()
    t.join()
    if failed:
        raise failed[0]


def _die_with_parent() -> None:
    """If the evaluating process dies (a killed worker), this process gets SIGKILL rather than
    running on as an orphan; checked against the parent's pid to close the start-up race."""
    # outside a sandbox only (unsafe local mode): kept off the start-up of a sandboxed step
    import ctypes
    import signal

    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        return
    if os.getppid() != int(os.environ["EKB_PARENT_PID"]):
        os._exit(1)


def main(argv: list[str]) -> int:
    step, scratch = argv
    from evaluator.sandbox import apply_rlimits_from_env  # first, before any step's import (see the top)

    apply_rlimits_from_env()
    if "EKB_PARENT_PID" in os.environ:  # outside a sandbox (bwrap --die-with-parent does it there)
        _die_with_parent()
    os.chdir(scratch)
    chan = _channel()
    commands = iter(sys.stdin.readline, "")
    try:
        first = next(commands, "")
        if step == "build":  # one build, or a session's builds one after another
            while first:
                build(m.BuildRequest.from_json(first), chan)
                first = next(commands, "")
        elif step == "serve":  # one task, or a kept process's tasks one after another
            on_fixed_stack(lambda: _serve_all(first, chan, commands))
        else:
            raise m.ProtocolError(f"unknown step {step!r}")
    except Exception:  # noqa: BLE001 - report, never hang the parent
        _send(chan, m.Done(op="error", ok=False, error=traceback.format_exc(limit=3)[-m.MAX_ERROR:]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
