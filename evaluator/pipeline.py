"""The evaluation pipeline: load → lower → build → check → time → record, per task.

Each stage is its own module (``formats``, ``ir``, ``backends``, ``harness.check``,
``harness.timing``, ``records``); this file only wires them and turns every way a stage can
fail into a typed :class:`~evaluator.records.TaskResult`. Stages that touch submitted code run in
a child process with a wall-clock limit (``harness.process``).
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import json
import os
import platform
import secrets
import shutil
import signal
import stat
import tempfile
import threading
import time
import weakref
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from evaluator import records, scoring, suite
from evaluator.backends import Backend, BackendUnavailable, get_backend, get_builder
from evaluator.backends.base import TargetBuilder
from evaluator.backends.peaks import cache_dir, peaks, remeasured, roofline_fraction
from evaluator.baselines import tvm_tuned
from evaluator.harness import linkage, timing, vendor_ratio
from evaluator.harness.arena import layout as arena_layout, sealed as arena_sealed
from evaluator.harness import messages as m
from evaluator.harness.check import check_set
from evaluator.harness.process import ChildProcess, StepCrashed, StepTimeout
from evaluator.harness.protocol import Protocol
from evaluator.harness.vendor_ratio import VendorRatio, VendorRatios
from evaluator.ir.layered_trace import _tvm_message
from evaluator.records import TaskResult, Timing
from evaluator.sandbox import Sandbox, SandboxUnavailable, probe, unsafe_local_allowed
from evaluator.suite.inputs import draw, generate
from evaluator.suite.spec import WorkloadSpec
from evaluator.vocabulary import BackendKind, Baseline


@dataclass(frozen=True)
class Built:
    """A candidate's build step (:meth:`Builder.build`): its artifact, or None and why, in the
    task's record so far. ``pure``: the outcome follows from :meth:`Builder.build_inputs` and the
    software alone, so another build of the same inputs would give the same (nothing the
    machine ran short of, no limit reached, no timeout, no crash)."""

    artifact: "Artifact | None"
    record: TaskResult
    pure: bool


@dataclass(frozen=True)
class Candidate:
    """What the load stage hands on: one kernel for one workload, in one format."""

    format: str
    source: str
    trace: list | None = None
    launch: dict | None = None  # raw-source formats only

    @classmethod
    def of(cls, entry, w) -> "Candidate | None":
        """A bundle entry's kernel for workload ``w`` (its launch bound to ``w``'s sizes); None
        without an entry."""
        return cls(entry.format, entry.source, entry.trace, entry.launch_for(w)) if entry else None


class Stopped(Exception):
    """The run was stopped from outside (:meth:`Builder.stop`, e.g. a cancelled submission): the
    task it was on has no result."""


class Builder:
    """The build half of evaluating tasks on one backend: the candidate built in a sandboxed
    step, the baselines built from our own code. Needs TVM's compiler and the backend's target,
    not its device: a compile farm's build worker is one (``backends.get_builder``), and every
    :class:`Pipeline` is one too.

    ``sandbox``: a :class:`~evaluator.sandbox.Sandbox`, ``"auto"`` (the sandbox when this machine
    has one; otherwise refuse, unless unsafe local mode is on) or ``None`` (unsandboxed: only for
    trusted bundles, and only when ``EKB_UNSAFE_LOCAL=1``).
    """

    def __init__(self, backend: TargetBuilder | str, protocol: Protocol | None = None, sandbox="auto",
                 tuned_records: Path | None = tvm_tuned.RECORDS_DIR):
        self.backend = get_builder(backend) if isinstance(backend, str) else backend
        self.name = self.backend.name
        # where tvm-tuned records are read from (None: no tvm-tuned baseline)
        self.tuned_records = tuned_records
        self.protocol = protocol or Protocol()
        self.sandbox = _choose_sandbox(sandbox)
        self._session: _BuildSession | None = None
        # the steps started and not yet collected, for :meth:`stop` (which may come from another thread)
        self._steps: weakref.WeakSet[ChildProcess] = weakref.WeakSet()
        self._steps_lock = threading.Lock()
        self.stopped = threading.Event()

    def stop(self) -> None:
        """Stop from any thread: every step running now is killed and none starts after; the
        ``evaluate``, ``build`` or ``measure`` in progress raises :class:`Stopped`."""
        self.stopped.set()
        with self._steps_lock:
            running = list(self._steps)
        for child in running:
            child.kill()

    @contextlib.contextmanager
    def _stoppable(self):
        """A task's result only when the run was not stopped meanwhile: a step killed by
        :meth:`stop` would otherwise read as the kernel's crash."""
        try:
            yield
        except Exception as e:
            if self.stopped.is_set():
                raise Stopped("stopped while the task ran") from e
            raise
        if self.stopped.is_set():
            raise Stopped("stopped while the task ran")

    def target(self) -> dict:
        """The TVM target this builder's artifacts are for (JSON)."""
        return self.backend.target()

    # --- baselines ---------------------------------------------------------------------------
    def baseline_artifact(self, w: suite.WorkloadDef) -> Path:
        """The ``tvm-default`` build of a workload (the backend's default schedule), cached by
        what determines it."""
        import tvm  # heavy: TVM is imported on use, never with this module

        canonical = w.canonical_module()
        doc = self.backend.default_signature(canonical, w)
        key = hashlib.sha256(json.dumps([w.id, doc, self.backend.target(), tvm.__version__],
                                        sort_keys=True).encode()).hexdigest()[:24]
        return self._cached_build("baselines", key, lambda: self.backend.default_module(canonical, w))

    def _cached_build(self, kind: str, key: str, module: Callable) -> Path:
        """A trusted build in the cache, made once (``module()`` only when it is not there) and
        named for what it is (``.so`` a shared library, ``.json`` a launch plan)."""
        folder = cache_dir() / kind
        for suffix in ARTIFACT_SUFFIXES.values():
            if (folder / f"{key}{suffix}").exists():
                return folder / f"{key}{suffix}"
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f"{key}.{time.monotonic_ns()}.tmp.so"  # TVM's export wants a library's name
        self.backend.build(module(), str(tmp))
        with open(tmp, "rb") as f:
            path = folder / f"{key}{artifact_suffix(f.read(4))}"
        tmp.rename(path)  # atomic: concurrent workers never load a half-written file
        return path

    def tuned_artifact(self, w: suite.WorkloadDef) -> tuple[Path | None, str]:
        """The ``tvm-tuned`` build of a workload from its stored record, cached by what determines
        it, and a note on a record that exists but is not used (stale, unreadable): ``(None, "")``
        without a record. Raises when a usable record does not build."""
        return self._tuned_build(tvm_tuned.lookup(w, self.name, self.tuned_records), w)

    def _tuned_build(self, found: tvm_tuned.Lookup, w: suite.WorkloadDef) -> tuple[Path | None, str]:
        import tvm  # heavy: TVM is imported on use, never with this module

        rec = found.record
        if rec is None:
            return None, found.note
        key = hashlib.sha256(json.dumps([w.id, rec.canonical_hash, rec.tvmscript, self.backend.target(),
                                         tvm.__version__], sort_keys=True).encode()).hexdigest()[:24]
        return self._cached_build("tuned", key, rec.module), found.note

    def has_tuned(self, w: suite.WorkloadDef) -> bool:
        """Whether a usable (not stale) tvm-tuned record exists for the workload here."""
        if self.tuned_records is None or not tvm_tuned.record_path(w.id, self.name, self.tuned_records).is_file():
            return False
        return tvm_tuned.lookup(w, self.name, self.tuned_records).record is not None

    def _scratch(self):
        if self.sandbox is not None:
            return self.sandbox.scratch()
        return _temporary_dir()

    # --- one task ----------------------------------------------------------------------------
    def task_record(self, w, cand: Candidate | None) -> TaskResult:
        """The task's record before any step: the workload's facts, the entry's trace."""
        base = TaskResult(w.id, self.name, records.MISSING, level=w.level, family=w.family,
                          domains=list(w.domains), hidden=w.hidden,
                          trace=cand.trace if cand else None)
        if cand is None:
            base.reason = "no entry for this task in the bundle"
        return base

    def build(self, w: suite.WorkloadDef, cand: Candidate | None, fresh: bool = False) -> "Built":
        """The build step alone, for a compile farm: the candidate's artifact and the task's record
        so far (its build step and detail), or None and the record of why there is none (no
        entry, or the build failed). :meth:`measure` takes both on the measuring machine.
        ``fresh``: inside a :meth:`session`, in a new process (none of the session's earlier
        builds, which ran submitted code, can have left anything in it)."""
        base = self.task_record(w, cand)
        if cand is None:
            return Built(None, base, pure=False)
        with self._stoppable(), self._scratch() as scratch:
            got, pure = self._build_step(w, cand, base, scratch, fresh)
        return Built(got, base, pure) if isinstance(got, Artifact) else Built(None, got, pure)

    def build_inputs(self, w: suite.WorkloadDef, cand: Candidate) -> dict:
        """Everything the candidate's build step reads, as JSON (its two files by sha256): the
        request, the environment and the limits it runs under. With the software that runs it
        (TVM, the harness, a format's compiler: the caller's provenance) this determines the
        build, so a compile farm may key what it built by it. Kept beside :meth:`_build_step`,
        which must read nothing that is not here."""
        import tvm  # heavy: TVM is imported on use, never with this module

        canonical = tvm.ir.save_json(w.canonical_module()).encode()
        return {"backend": self.name, "target": self.target(), "workload": w.id, "params": w.params,
                "format": cand.format,
                "source": hashlib.sha256(cand.source.encode("utf-8")).hexdigest(),
                "canonical": hashlib.sha256(canonical).hexdigest(), "launch": cand.launch,
                "tensors": w.signature(), "env": self.backend.build_env(),
                "limits": asdict(self.protocol.limits),
                "sandbox": self.sandbox.limits.to_json() if self.sandbox is not None else None}

    def baselines(self, w: suite.WorkloadDef, r: TaskResult) -> dict[str, "Artifact"]:
        """The baselines' artifacts for a task (built from our own code, cached); one that does
        not build is noted in ``r.detail``."""
        return self._baselines(w, r, time_tuned=True)

    def _fail(self, r: TaskResult, status: str, reason: str, **detail) -> TaskResult:
        # a reason and a step's output may quote what submitted code wrote
        r.status, r.reason = status, m.printable(reason)
        r.detail.update({k: m.printable(v) if isinstance(v, str) else v for k, v in detail.items()})
        return r

    def _child(self, step: str, request: m.Message, scratch: Path, env: dict | None = None,
               pass_fds: tuple[int, ...] = ()) -> ChildProcess:
        """A step's process; ``env``: its environment beyond the cleared one (a build step's from
        the builder, ``build_env``; a run step's from the runner, ``child_env``)."""
        if self.stopped.is_set():
            raise Stopped(f"stopped before the {step} step")
        child = ChildProcess(step, request, scratch, env=env or {}, sandbox=self._step_sandbox(step),
                             pass_fds=pass_fds)
        with self._steps_lock:
            self._steps.add(child)
        if self.stopped.is_set():  # stop() ran while this one started
            child.kill()
        return child

    def _step_sandbox(self, step: str):
        """The sandbox a step starts in (a :class:`Pipeline`'s run steps: its device's)."""
        return self.sandbox

    def _stopped(self, r: TaskResult, child: ChildProcess, status: str, reason: str, step: str,
                 output: str = "") -> TaskResult:
        """Record a step that ended abnormally, naming the limit that stopped it, if any."""
        child.close()
        why = _limit_reason(child)
        if why:
            reason = why
            if why.startswith("CPU time"):
                status = records.TIMEOUT
            else:
                status = records.COMPILE_ERROR if step == "build" else records.RUNTIME_ERROR
        return self._fail(r, status, reason, step=step, output=output, **_usage(child))

    def _build_step(self, w, cand: Candidate, r: TaskResult, scratch: Path, fresh: bool = False,
                    prepared: "_BuildPrep | None" = None,
                    reuse_only: bool = False) -> tuple["Artifact | TaskResult | None", bool]:
        """The build step: the candidate's library, or the task's failure, and whether that follows
        from :meth:`build_inputs` alone (built, or refused by the lowering, the compiler or the
        artifact's checks; not a timeout, a crash or a limit: the machine's share). Inside
        :meth:`session` the step's process is the session's (TVM already imported; a new one when
        ``fresh``), and ``scratch`` is not used. ``prepared``: what the step needs of the
        workload's IR (:meth:`_build_prep`), made beforehand where the step runs in another thread.
        ``reuse_only``: build only in the session's live process, else return None (a thread must
        not start one: the sandbox's ``--die-with-parent`` ends a process with the thread that
        started it, and the next build would start another)."""
        prep = prepared or self._build_prep(w)

        lim = self.protocol.limits
        step = self._session
        if step is not None:
            child, scratch = step.process(fresh)
            if child is None and reuse_only:
                return None, False
            canonical, source, artifact_name = step.names()
        else:
            child, canonical, source, artifact_name = None, "canonical.json", "candidate.src", ARTIFACT
        # lower + compile in a child, over files nothing has planted (a fresh scratch, or the
        # session's cleared one with names drawn at random)
        _create(scratch / canonical, prep.canonical)
        _create(scratch / source, cand.source.encode("utf-8"))
        request = m.BuildRequest(
            backend=self.name, target=self.target(), format=cand.format, source=source, canonical=canonical,
            artifact=artifact_name, launch=cand.launch, tensors=prep.tensors)
        t0 = time.perf_counter()
        if child is None:
            child = self._child("build", request, scratch, env=self.backend.build_env())
            if step is not None:
                step.started(child)
        else:
            child.send(request.to_json())
        try:
            msg = child.read(m.BuildReply, lim.build_s)
        except StepTimeout:
            return self._stopped(r, child, records.TIMEOUT, f"build exceeded the {lim.build_s:g} s limit",
                                 "build"), False
        except StepCrashed as e:
            return self._stopped(r, child, records.COMPILE_ERROR, f"the compiler process {e}", "build",
                                 e.output), False
        finally:
            if step is None:
                child.close()
            r.steps_s["build"] = time.perf_counter() - t0
        # a limit the step reached (e.g. a fork bomb that ended in an exception), read from its
        # cgroup while it lives on in a session: the session's process then ends with this build
        why = _limit_reason(child, alive=step is not None)
        if step is None:
            r.detail["build_usage"] = _usage(child).get("usage")
        try:
            if not msg.ok:
                if why:
                    return self._fail(r, records.COMPILE_ERROR, why, step="build", **_usage(child)), False
                word = {"layered-trace": "schedule error", "tvmscript": "TVMScript error"}.get(
                    cand.format, "lowering error") if msg.stage == "lower" else "build error"
                return self._fail(r, records.COMPILE_ERROR, f"{word}: {msg.error}", step=msg.stage), True
            r.detail["ir_chars"] = len(msg.ir)
            # the rest of the step: the process's start-up and imports (a session's first build
            # only), the request and reply, the sandbox's set-up
            r.detail["build_split_s"] = {"lower": msg.lower_s, "compile": msg.build_s,
                                         "process": max(0.0, r.steps_s["build"] - msg.lower_s - msg.build_s)}
            try:
                calls = (lambda: prep.registry) if prep.registry is not None else \
                    (lambda: self.backend.registry_calls(w))
                return Artifact.take(scratch, artifact_name, lim.max_artifact_bytes,
                                     registry_calls=calls), why is None
            except ValueError as e:
                return self._fail(r, records.COMPILE_ERROR, str(e), step="build"), why is None
        finally:
            # only once the artifact is read: a retired process's scratch goes with it (the
            # session's 256th build read an emptied folder: "the build produced no kernel")
            if step is not None:
                step.finished(retire=why is not None)

    def _build_prep(self, w, registry: bool = False) -> "_BuildPrep":
        """What a build step needs of the workload's IR: the canonical module as JSON, its tensors
        and (``registry``) whether its library may call the registry. Made on the evaluating
        thread: TVM's TE builder keeps global state, and two threads building IR at once fail
        ("nested op_tag"), so a build run ahead in a thread is handed this."""
        import tvm  # heavy: TVM is imported on use, never with this module

        return _BuildPrep(tvm.ir.save_json(w.canonical_module()).encode(),
                          tuple(m.TensorSpec(**t) for t in w.signature()),
                          self.backend.registry_calls(w) if registry else None)

    @contextlib.contextmanager
    def session(self):
        """Builds inside share one sandboxed build process (TVM imported once, not per task):
        for one submission's entries, never two submitters' (a session is entered per
        submission and job). Nested sessions are one."""
        if self._session is not None:
            yield self
            return
        self._session = _BuildSession(self)
        try:
            yield self
        finally:
            self._session.close()
            self._session = None

    def _baselines(self, w, r: TaskResult, time_tuned: bool) -> dict[str, Artifact]:
        """The baselines' libraries (built here, from our own code, and cached). A baseline that
        does not build is recorded in ``r.detail``, never as the candidate's failure."""
        out: dict[str, Artifact] = {}
        # TVM's own default can fail to build (dlight's GEMV asks a GPU for more shared memory
        # than a block has): the task is still checked and timed, with no tvm-default speedup.
        try:
            out[Baseline.TVM_DEFAULT] = Artifact.trusted(self.baseline_artifact(w))
        except Exception as e:  # noqa: BLE001 - the baseline's failure is recorded, not the candidate's
            r.detail["baseline_error"] = f"tvm-default does not build here: {_tvm_message(e)}"[:2000]
        if time_tuned and self.tuned_records is not None:
            try:
                built, note = self.tuned_artifact(w)
                if note:
                    r.detail["tuned_note"] = note
                if built is not None:
                    out[Baseline.TVM_TUNED] = Artifact.trusted(built)
            except Exception as e:  # noqa: BLE001 - a broken record is recorded, not the candidate's
                r.detail["tuned_error"] = f"tvm-tuned does not build here: {_tvm_message(e)}"[:2000]
        return out


class _BuildSession:
    """The build process of a :meth:`Builder.session`, kept from one build to the next.

    Each build gets the scratch cleared and file names drawn at random (nothing an earlier build
    left can stand in for its input or its artifact). The process ends, and the next build
    starts another, after a build that timed out or crashed, reached a sandbox limit, or left
    the process with less than half its CPU limit (``RLIMIT_CPU`` counts a process's whole
    life), and after :data:`MAX_BUILDS` builds (memory a long-lived TVM keeps)."""

    MAX_BUILDS = 256

    def __init__(self, builder: Builder):
        self.builder = builder
        self.stack = contextlib.ExitStack()
        self.child: ChildProcess | None = None
        self.scratch: Path | None = None
        self.builds = 0

    def process(self, fresh: bool = False) -> tuple[ChildProcess | None, Path]:
        """The live process (None: the caller starts one with its request) and its scratch;
        ``fresh``: never one that built before, nor its scratch."""
        if fresh or (self.child is not None and self.child.proc.poll() is not None):
            self._end()
        if self.child is None:
            self._end()
            self.scratch = self.stack.enter_context(self.builder._scratch())  # noqa: SLF001
        else:
            _clear(self.scratch)
        return self.child, self.scratch

    def live(self) -> bool:
        """Whether the session's process runs and may take the next build."""
        return self.child is not None and self.child.proc.poll() is None

    @staticmethod
    def names() -> tuple[str, str, str]:
        tag = secrets.token_hex(8)
        return f"canonical-{tag}.json", f"candidate-{tag}.src", f"kernel-{tag}.so"

    def started(self, child: ChildProcess) -> None:
        self.child, self.builds = child, 0

    def finished(self, retire: bool) -> None:
        self.builds += 1
        child = self.child
        if child is None:
            return
        lim = getattr(self.builder.sandbox, "limits", None)
        cpu = child.cpu_s()
        spent = lim is not None and cpu is not None and cpu > lim.cpu_seconds / 2
        if retire or spent or self.builds >= self.MAX_BUILDS or child._closed:  # noqa: SLF001
            self._end()

    def _end(self) -> None:
        if self.child is not None:
            self.child.close()
            self.child = None
        self.stack.close()
        self.stack = contextlib.ExitStack()
        self.scratch = None

    def close(self) -> None:
        self._end()


@dataclass
class _Kept:
    """A kernel process of a session, with its own scratch and arena (kept with it)."""

    key: tuple
    scratch: Path
    arena_fd: int
    stack: contextlib.ExitStack
    child: ChildProcess | None = None
    tasks: int = 0
    given_cpu_s: float | None = None  # its CPU seconds when it was last given back (idle since)


class _ServeSession:
    """The kernel processes of a :meth:`Pipeline.session`, one per role (and environment).

    A process is kept after a task only when the task ended with every kernel checked and
    timed (``ChildProcess.reusable``): any failure, limit or protocol error ends it, and the
    next task starts a fresh one. It is told ``stop`` between tasks (it lets go of the kernel and
    waits for the next request), gets the next task's artifact under a new name in its cleared
    scratch, and is retired after :data:`MAX_TASKS` tasks or half its CPU limit
    (``RLIMIT_CPU`` counts a process's whole life). Its arena is one sealed shared-memory file
    of :data:`ARENA_BYTES` (pages are allocated only where a task writes); a task whose tensors
    need more gets a process of its own."""

    MAX_TASKS = 64
    ARENA_BYTES = 64 << 20

    def __init__(self, pipe: "Pipeline"):
        self.pipe = pipe
        self.idle: dict[tuple, _Kept] = {}

    def take(self, role: str, env: dict, scratch: Callable) -> _Kept:
        key = (role, tuple(sorted(env.items())))
        kept = self.idle.pop(key, None)
        if kept is not None and kept.child is not None and kept.child.proc.poll() is None and kept.child.quiet():
            return kept
        if kept is not None:  # it died or spoke while idle: a fresh one instead
            self._end(kept)
        stack = contextlib.ExitStack()
        folder = stack.enter_context(scratch())
        fd = arena_sealed(self.ARENA_BYTES)
        stack.callback(os.close, fd)
        return _Kept(key, folder, fd, stack)

    def give(self, kept: _Kept) -> None:
        child = kept.child
        kept.tasks += 1
        lim = getattr(self.pipe.run_sandbox, "limits", None)
        cpu = child.cpu_s() if child is not None else None
        keep = (child is not None and child.reusable and not child._closed and child.proc.poll() is None  # noqa: SLF001
                and kept.tasks < self.MAX_TASKS and not (lim and cpu is not None and cpu > lim.cpu_seconds / 2)
                and kept.key not in self.idle)
        if keep:
            child.reusable = False  # until the next task ends well
            child.send(m.Command(op="stop").to_json())
            kept.given_cpu_s = cpu
            self.idle[kept.key] = kept
        else:
            self._end(kept)

    @staticmethod
    def _idle_cpu(kept: _Kept) -> bool | None:
        """Whether ``kept`` used CPU since it was given back (more than letting go of its kernel
        takes); None where its CPU time cannot be read (no cgroup)."""
        now = kept.child.cpu_s() if kept.child is not None else None
        if now is None or kept.given_cpu_s is None:
            return None
        return now - kept.given_cpu_s > IDLE_CPU_FLOOR_S

    def idle_cpu(self, role: str) -> bool | None:
        """Whether an idle process kept for ``role`` used CPU since its last task (None: one of
        them cannot be watched)."""
        seen = [self._idle_cpu(k) for key, k in self.idle.items() if key[0] == role]
        return None if None in seen else any(seen)

    @staticmethod
    def _end(kept: _Kept) -> None:
        if kept.child is not None:
            kept.child.close()
        kept.stack.close()

    def end(self, role: str) -> None:
        """End the idle processes kept for ``role``."""
        for key in [k for k in self.idle if k[0] == role]:
            self._end(self.idle.pop(key))

    def close(self) -> None:
        for kept in self.idle.values():
            self._end(kept)
        self.idle.clear()


@dataclass(frozen=True)
class _BuildPrep:
    canonical: bytes  # the canonical module, TVM's JSON
    tensors: tuple  # the workload's signature (m.TensorSpec)
    registry: bool | None  # whether its library may call the registry (None: asked when needed)


class _BuildAhead:
    """The next task's build, run in a thread while this task is checked (``evaluate_all``): the
    build step process is the session's, so the thread only waits on it."""

    def __init__(self, w, cand: Candidate, record: TaskResult):
        self.w, self.cand, self.record = w, cand, record
        self._thread: threading.Thread | None = None
        self._out: Artifact | TaskResult | None = None
        self._error: BaseException | None = None

    def for_task(self, w, cand: Candidate) -> bool:
        return self.w is w and self.cand is cand

    def started(self) -> bool:
        return self._thread is not None

    def start(self, build: Callable[[], "Artifact | TaskResult"]) -> None:
        def run():
            try:
                self._out = build()
            except BaseException as e:  # noqa: BLE001 - raised again where the result is taken
                self._error = e

        self._thread = threading.Thread(target=run, name=f"build-ahead {self.w.id}", daemon=True)
        self._thread.start()

    def wait(self) -> None:
        if self._thread is not None:
            self._thread.join()

    def built(self) -> bool:
        """Whether the thread built (or failed) the candidate, rather than leaving it."""
        return self._error is not None or self._out is not None

    def result(self) -> "Artifact | TaskResult":
        self.wait()
        if self._error is not None:
            raise self._error
        return self._out


def _clear(folder: Path) -> None:
    """Remove everything in a scratch folder, never following a link out of it."""
    for entry in os.scandir(folder):
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(entry.path)


class Pipeline(Builder):
    """Evaluates tasks on one backend whose device is on this machine: builds (as a
    :class:`Builder`), then checks and times in the run steps (``measure``)."""

    def __init__(self, backend: Backend | str, protocol: Protocol | None = None,
                 seeds: Iterable[int] | None = None, sandbox="auto",
                 tuned_records: Path | None = tvm_tuned.RECORDS_DIR):
        super().__init__(get_backend(backend) if isinstance(backend, str) else backend, protocol, sandbox,
                         tuned_records)
        if seeds is not None:  # secret seeds for verified runs replace the public ones
            self.protocol = Protocol(**{**self.protocol.__dict__, "seeds": tuple(seeds)})
        if self.sandbox is not None:  # a GPU backend's steps get its device nodes, nothing more
            self.sandbox = self.sandbox.with_devices(self.backend.device_paths())
        self.info = self.backend.info()
        if not self.info.available:
            raise BackendUnavailable(f"backend {self.info.name!r} is unavailable here: {self.info.reason}")
        # the run steps' sandbox: the one above, or the device profile's narrower one (cpu-edge)
        self.run_sandbox = self.backend.run_sandbox(self.sandbox)
        self.peak = peaks(self.info.name, self.info.device, measure=self.backend.measure_peaks)
        self._peak_remeasured = False  # at most once per pipeline: an attacker's many fast claims cost one
        # the seeded input sets and their references, per workload and seed: a worker evaluates
        # many submissions on the same workloads (kept in this process's memory only)
        self._seeded: collections.OrderedDict[tuple[str, int], tuple[list, list]] = collections.OrderedDict()
        self._serving: _ServeSession | None = None
        self._vendor_ratios = VendorRatios(cache_dir() / "vendor-ratios")
        # evaluate_all: the build of the task after this one (started once this one's candidate is
        # built), and the one made that way for the task now evaluated
        self._ahead: _BuildAhead | None = None
        self._ready: _BuildAhead | None = None

    def _step_sandbox(self, step: str):
        return self.run_sandbox if step == "serve" else self.sandbox

    @contextlib.contextmanager
    def session(self):
        """As :meth:`Builder.session`, and the kernel processes too: each role's process (the
        candidate's, each baseline's) is kept from one task to the next, TVM's runtime and the
        device's context set up once. For one submission's tasks, never two submitters'."""
        if self._serving is not None:
            yield self
            return
        with super().session():
            self._serving = _ServeSession(self)
            try:
                yield self
            finally:
                self._serving.close()
                self._serving = None

    def evaluate_module(self, w: suite.WorkloadDef, mod) -> TaskResult:
        """Check and time a trusted, already scheduled module (a fresh ``tvm-tuned`` result) as
        the candidate, through the same run step, checks and timing as any submission, beside
        ``tvm-default``. Built here, not in a child: it is not submitted code. Neither a stored
        tvm-tuned record nor the vendor call is timed alongside (some NumPy calls take seconds
        per timed sample, and only tuned against default is asked here)."""
        base = TaskResult(w.id, self.info.name, records.MISSING, level=w.level, family=w.family,
                          domains=list(w.domains), hidden=w.hidden)
        with tempfile.TemporaryDirectory(prefix="ekb-module-") as d:
            path = Path(d) / ARTIFACT
            t0 = time.perf_counter()
            try:
                self.backend.build(mod, str(path))
            except Exception as e:  # noqa: BLE001
                return self._fail(base, records.COMPILE_ERROR, f"build error: {_tvm_message(e)}", step="build")
            finally:
                base.steps_s["build"] = time.perf_counter() - t0
            artifact = Artifact.trusted(path)
        return self._check_and_time(w, base, artifact, time_tuned=False, time_vendor=False)

    def evaluate(self, w: suite.WorkloadDef, cand: Candidate | None) -> TaskResult:
        base = self.task_record(w, cand)
        if cand is None:
            return base
        with self._stoppable(), self._scratch() as scratch:
            return self._evaluate(w, cand, base, scratch)

    def evaluate_all(self, tasks: Iterable[tuple[suite.WorkloadDef, Candidate | None]]):
        """``evaluate`` each task in turn (an iterator of their records). Inside :meth:`session`
        each candidate's build starts while the task before it is checked — a build is one core's
        work, and the check is not timed — and ends before that task's timing starts: no build
        runs while anything is timed. The tasks are read one ahead."""
        items = iter(tasks)
        current = next(items, None)
        try:
            while current is not None:
                after = next(items, None)
                self._ready = self._ahead
                self._ahead = None
                if after is not None and after[1] is not None and self._session is not None:
                    self._ahead = _BuildAhead(*after, self.task_record(*after))
                yield self.evaluate(*current)
                current = after
        finally:
            self._settle_ahead()
            self._ahead = self._ready = None

    def _evaluate(self, w, cand: Candidate, r: TaskResult, scratch: Path) -> TaskResult:
        ready, self._ready = self._ready, None
        if ready is not None and ready.for_task(w, cand) and ready.started():
            ready.wait()  # built while the task before was checked; nothing else runs now
            if ready.built():  # (not where the session's process had ended: built in its turn)
                ready.record.detail["built_ahead"] = True
                return self._check_and_time(w, ready.record, ready.result)
        # the baselines' processes start while the candidate builds (the build is one core's work)
        return self._check_and_time(w, r, lambda: self._build_step(w, cand, r, scratch)[0])

    def _build_ahead(self) -> None:
        """Start the next task's build (``evaluate_all``), once this task's candidate is built."""
        ahead, session = self._ahead, self._session
        if ahead is not None and not ahead.started() and session is not None and session.live():
            prep = self._build_prep(ahead.w, registry=True)  # here: the thread only talks to the step
            ahead.start(lambda: self._build_step(ahead.w, ahead.cand, ahead.record, None, prepared=prep,
                                                 reuse_only=True)[0])

    def _step_cpus(self) -> tuple[int, ...]:
        """The CPUs the run steps are pinned to (none: the scheduler's to place)."""
        return tuple(getattr(self.run_sandbox, "cpus", ()))

    def _settle_ahead(self) -> None:
        """Wait for the next task's build, if one runs: before anything is timed."""
        if self._ahead is not None:
            self._ahead.wait()

    def _serve(self, stack: contextlib.ExitStack, w, kernels: dict[str, Artifact | dict],
               limit_s: float) -> dict[str, timing.Server]:
        """One process serving ``kernels`` (role → artifact, or the vendor call's spec), each over
        its own arena: a fresh process in its own fresh scratch, or inside :meth:`session` (one
        kernel whose tensors fit a kept arena) the session's process for this role, kept from the
        task before."""
        specs = [m.TensorSpec(t.name, tuple(t.shape), t.dtype) for t in w.inputs] + \
                [m.TensorSpec(t.name, tuple(t.shape), t.dtype, "output") for t in w.outputs]
        env = {"TVM_THREAD_POOL_SPIN_COUNT": str(self.protocol.tvm_spin_count)}
        if Baseline.VENDOR in kernels:
            # OpenBLAS's threads spin for ~0.1 s after each call (2^28 cycles) unless told not
            # to: cores taken from the kernel timed next, and CPU the idle check would see
            env["OPENBLAS_THREAD_TIMEOUT"] = "4"
        elif not _registry_calls(self.backend, w):
            # (not for the vendor call, from the pattern files, which use TE; nor where TVM's own
            # build calls the registry: tvm.contrib.sort is not in the runtime-only library)
            # loading and calling a built kernel needs TVM's runtime only: half the import time,
            # and no compiler within the kernel's reach
            env["TVM_USE_RUNTIME_LIB"] = "1"
        plans = {role: timing.arena_plan(specs, self.backend.max_slots) for role in kernels}
        kept = None
        if (self._serving is not None and len(kernels) == 1 and not self.backend.one_session
                and self.backend.keeps_processes):
            (role,) = kernels
            if arena_layout(*plans[role]).total <= _ServeSession.ARENA_BYTES:
                kept = self._serving.take(role, env, self._scratch)
        if kept is not None:
            scratch = kept.scratch
            _clear(scratch)  # nothing the task before left stays
            arenas = {role: timing.Arena(*plans[role], fd=os.dup(kept.arena_fd))}
            stack.callback(self._serving.give, kept)  # kept again only once marked reusable
        else:
            scratch = stack.enter_context(self._scratch())
            arenas = {role: timing.Arena(*plans[role]) for role in kernels}
        for a in arenas.values():
            stack.callback(a.close)
        tag = secrets.token_hex(4)  # a new name every task: a kept process never reloads an old library
        spec_of = []
        for role, what in kernels.items():
            arena = arenas[role]
            placed = what.place(scratch, f"{role}-{tag}") if isinstance(what, Artifact) else ""
            spec_of.append(m.KernelSpec(role=role, artifact=placed, slots=arena.layout.slots,
                                        arena_fd=kept.arena_fd if kept else arena.fd,
                                        arena_bytes=_ServeSession.ARENA_BYTES if kept else arena.layout.total,
                                        vendor=None if isinstance(what, Artifact) else what))
        marked = next(iter(arenas.values())).specs  # the same plan for every kernel of a workload
        req = m.ServeRequest(backend=self.info.name, graph=w.level == "L3",
                             inputs=tuple(marked[:len(w.inputs)]), outputs=tuple(marked[len(w.inputs):]),
                             kernels=tuple(spec_of))
        if kept is not None and kept.child is not None:
            child = kept.child
            child.send(req.to_json())
        else:
            env.update(self.backend.prepare_run(scratch, limit_s))
            fds = (kept.arena_fd,) if kept is not None else tuple(a.fd for a in arenas.values())
            child = self._child("serve", req, scratch, env={**self.backend.child_env(), **env}, pass_fds=fds)
            if kept is not None:
                kept.child = child
            else:
                stack.callback(child.close)
        return {role: timing.Server(role, child, arenas[role], len(w.inputs), not self.backend.host_memory,
                                    checked=role != Baseline.VENDOR, own_process=len(kernels) == 1) for role in kernels}

    def measure(self, w, artifact: Artifact, baselines: dict[str, Artifact], time_vendor: bool = True,
                record: TaskResult | None = None) -> TaskResult:
        """Check and time kernels built elsewhere (a compile farm's artifacts, on a measurement
        machine without TVM's compiler): the same run steps, checks and timing as ``evaluate``.
        ``w``: the workload, or its :class:`~evaluator.suite.spec.WorkloadSpec` where the pattern
        files cannot be imported; for the timed phase's fresh inputs a spec has no reference, and
        the trusted ``tvm-default`` process computes it.
        ``record``: the task's record from its build (:meth:`build`), completed here."""
        r = record if record is not None else TaskResult(
            w.id, self.info.name, records.MISSING, level=w.level, family=w.family,
            domains=list(w.domains), hidden=w.hidden)
        try:
            artifact.check_linkage(lambda: _registry_calls(self.backend, w))
        except ValueError as e:
            return self._fail(r, records.COMPILE_ERROR, str(e), step="build")
        with self._stoppable():
            return self._check_and_time(w, r, artifact, time_vendor=time_vendor, baselines=baselines)

    def _check_and_time(self, w, r: TaskResult, artifact: "Artifact | Callable[[], Artifact | TaskResult]",
                        time_tuned: bool = True, time_vendor: bool = True,
                        baselines: dict[str, Artifact] | None = None) -> TaskResult:
        """``artifact``: the candidate's library, or the build that makes it (run once the
        baselines' processes have started, so their start-up overlaps it)."""
        lim = self.protocol.limits
        if baselines is None:
            baselines = self._baselines(w, r, time_tuned)
        vendor = (w.vendor if isinstance(w, WorkloadSpec) else self.backend.vendor_spec(w)) if time_vendor else None
        known = None
        if vendor is not None and Baseline.TVM_DEFAULT in baselines and not self.backend.one_session:
            known = self._vendor_ratio(w, r, baselines[Baseline.TVM_DEFAULT], vendor)
            if known is not None:
                vendor = None  # the candidate is timed against tvm-default, the vendor figure known
        with contextlib.ExitStack() as stack:
            t0 = time.perf_counter()
            others: dict[str, Artifact | dict] = dict(baselines)
            if vendor is not None:
                others[Baseline.VENDOR] = vendor
            servers: dict[str, timing.Server] = {}
            try:
                # each kernel in a process of its own: fresh ones start while the candidate builds
                # (the build is one core's work); a session's kept ones are ready, and wait for it
                separate = not self.backend.one_session
                if separate and self._serving is None:
                    for role, what in others.items():
                        servers.update(self._serve(stack, w, {role: what}, lim.check_s + lim.time_s))
                if callable(artifact):
                    artifact = artifact()
                    if isinstance(artifact, TaskResult):
                        return artifact
                    self._build_ahead()  # the next task's build, while this one is checked
                t0 = time.perf_counter()
                if not separate:  # a board's one session carries every kernel
                    servers = self._serve(stack, w, {"candidate": artifact, **others}, lim.check_s + lim.time_s)
                else:  # a candidate never shares a process
                    if self._serving is not None:
                        for role, what in others.items():
                            servers.update(self._serve(stack, w, {role: what}, lim.check_s + lim.time_s))
                    servers = {**self._serve(stack, w, {"candidate": artifact}, lim.check_s + lim.time_s), **servers}
            except OSError as e:  # the machine refused a process or an arena: not the candidate's doing
                raise RuntimeError(f"could not start the run step: {e}") from e
            cand = servers["candidate"]
            deadline = time.monotonic() + lim.check_s
            # the candidate first: a kernel that does not load ends the task before anything waits
            children: dict[int, timing.Server] = {}  # one Ready per process; a shared one speaks for the candidate
            for srv in sorted(servers.values(), key=lambda s: s.role != "candidate"):
                children.setdefault(id(srv.child), srv)
            for srv in children.values():
                role = srv.role
                try:
                    ready = srv.child.read(m.Ready, max(0.0, deadline - time.monotonic()))
                except StepTimeout:
                    if role != "candidate":
                        raise RuntimeError(f"the {role} baseline did not start within {lim.check_s:g} s")
                    return self._stopped(r, srv.child, records.TIMEOUT,
                                         f"loading the kernel exceeded the {lim.check_s:g} s limit", "check")
                except StepCrashed as e:
                    if role != "candidate":
                        raise RuntimeError(f"the {role} baseline's process {e}") from None
                    return self._stopped(r, srv.child, records.RUNTIME_ERROR, f"the kernel process {e}", "check",
                                         e.output)
                if not ready.ok:
                    if (ready.role or role) != "candidate":
                        raise RuntimeError(f"the {ready.role or role} baseline does not load: {ready.error}")
                    return self._fail(r, records.RUNTIME_ERROR, f"load failed: {ready.error}", step="check")
            # where the check's seconds go: processes started and kernels loaded, the seeded
            # input sets and their references, the correctness runs and their comparison
            split = r.detail["check_split_s"] = {"ready": time.perf_counter() - t0, "inputs": 0.0}
            outcome = self._correctness(w, r, cand, deadline, split)
            r.steps_s["check"] = time.perf_counter() - t0
            split["runs"] = r.steps_s["check"] - split["ready"] - split["inputs"]
            if outcome is not None:
                return outcome
            self._settle_ahead()  # no build runs while anything is timed
            t0 = time.perf_counter()
            pool = timing.InputPool(w.inputs, draw, timing.secret_rng())
            pool_s = time.perf_counter() - t0
            try:
                report = timing.measure(servers, pool, self.protocol, timing.secret_rng(), lim.time_s)
                report.phases_s = {"input_pool": pool_s, **report.phases_s}
            except StepTimeout:
                return self._stopped(r, cand.child, records.TIMEOUT, f"timing exceeded the {lim.time_s:g} s limit",
                                     "time")
            except (StepCrashed, timing.KernelFailed) as e:
                crashed = next((s for s in servers.values() if s.child.proc.poll() is not None), cand)
                if crashed.role != "candidate":
                    raise RuntimeError(f"the {crashed.role} baseline failed while timing: {e}") from None
                output = getattr(e, "output", "")
                return self._stopped(r, cand.child, records.RUNTIME_ERROR,
                                     f"the kernel process {e} while timing" if isinstance(e, StepCrashed)
                                     else f"the kernel failed while timing: {e}", "time", output)
            finally:
                r.steps_s["time"] = time.perf_counter() - t0
            t1 = time.perf_counter()
            verdict = self._verify_timed(w, r, report, pool, servers.get(Baseline.TVM_DEFAULT))
            report.phases_s["verify"] = time.perf_counter() - t1
            r.steps_s["time"] += report.phases_s["verify"]
            why = _limit_reason(cand.child, alive=True)
            if verdict is None and why:  # a limit hit is named even when the kernel coped with it
                verdict = self._fail(r, records.RUNTIME_ERROR, why, step="time")
            if verdict is not None:
                for srv in servers.values():
                    srv.child.close()
                r.detail["run_usage"] = _usage(cand.child).get("usage")
                return verdict
            for srv in servers.values():
                if self._serving is not None:
                    srv.child.reusable = True  # a session may keep it for the next task
                else:
                    srv.child.close()
            r.detail["run_usage"] = _usage(cand.child).get("usage")
            return self._record(w, r, report, known)

    def _vendor_ratio(self, w, r: TaskResult, default: Artifact, spec: dict) -> VendorRatio | None:
        """The vendor call's time over tvm-default's on this machine (``vendor_ratio``), timed
        now if not known yet, with no submitted code at work: the figure is dropped if a session's
        kept candidate process or its kept build process used CPU meanwhile (work left there
        could slow one of the two kernels and move every later submission's vendor speedup); a
        kept candidate process whose CPU cannot be read is ended first. None where it could not
        be timed: the task then times the vendor call beside the candidate."""
        k = vendor_ratio.key(self.info.name, self.info.device, w.id, spec,
                             b"".join(data for _, data in default.files), self.protocol.to_json(),
                             {"cpus": list(self._step_cpus()), "env": self.backend.child_env()})
        known = self._vendor_ratios.get(k)
        if known is not None:
            return known
        if self._serving is not None and self._serving.idle_cpu("candidate") is None:
            self._serving.end("candidate")
        builder = self._session.child if self._session is not None else None
        cpu0 = builder.cpu_s() if builder is not None else None
        lim = self.protocol.limits
        t0 = time.perf_counter()
        try:
            with contextlib.ExitStack() as stack:
                servers: dict[str, timing.Server] = {}
                for role, what in ((Baseline.TVM_DEFAULT, default), (Baseline.VENDOR, spec)):
                    servers.update(self._serve(stack, w, {role: what}, lim.check_s + lim.time_s))
                deadline = time.monotonic() + lim.check_s
                for srv in servers.values():
                    ready = srv.child.read(m.Ready, max(0.0, deadline - time.monotonic()))
                    if not ready.ok:
                        return None
                pool = timing.InputPool(w.inputs, draw, timing.secret_rng())
                report = timing.measure(servers, pool, self.protocol, timing.secret_rng(), lim.time_s,
                                        against=Baseline.TVM_DEFAULT)
                # both trusted: kept for the task that follows (ending tvm-default's cost that
                # task a process start, 0.4 s, on 495 of the suite's first 951 tasks)
                for srv in servers.values():
                    srv.child.reusable = self._serving is not None
        except (StepTimeout, StepCrashed, timing.KernelFailed, OSError):
            return None
        finally:
            r.steps_s["vendor_ratio"] = time.perf_counter() - t0
        cpu1 = builder.cpu_s() if builder is not None else None
        if cpu0 is not None and (cpu1 is None or cpu1 - cpu0 > IDLE_CPU_FLOOR_S):
            r.detail["vendor_ratio_dropped"] = "the kept build process used CPU while the vendor call was timed"
            return None
        if self._serving is not None and self._serving.idle_cpu("candidate") is not False:
            # (kept: the task's own idle-CPU check then sees the work it left running)
            r.detail["vendor_ratio_dropped"] = "the kept candidate process used CPU while the vendor call was timed"
            return None
        if Baseline.VENDOR not in report.ratios:
            return None
        ratio = vendor_ratio.measured(report.ratios[Baseline.VENDOR], report.times[Baseline.VENDOR]["rounds"])
        self._vendor_ratios.put(k, ratio, persist=not w.hidden)
        return ratio

    SEEDED_CACHE = 64  # input sets kept (with their references), each at most:
    SEEDED_MAX_BYTES = 4 << 20

    def _input_set(self, w, seed: int) -> tuple[list, list]:
        key = (w.id, seed)
        if key not in self._seeded:
            arrays = generate(w, seed)
            reference = w.reference(arrays)
            if reference is None:  # a WorkloadSpec's references were drawn on the build machine
                raise RuntimeError(f"{w.id}: no reference for seeded input set {seed} here: the inputs drawn "
                                   "on this machine differ from the build machine's (NumPy versions?)")
            if sum(a.nbytes for a in arrays) + sum(np.asarray(a).nbytes for a in reference) > self.SEEDED_MAX_BYTES:
                return arrays, reference  # a large one is cheaper to make again than to hold
            self._seeded[key] = (arrays, reference)
            while len(self._seeded) > self.SEEDED_CACHE:
                self._seeded.popitem(last=False)
        self._seeded.move_to_end(key)
        return self._seeded[key]

    def _correctness(self, w, r: TaskResult, cand: timing.Server, deadline: float,
                     split: dict[str, float]) -> TaskResult | None:
        """The seeded input sets, each run twice on differently poisoned outputs in slot 0, read
        back from the arena by this process; None when every set is right. ``split["inputs"]``
        gains the seconds spent drawing the sets and computing their references."""
        lim = self.protocol.limits
        for k, seed in enumerate(self.protocol.seeds):
            t0 = time.perf_counter()
            arrays, reference = self._input_set(w, seed)
            split["inputs"] += time.perf_counter() - t0
            runs = []
            for run in range(self.protocol.runs_per_seed):
                try:
                    outputs, after = timing.call_once(cand, arrays, deadline, run)
                except StepTimeout:
                    return self._stopped(r, cand.child, records.TIMEOUT,
                                         f"correctness runs exceeded the {lim.check_s:g} s limit", "check")
                except StepCrashed as e:
                    return self._stopped(r, cand.child, records.RUNTIME_ERROR, f"the kernel process {e}", "check",
                                         e.output)
                except timing.KernelFailed as e:
                    return self._stopped(r, cand.child, records.RUNTIME_ERROR, f"run failed: {e}", "check")
                got = {f"out{i}": o for i, o in enumerate(outputs)}
                for i, (v, a) in enumerate(zip(after, arrays)):
                    if not np.array_equal(v, a, equal_nan=a.dtype.kind in "fc"):
                        got[f"in{i}"] = v.copy()
                runs.append(got)
            outcome = check_set(k + 1, arrays, [t.name for t in w.inputs], reference,
                                [o.name for o in w.outputs], runs, terms=accumulated_terms(w))
            if not outcome.ok:
                why = _limit_reason(cand.child, alive=True)
                if why:  # e.g. a fork bomb stopped by the pids limit, seen as a wrong output
                    return self._fail(r, records.RUNTIME_ERROR, why, step="check")
                return self._fail(r, records.WRONG_RESULT, outcome.reason, **outcome.detail)
        return None

    def _verify_timed(self, w, r: TaskResult, report: timing.TimingReport, pool: timing.InputPool,
                      trusted: timing.Server | None) -> TaskResult | None:
        """The checked rounds of the timed phase: outputs right at ``done`` and unchanged a
        moment later, inputs untouched."""
        names_in, names_out = [t.name for t in w.inputs], [o.name for o in w.outputs]
        r.detail["timed_outputs_read"] = len(report.snapshots)
        if report.changed_after_return:
            rnd, slot = report.changed_after_return[0]
            return self._fail(r, records.WRONG_RESULT, "the kernel's outputs changed after its call returned "
                              f"(timed round {rnd + 1}, call {slot + 1}): work continued outside the timed call",
                              step="time")
        for snap in report.snapshots:
            if not snap.inputs_intact:
                return self._fail(r, records.WRONG_RESULT, "the kernel modified its inputs while being timed "
                                  f"(timed round {snap.round + 1}, call {snap.slot + 1})", step="time")
        # Against references, in an order nobody can know, while the budget lasts; but always the
        # first two of every kernel's checked round (a reference can cost more than the budget,
        # and a baseline's checks must not stand in for the candidate's).
        rng = timing.secret_rng()
        per_round: dict[tuple[int, str], int] = {}
        spent, verified = 0.0, 0
        for snap in [report.snapshots[i] for i in rng.permutation(len(report.snapshots))]:
            if spent > self.protocol.timed_check_budget_s and per_round.get((snap.round, snap.role), 0) >= 2:
                continue
            t0 = time.perf_counter()
            arrays = pool.arrays(snap.offsets)
            reference = w.reference(arrays)
            if reference is None:  # no NumPy reference on this machine: TVM's own build computes it
                if trusted is None:
                    r.detail["timed_checks_skipped"] = "no reference here and no tvm-default to compute one"
                    continue
                reference = timing.call_once(trusted, arrays, time.monotonic() + self.protocol.limits.check_s)[0]
            outcome = check_set(0, arrays, names_in, reference, names_out,
                                [{f"out{i}": o for i, o in enumerate(snap.outputs)}], terms=accumulated_terms(w))
            spent += time.perf_counter() - t0
            per_round[(snap.round, snap.role)] = per_round.get((snap.round, snap.role), 0) + 1
            verified += 1
            r.detail["timed_checks"] = verified
            if not outcome.ok:
                return self._fail(r, records.WRONG_RESULT,
                                  f"while being timed (round {snap.round + 1}, call {snap.slot + 1} of "
                                  f"{snap.number}, fresh inputs): " + outcome.reason.replace(" (input set 0)", ""),
                                  step="time", **outcome.detail)
        return None

    def _record(self, w, r: TaskResult, report: timing.TimingReport, vendor: VendorRatio | None = None) -> TaskResult:
        r.status = records.CORRECT
        r.times = {k: Timing(**v) for k, v in report.times.items()}
        cand = r.times["candidate"].median_s
        ratios = report.ratios
        r.detail["speedup_spread"] = {k: [v["p25"], v["p75"]] for k, v in ratios.items()}
        for name in (Baseline.TVM_DEFAULT, Baseline.TVM_TUNED, Baseline.VENDOR):
            if name in ratios:
                r.speedup[name] = ratios[name]["median"]
                r.speedup_ci[name] = ratios[name]["ci"]
        if vendor is not None and Baseline.TVM_DEFAULT in r.speedup:
            r.speedup[Baseline.VENDOR], r.speedup_ci[Baseline.VENDOR] = vendor.speedup(r.speedup[Baseline.TVM_DEFAULT],
                                                                         r.speedup_ci[Baseline.TVM_DEFAULT])
            r.detail["vendor_ratio"] = vendor.to_json()
        r.roofline_fraction = roofline_fraction(w.flops, w.bytes, cand, self.peak)
        r.detail["timing"] = {"wall_s": report.wall_s, "calls_per_sample": report.numbers,
                              "rounds_ci": {k: v["rounds_ci"] for k, v in ratios.items()},
                              "round_trip_s": report.round_trip_s, "child_clock": report.child_clock,
                              "idle_cpu_s": report.idle_cpu_s, "idle_wall_s": report.idle_wall_s,
                              "busy_cpu_s": report.busy_cpu_s,
                              "copy_s": report.copy_s, "phases_s": report.phases_s}
        if over_peak(w, r, self.peak) and not self._peak_remeasured:
            # the roof may have been measured on a busy machine: measure it again before accusing
            self._peak_remeasured = True
            self.peak = remeasured(self.info.name, self.info.device, self.peak, measure=self.backend.measure_peaks)
        why = suspicion(w, r, report, self.peak)
        r.detail["timing_suspicious"] = bool(why)
        if why:
            r.status = records.SUSPECT
            r.reason = "timing is suspect: " + "; ".join(why)
        return r


def _registry_calls(backend: Backend, w) -> bool:
    return w.registry_calls if isinstance(w, WorkloadSpec) else backend.registry_calls(w)


def suspicion(w, r: TaskResult, report: timing.TimingReport, peak: dict | None) -> list[str]:
    """Why the numbers cannot be trusted as measured (empty when they can). Each rule compares
    what the candidate's process did with what this process saw or with a trusted process."""
    why = []
    cand_clock = report.child_clock.get("candidate", {})
    if cand_clock.get("suspect"):
        why.append("the kernel process's own clock disagrees with the harness's: it read "
                   f"{cand_clock['median_ratio']:.2f}x the time the harness measured (median over "
                   f"{cand_clock['samples']} samples; {cand_clock['longer_than_parent']} longer than possible)")
    idle, idle_wall = report.idle_cpu_s.get("candidate"), report.idle_wall_s.get("candidate", 0.0)
    if idle is not None and idle > max(IDLE_CPU_FLOOR_S, IDLE_CPU_SHARE * idle_wall):
        why.append(f"the kernel's process used {idle * 1e3:.0f} ms of CPU while it was not being called "
                   f"({idle_wall * 1e3:.0f} ms): background work outside the timed calls")
    copies = report.copy_s
    # against TVM's own builds only: the vendor call's process moves the same tensors faster
    # (4x on the H200, through PyTorch's CUDA context), which made honest kernels suspect
    base_copy = min((v for k, v in copies.items() if k not in ("candidate", Baseline.VENDOR)), default=None)
    if "candidate" in copies and base_copy is not None and copies["candidate"] > 3 * base_copy + 1e-4:
        why.append(f"moving its tensors to and from the device took {copies['candidate'] * 1e6:.0f} µs a call "
                   f"against the baseline's {base_copy * 1e6:.0f} µs: work done outside the timed call")
    over = over_peak(w, r, peak)
    if over:
        why.append(over)
    vendor = r.speedup.get(Baseline.VENDOR)
    if vendor is not None:
        # relative to TVM's own default, where NumPy's call for the pattern is a slow one
        default_over_vendor = (vendor / r.speedup[Baseline.TVM_DEFAULT]) if r.speedup.get(Baseline.TVM_DEFAULT) else 1.0
        limit = max(VENDOR_SPEEDUP_LIMIT, VENDOR_SPEEDUP_LIMIT * default_over_vendor)
        if vendor > limit:
            why.append(f"{vendor:.1f}x faster than the vendor library (the limit is {limit:.1f}x)")
    return why


def accumulated_terms(w) -> float:
    """About how many products each output element sums: FLOPs / (2 x output elements), 1 for
    elementwise work (the tolerance's absolute part grows as its square root), at most 65,536.
    A model graph's outputs come through many layers of normalised activations, not one long
    sum: 1 (its tolerance held as it was on every graph)."""
    if w.level == "L3":
        return 1.0
    outs = sum(int(np.prod(o.shape, dtype=np.int64)) for o in w.outputs) or 1
    return min(65536.0, max(1.0, w.flops / (2.0 * outs)))


def over_peak(w, r: TaskResult, peak: dict | None) -> str:
    """Why the candidate's FLOP rate is physically impossible here ("" when it is not)."""
    cand_s = r.times["candidate"].median_s
    if not (peak and peak.get("flops_per_s") and w.flops and cand_s > 0):
        return ""
    achieved = w.flops / cand_s
    if achieved <= PEAK_MARGIN * peak["flops_per_s"]:
        return ""
    return (f"{achieved / 1e9:.1f} GFLOP/s is above {PEAK_MARGIN:g}x the device's measured peak of "
            f"{peak['flops_per_s'] / 1e9:.1f} GFLOP/s")


# What makes a result suspect (see ``suspicion``); a suspect result is kept, shown with its
# reason and ranked only once staff clear it.
# The cgroup charges a running task's CPU late (up to a scheduler tick), so a process seen
# right after it answered can show a few ms as "idle" later: honest kernels read up to ~5 % of
# their idle time; a thread that works in the background reads near 100 % of a core.
IDLE_CPU_FLOOR_S = 0.05
IDLE_CPU_SHARE = 0.25
PEAK_MARGIN = 1.5  # achieved FLOP/s over the measured (vendor SGEMM) peak
VENDOR_SPEEDUP_LIMIT = 20.0


ARTIFACT = "candidate.so"  # what the build step writes (TVM's export wants a library's name)
ARTIFACT_SUFFIXES = {b"\x7fELF": ".so", b"{": ".json"}  # a shared library; a JSON document (launch plan)


def artifact_suffix(head: bytes) -> str:
    """The file name suffix saying what a built artifact is, from its first bytes."""
    return next((suffix for magic, suffix in ARTIFACT_SUFFIXES.items() if head.startswith(magic)), ".bin")


@dataclass(frozen=True)
class Artifact:
    """A built kernel as bytes held by this process: read once from the build step's scratch
    without following links, and written into each run step's own fresh scratch."""

    files: tuple[tuple[str, bytes], ...]

    @classmethod
    def take(cls, scratch: Path, name: str, limit: int, registry_calls: Callable[[], bool]) -> "Artifact":
        """``registry_calls``: TVM's own build of the workload calls registry functions by name
        (a CPU sort is ``tvm.contrib.sort``; a CUDA host library launches its kernels so), so
        the candidate's may too."""
        data = _read_plain(scratch / name, limit, "the built kernel")
        files = [("candidate" + artifact_suffix(data[:4]), data)]
        side = scratch / f"{name}.json"  # c-source's description of the entry
        if os.path.lexists(side):
            files.append(("candidate.so.json", _read_plain(side, 1 << 20, "the kernel's description")))
        art = cls(tuple(files))
        art.check_linkage(registry_calls)
        return art

    @classmethod
    def trusted(cls, path: Path) -> "Artifact":
        data = path.read_bytes()
        files = [("candidate" + artifact_suffix(data[:4]), data)]
        side = Path(f"{path}.json")
        if side.exists():
            files.append(("candidate.so.json", side.read_bytes()))
        return cls(tuple(files))

    def check_linkage(self, registry_calls: Callable[[], bool]) -> None:
        """What the library may call (docs/kernel-policy.md): refused with the reason."""
        name, data = self.files[0]
        if data[:4] != b"\x7fELF":
            return  # not a shared library (an OpenCL launch plan): nothing is linked
        kind = "c-source" if len(self.files) > 1 else "tvm"
        with tempfile.TemporaryDirectory(prefix="ekb-artifact-") as d:
            path = Path(d) / name
            _create(path, data)
            why = linkage.check_library(path, kind, registry_calls=registry_calls())
        if why:
            raise ValueError(why)

    def place(self, scratch: Path, stem: str) -> str:
        """Write the artifact into a scratch as ``stem`` with the suffix saying what it is (and a
        c-source library's description beside it); the file's name."""
        name = stem + artifact_suffix(self.files[0][1][:4])
        for i, (_, data) in enumerate(self.files):
            _create(scratch / (name if i == 0 else f"{name}.json"), data)
        return name


def _create(path: Path, data: bytes) -> None:
    """Write a new file; never through a link or over something already there."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def _read_plain(path: Path, limit: int, what: str) -> bytes:
    """A regular file the build step left, read without following links or blocking on a FIFO."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise ValueError(f"the build step left no file for {what}") from None
    except OSError as e:
        raise ValueError(f"{what} is not a plain file ({e.strerror.lower()})") from None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"{what} is not a regular file")
        if st.st_size > limit:
            raise ValueError(f"{what} is {st.st_size >> 20} MiB; the limit is {limit >> 20} MiB")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"{what} is over the {limit >> 20} MiB limit")
    return data


@contextlib.contextmanager
def _temporary_dir():
    scratch = Path(tempfile.mkdtemp(prefix="ekb-task-"))
    try:
        yield scratch
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _choose_sandbox(choice):
    if choice == "auto":
        why = probe()
        if why is None:
            return Sandbox()
        if unsafe_local_allowed():
            return None
        raise SandboxUnavailable(f"refusing to evaluate untrusted code: {why}. Install it (make "
                                 "install does), or set EKB_UNSAFE_LOCAL=1 for bundles you trust.")
    if choice is None and not unsafe_local_allowed():
        raise SandboxUnavailable("unsandboxed evaluation needs EKB_UNSAFE_LOCAL=1 (trusted bundles only)")
    return choice


def _usage(child: ChildProcess) -> dict:
    u = child.usage
    if u is None:
        return {}
    return {"usage": {"cpu_s": u.cpu_s, "peak_memory_bytes": u.peak_memory_bytes,
                      "oom_killed": u.oom_killed, "pids_limited": u.pids_limited, "tasks": u.tasks}}


def _limit_reason(child: ChildProcess, alive: bool = False) -> str | None:
    """The sandbox limit that stopped a step, in words, or None (``alive``: the step still runs,
    so its cgroup's counters are read now). The limits are the step's own sandbox's (a run step's
    may be narrower than a build step's: ``DeviceRunner.run_sandbox``)."""
    sandbox = child.sandbox
    sig = child.killed_by
    u, lim = child.usage, getattr(sandbox, "limits", None)
    if alive and child.group is not None:
        u = child.group.usage()
    if u is not None and u.oom_killed:
        return f"memory limit of {lim.memory_bytes >> 20} MiB exceeded (killed by the OOM killer)"
    if sig == signal.SIGSYS:
        return ("killed by the sandbox: a forbidden system call (network sockets, process tracing, "
                "mounts, namespaces, BPF, io_uring, kernel modules, or a 32-bit/x32 system call"
                + (", or changing the CPU affinity of a step pinned to its CPUs"
                   if getattr(sandbox, "cpus", ()) else "") + ")")
    # the process limits first: a fork bomb's CPU time is its consequence (with no cpu controller
    # to hold it to a quota, hundreds of processes spend the CPU limit before the wall clock's)
    if u is not None and u.pids_limited:
        return f"process limit of {lim.pids if lim else '?'} processes and threads reached (fork bomb?)"
    nproc = sandbox.nproc_fallback() if sandbox is not None else None
    if nproc and u is not None and u.tasks >= lim.pids:
        # no pids controller counts them: RLIMIT_NPROC held the step, which was found running more
        # processes and threads than one step may have (counted here, from its cgroup)
        return (f"process limit reached: {u.tasks} processes and threads running, more than the {lim.pids} "
                f"a step may have (RLIMIT_NPROC of {nproc} for the sandbox's user; fork bomb?)")
    if sig == signal.SIGXCPU or (lim is not None and u is not None and u.cpu_s > lim.cpu_seconds):
        return f"CPU time limit of {lim.cpu_seconds if lim else '?'} s exceeded"
    if sig == signal.SIGXFSZ:
        return f"file size limit of {lim.file_bytes >> 20 if lim else '?'} MiB exceeded"
    return None


def machine() -> dict:
    return {"platform": platform.platform(), "python": platform.python_version(),
            "processor": platform.processor() or platform.machine()}


def evaluate_bundle(bundle, backend: str = BackendKind.CPU_LLVM, globs: list[str] | None = None,
                    include_hidden: bool = False, protocol: Protocol | None = None,
                    progress: Callable[[str, TaskResult | None], None] | None = None,
                    seeds: Iterable[int] | None = None, sandbox="auto") -> dict:
    """Evaluate a loaded bundle on one backend over the selected tasks; the run report."""
    import tvm  # heavy: TVM is imported on use, never with this module

    pipe = Pipeline(backend, protocol, seeds, sandbox=sandbox)
    tasks = suite.select(globs, include_hidden)
    started = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    results = []
    used: set[int] = set()  # entries some selected task resolved to (workload-level, else pattern-level)

    def entries():
        for w in tasks:
            e = bundle.entry_for(w, pipe.info.name)
            if e is not None:
                used.add(e.index)
            yield w, Candidate.of(e, w)

    with pipe.session():  # one bundle: its builds share a build process, each while the task before is checked
        if progress and tasks:
            progress(tasks[0].id, None)
        for i, res in enumerate(pipe.evaluate_all(entries())):
            results.append(res)
            if progress:
                progress(tasks[i].id, res)
                if i + 1 < len(tasks):
                    progress(tasks[i + 1].id, None)
    return {
        "backend": pipe.info.name,
        "backend_info": pipe.info.to_json(),
        "bundle": {"name": bundle.name, "sha256": bundle.sha256},
        "summary": scoring.breakdown(results),
        "summary_vendor": scoring.summarize(results, baseline=Baseline.VENDOR),
        # over the tasks that have a usable tvm-tuned record (None when none has)
        "summary_tvm_tuned": (scoring.summarize(tuned, baseline=Baseline.TVM_TUNED)
                              if (tuned := [r for w, r in zip(tasks, results) if pipe.has_tuned(w)]) else None),
        "tasks": [t.to_json() for t in results],
        "ignored_entries": [e.label for e in bundle.entries
                            if e.backend == pipe.info.name and e.index not in used],
        "protocol": pipe.protocol.to_json(),
        "peaks": pipe.peak,
        "machine": machine(),
        "sandbox": pipe.run_sandbox.limits.to_json() if pipe.run_sandbox else None,
        "tvm": tvm.__version__,
        "started": started,
        "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
