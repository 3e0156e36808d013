"""The evaluation pipeline: load → lower → build → check → time → record, per task.

Each stage is its own module (``formats``, ``ir``, ``backends``, ``harness.check``,
``harness.timing``, ``records``); this file only wires them and turns every way a stage can
fail into a typed :class:`~evaluator.records.TaskResult`. Stages that touch submitted code run in
a child process with a wall-clock limit (``harness.process``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import platform
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from evaluator import records, scoring, suite
from evaluator.backends import Backend, BackendUnavailable, get_backend
from evaluator.backends.peaks import cache_dir, peaks, roofline_fraction
from evaluator.baselines import tvm_tuned
from evaluator.harness.check import check_set
from evaluator.harness.process import ChildProcess, StepCrashed, StepTimeout
from evaluator.harness.protocol import Protocol
from evaluator.records import TaskResult, Timing
from evaluator.suite.inputs import generate


@dataclass(frozen=True)
class Candidate:
    """What the load stage hands on: one kernel for one workload, in one format."""

    format: str
    source: str
    trace: list | None = None
    launch: dict | None = None  # raw-source formats only


class Pipeline:
    """Evaluates tasks on one backend.

    ``sandbox``: a :class:`~evaluator.sandbox.Sandbox`, ``"auto"`` (the sandbox when this machine
    has one; otherwise refuse, unless unsafe local mode is on) or ``None`` (unsandboxed: only for
    trusted bundles, and only when ``EKB_UNSAFE_LOCAL=1``).
    """

    def __init__(self, backend: Backend | str, protocol: Protocol | None = None,
                 seeds: Iterable[int] | None = None, sandbox="auto",
                 tuned_records: Path | None = tvm_tuned.RECORDS_DIR):
        self.backend = get_backend(backend) if isinstance(backend, str) else backend
        # where tvm-tuned records are read from (None: no tvm-tuned baseline)
        self.tuned_records = tuned_records
        self.protocol = protocol or Protocol()
        if seeds is not None:  # secret seeds for verified runs replace the public ones
            self.protocol = Protocol(**{**self.protocol.__dict__, "seeds": tuple(seeds)})
        self.sandbox = _choose_sandbox(sandbox)
        if self.sandbox is not None and self.backend.sandbox_gap:
            from evaluator.sandbox import SandboxUnavailable, unsafe_local_allowed

            if not unsafe_local_allowed():
                raise SandboxUnavailable(f"refusing to evaluate untrusted code on {self.backend.name}: "
                                         f"{self.backend.sandbox_gap}. Set EKB_UNSAFE_LOCAL=1 for "
                                         "bundles you trust.")
            self.sandbox = None  # trusted bundles only, as the setting says
        self.info = self.backend.info()
        if not self.info.available:
            raise BackendUnavailable(f"backend {self.info.name!r} is unavailable here: {self.info.reason}")
        self.peak = peaks(self.info.name, self.info.device, measure=self.backend.measure_peaks)

    # --- baselines ---------------------------------------------------------------------------
    def baseline_artifact(self, w: suite.WorkloadDef) -> Path:
        """The ``tvm-default`` build of a workload (the backend's default schedule), cached by
        what determines it."""
        import tvm

        canonical = w.canonical_module()
        doc = self.backend.default_signature(canonical, w)
        key = hashlib.sha256(json.dumps([w.id, doc, self.backend.target(), tvm.__version__],
                                        sort_keys=True).encode()).hexdigest()[:24]
        path = cache_dir() / "baselines" / f"{key}.so"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            mod = self.backend.default_module(canonical, w)
            tmp = path.with_suffix(f".{time.monotonic_ns()}.tmp.so")
            self.backend.build(mod, str(tmp))
            tmp.rename(path)  # atomic: concurrent workers never load a half-written file
        return path

    def tuned_artifact(self, w: suite.WorkloadDef) -> tuple[Path | None, str]:
        """The ``tvm-tuned`` build of a workload from its stored record, cached by what determines
        it, and a note on a record that exists but is not used (stale, unreadable): ``(None, "")``
        without a record. Raises when a usable record does not build."""
        return self._tuned_build(tvm_tuned.lookup(w, self.info.name, self.tuned_records), w)

    def _tuned_build(self, found: tvm_tuned.Lookup, w: suite.WorkloadDef) -> tuple[Path | None, str]:
        import tvm

        rec = found.record
        if rec is None:
            return None, found.note
        key = hashlib.sha256(json.dumps([w.id, rec.canonical_hash, rec.tvmscript, self.backend.target(),
                                         tvm.__version__], sort_keys=True).encode()).hexdigest()[:24]
        path = cache_dir() / "tuned" / f"{key}.so"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{time.monotonic_ns()}.tmp.so")
            self.backend.build(rec.module(), str(tmp))
            tmp.rename(path)  # atomic, as for tvm-default
        return path, found.note

    def has_tuned(self, w: suite.WorkloadDef) -> bool:
        """Whether a usable (not stale) tvm-tuned record exists for the workload here."""
        if self.tuned_records is None or not tvm_tuned.record_path(w.id, self.info.name, self.tuned_records).is_file():
            return False
        return tvm_tuned.lookup(w, self.info.name, self.tuned_records).record is not None

    def evaluate_module(self, w: suite.WorkloadDef, mod) -> TaskResult:
        """Check and time a trusted, already scheduled module (a fresh ``tvm-tuned`` result) as
        the candidate, through the same run step, checks and timing as any submission, beside
        ``tvm-default``. Built here, not in a child: it is not submitted code. Neither a stored
        tvm-tuned record nor the vendor call is timed alongside (some NumPy calls take seconds
        per timed sample, and only tuned against default is asked here)."""
        base = TaskResult(w.id, self.info.name, records.MISSING, level=w.level, family=w.family,
                          domains=list(w.domains), hidden=w.hidden)
        with self._scratch() as scratch:
            artifact = scratch / "candidate.so"
            t0 = time.perf_counter()
            try:
                self.backend.build(mod, str(artifact))
            except Exception as e:  # noqa: BLE001
                from evaluator.ir.layered_trace import _tvm_message

                return self._fail(base, records.COMPILE_ERROR, f"build error: {_tvm_message(e)}", step="build")
            finally:
                base.steps_s["build"] = time.perf_counter() - t0
            return self._check_and_time(w, base, artifact, scratch, time_tuned=False, time_vendor=False)

    def _scratch(self):
        if self.sandbox is not None:
            return self.sandbox.scratch()
        return _temporary_dir()

    # --- one task ----------------------------------------------------------------------------
    def evaluate(self, w: suite.WorkloadDef, cand: Candidate | None) -> TaskResult:
        base = TaskResult(w.id, self.info.name, records.MISSING, level=w.level, family=w.family,
                          domains=list(w.domains), hidden=w.hidden,
                          trace=cand.trace if cand else None)
        if cand is None:
            base.reason = "no entry for this task in the bundle"
            return base
        with self._scratch() as scratch:
            return self._evaluate(w, cand, base, scratch)

    def _fail(self, r: TaskResult, status: str, reason: str, **detail) -> TaskResult:
        r.status, r.reason = status, reason
        r.detail.update(detail)
        return r

    def _child(self, step: str, request: dict, scratch: Path, env: dict | None = None) -> ChildProcess:
        return ChildProcess(step, request, scratch, env={**self.backend.child_env(), **(env or {})},
                            sandbox=self.sandbox)

    def _stopped(self, r: TaskResult, child: ChildProcess, status: str, reason: str, step: str,
                 output: str = "") -> TaskResult:
        """Record a step that ended abnormally, naming the limit that stopped it, if any."""
        child.close()
        why = _limit_reason(child, self.sandbox)
        if why:
            reason = why
            if why.startswith("CPU time"):
                status = records.TIMEOUT
            else:
                status = records.COMPILE_ERROR if step == "build" else records.RUNTIME_ERROR
        return self._fail(r, status, reason, step=step, output=output, **_usage(child))

    def _evaluate(self, w, cand: Candidate, r: TaskResult, scratch: Path) -> TaskResult:
        import tvm

        lim = self.protocol.limits
        # build (lower + compile) in a child
        (scratch / "canonical.json").write_text(tvm.ir.save_json(w.canonical_module()))
        (scratch / "candidate.src").write_text(cand.source, encoding="utf-8")
        artifact = scratch / "candidate.so"
        t0 = time.perf_counter()
        child = self._child("build", {
            "backend": self.info.name, "format": cand.format, "source": str(scratch / "candidate.src"),
            "canonical": str(scratch / "canonical.json"), "artifact": str(artifact),
            "launch": cand.launch, "tensors": w.signature(),
        }, scratch)
        try:
            msg = child.read(lim.build_s)
        except StepTimeout:
            return self._stopped(r, child, records.TIMEOUT, f"build exceeded the {lim.build_s:g} s limit", "build")
        except StepCrashed as e:
            return self._stopped(r, child, records.COMPILE_ERROR, f"the compiler process {e}", "build", e.output)
        finally:
            child.close()
            r.steps_s["build"] = time.perf_counter() - t0
        r.detail["build_usage"] = _usage(child).get("usage")
        if not msg.get("ok"):
            why = _limit_reason(child, self.sandbox)  # e.g. a fork bomb ends in an exception
            if why:
                return self._fail(r, records.COMPILE_ERROR, why, step="build", **_usage(child))
            stage = msg.get("stage", "build")
            word = {"layered-trace": "schedule error", "tvmscript": "TVMScript error"}.get(
                cand.format, "lowering error") if stage == "lower" else "build error"
            return self._fail(r, records.COMPILE_ERROR, f"{word}: {msg.get('error', '')}", step=stage)
        r.detail["ir_chars"] = len(msg.get("ir", ""))
        if not artifact.is_file() or artifact.is_symlink():
            return self._fail(r, records.COMPILE_ERROR, "the build produced no kernel library", step="build")
        if artifact.stat().st_size > lim.max_artifact_bytes:
            return self._fail(r, records.COMPILE_ERROR,
                              f"the built kernel is {artifact.stat().st_size >> 20} MiB; "
                              f"the limit is {lim.max_artifact_bytes >> 20} MiB")
        return self._check_and_time(w, r, artifact, scratch)

    def _baseline_copies(self, w, r: TaskResult, scratch: Path, time_tuned: bool) -> tuple[Path | None, Path | None]:
        """The baselines' libraries, copied into the task's scratch: the run step loads them
        before the candidate ever runs, from its own copies. A baseline that does not build is
        recorded in ``r.detail``, never as the candidate's failure."""
        from evaluator.ir.layered_trace import _tvm_message

        # TVM's own default can fail to build (dlight's GEMV asks a GPU for more shared memory
        # than a block has): the task is still checked and timed, with no tvm-default speedup.
        baseline: Path | None = scratch / "baseline.so"
        try:
            shutil.copyfile(self.baseline_artifact(w), baseline)
        except Exception as e:  # noqa: BLE001 - the baseline's failure is recorded, not the candidate's
            r.detail["baseline_error"] = f"tvm-default does not build here: {_tvm_message(e)}"[:2000]
            baseline = None
        tuned: Path | None = None
        if time_tuned and self.tuned_records is not None:
            try:
                built, note = self.tuned_artifact(w)
                if note:
                    r.detail["tuned_note"] = note
                if built is not None:
                    tuned = scratch / "tuned.so"
                    shutil.copyfile(built, tuned)
            except Exception as e:  # noqa: BLE001 - a broken record is recorded, not the candidate's
                r.detail["tuned_error"] = f"tvm-tuned does not build here: {_tvm_message(e)}"[:2000]
                tuned = None
        return baseline, tuned

    def _check_and_time(self, w, r: TaskResult, artifact: Path, scratch: Path,
                        time_tuned: bool = True, time_vendor: bool = True) -> TaskResult:
        lim = self.protocol.limits
        graph = w.level == "L3"
        baseline, tuned = self._baseline_copies(w, r, scratch, time_tuned)
        # check, then time, in one run child
        input_sets = []
        for k, seed in enumerate(self.protocol.seeds):
            arrays = generate(w, seed)
            np.savez(scratch / f"inputs_{k}.npz", *arrays)
            input_sets.append(arrays)
        t0 = time.perf_counter()
        child = self._child("run", {
            "backend": self.info.name, "graph": graph, "candidate": str(artifact),
            "baseline": str(baseline) if baseline else None,
            "tuned": str(tuned) if tuned else None,
            "vendor": self.backend.vendor_spec(w) if time_vendor else None,
            "inputs": [str(scratch / f"inputs_{k}.npz") for k in range(len(input_sets))],
            "outputs": [{"shape": list(o.shape), "dtype": o.dtype} for o in w.outputs],
            "outdir": str(scratch), "runs_per_seed": self.protocol.runs_per_seed,
            "protocol": self.protocol.to_json(),
        }, scratch, env={"TVM_THREAD_POOL_SPIN_COUNT": str(self.protocol.tvm_spin_count),
                         **self.backend.prepare_run(scratch, lim.check_s + lim.time_s)})
        try:
            digests: dict[str, str] = {}
            deadline = time.monotonic() + lim.check_s
            while True:
                try:
                    msg = child.read(max(0.0, deadline - time.monotonic()))
                except StepTimeout:
                    return self._stopped(r, child, records.TIMEOUT,
                                         f"correctness runs exceeded the {lim.check_s:g} s limit", "check")
                except StepCrashed as e:
                    return self._stopped(r, child, records.RUNTIME_ERROR, f"the kernel process {e}", "check",
                                         e.output)
                if msg.get("phase") != "saved":
                    break
                digests[msg["file"]] = msg["sha256"]
            if msg.get("phase") == "error":
                child.close()
                why = _limit_reason(child, self.sandbox)
                if why:
                    return self._fail(r, records.RUNTIME_ERROR, why, step="check", **_usage(child))
                return self._fail(r, records.RUNTIME_ERROR,
                                  f"{msg.get('stage', 'run')} failed: {msg.get('error', '')}", step="check")
            for k, arrays in enumerate(input_sets):
                runs = []
                for i in range(self.protocol.runs_per_seed):
                    path = scratch / f"check_{k}_{i}.npz"
                    if digests.get(path.name) != _digest(path):
                        return self._fail(r, records.WRONG_RESULT, "the kernel rewrote its recorded "
                                          f"outputs ({path.name}) after they were taken", step="check")
                    runs.append(dict(np.load(path)))
                outcome = check_set(k + 1, arrays, [t.name for t in w.inputs], w.reference(arrays),
                                    [o.name for o in w.outputs], runs)
                if not outcome.ok:
                    child.send("stop")
                    return self._fail(r, records.WRONG_RESULT, outcome.reason, **outcome.detail)
            r.steps_s["check"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            child.send("time")
            try:
                msg = child.read(lim.time_s)
            except StepTimeout:
                return self._stopped(r, child, records.TIMEOUT, f"timing exceeded the {lim.time_s:g} s limit", "time")
            except StepCrashed as e:
                return self._stopped(r, child, records.RUNTIME_ERROR, f"the kernel process {e} while timing",
                                     "time", e.output)
            r.steps_s["time"] = time.perf_counter() - t0
            if msg.get("phase") != "timed":
                return self._fail(r, records.RUNTIME_ERROR, f"timing failed: {msg.get('error', '')}", step="time")
            # the harness's own clock around the whole timed step bounds what may be reported
            msg["host_wall_s"] = r.steps_s["time"]
            if msg.get("inputs_modified"):
                return self._fail(r, records.WRONG_RESULT, "the kernel modified its inputs while being timed "
                                  f"({w.inputs[msg['inputs_modified'][0]].name})", step="time")
            after = scratch / msg["after_timing"]["file"]
            if graph:
                pass  # the VM allocates fresh outputs per call: nothing to poison or re-check
            elif _digest(after) != msg["after_timing"]["sha256"]:
                return self._fail(r, records.WRONG_RESULT, "the kernel rewrote its recorded outputs "
                                  "after timing", step="time")
            else:
                ran = dict(np.load(after))
                outcome = check_set(1, input_sets[0], [t.name for t in w.inputs], w.reference(input_sets[0]),
                                    [o.name for o in w.outputs], [{**ran, **{f"in{i}": a for i, a in
                                                                            enumerate(input_sets[0])}}])
                if not outcome.ok:
                    return self._fail(r, records.WRONG_RESULT, "after timing: " + outcome.reason,
                                      step="time", **outcome.detail)
        finally:
            child.close()
        r.detail["run_usage"] = _usage(child).get("usage")
        return self._record(w, r, msg)

    def _record(self, w, r: TaskResult, msg: dict) -> TaskResult:
        r.status = records.CORRECT
        r.times = {k: Timing(**v) for k, v in msg["times"].items()}
        cand = r.times["candidate"].median_s
        single = msg.get("single_call_s", {})
        r.detail["single_call_s"] = single
        # A kernel that is much faster when called back to back on its own outputs than when
        # each call starts from poisoned buffers (relative to the baseline's own ratio) is
        # skipping work: its speedup is taken from the single calls and flagged.
        skipping = False
        if "tvm-default" in single and single.get("candidate") and cand > 0:
            # one call's fixed extra cost (host call overhead, cold caches), seen on the baseline
            extra = max(single["tvm-default"] - r.times["tvm-default"].median_s, 0.0)
            skipping = single["candidate"] > 4 * cand + 2 * extra + 20e-6
        r.detail["skips_work_when_repeated"] = skipping
        ratios = msg.get("ratios", {})
        r.detail["speedup_spread"] = {k: [v["p25"], v["p75"]] for k, v in ratios.items()}
        for name in ("tvm-default", "tvm-tuned", "vendor"):
            if name in ratios:
                r.speedup[name] = ratios[name]["median"]
            elif name in r.times and cand > 0:
                r.speedup[name] = r.times[name].median_s / cand
        if skipping:
            for name in ("tvm-default", "tvm-tuned"):
                if name in single:
                    r.speedup[name] = single[name] / single["candidate"]
            r.speedup.pop("vendor", None)
        r.roofline_fraction = roofline_fraction(w.flops, w.bytes, cand, self.peak)
        # The harness's own wall clock over the timed loop bounds what the runtime timer may
        # report; a sum of samples beyond it means the timing cannot be trusted.
        r.detail["timing_wall_s"] = msg["wall_s"]
        r.detail["timing_host_wall_s"] = msg["host_wall_s"]
        r.detail["timing_measured_s"] = msg["measured_s"]
        # What the timed calls add up to can never exceed the wall time around them, measured
        # both inside the step and by this process.
        r.detail["timing_suspicious"] = (msg["measured_s"] > min(msg["wall_s"], msg["host_wall_s"]) * 1.05
                                         or skipping)
        if skipping:
            r.reason = ("timing is suspicious: the kernel runs far faster when called repeatedly on "
                        "its own outputs; the speedup is from single calls on fresh buffers")
        elif r.detail["timing_suspicious"]:
            r.reason = "timing is suspicious: the reported kernel time exceeds the wall-clock time"
        return r


@contextlib.contextmanager
def _temporary_dir():
    scratch = Path(tempfile.mkdtemp(prefix="ekb-task-"))
    try:
        yield scratch
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _choose_sandbox(choice):
    from evaluator.sandbox import Sandbox, SandboxUnavailable, probe, unsafe_local_allowed

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


def _digest(path: Path) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.file_digest(f, "sha256").hexdigest()
    except OSError:
        return None


def _usage(child: ChildProcess) -> dict:
    u = child.usage
    if u is None:
        return {}
    return {"usage": {"cpu_s": u.cpu_s, "peak_memory_bytes": u.peak_memory_bytes,
                      "oom_killed": u.oom_killed, "pids_limited": u.pids_limited}}


def _limit_reason(child: ChildProcess, sandbox) -> str | None:
    """The sandbox limit that stopped a step, in words, or None."""
    import signal

    sig = child.killed_by
    u, lim = child.usage, getattr(sandbox, "limits", None)
    if u is not None and u.oom_killed:
        return f"memory limit of {lim.memory_bytes >> 20} MiB exceeded (killed by the OOM killer)"
    if sig == signal.SIGSYS:
        return ("killed by the sandbox: a forbidden system call (network sockets, process tracing, "
                "mounts, namespaces, BPF, io_uring, kernel modules)")
    if sig == signal.SIGXCPU or (lim is not None and u is not None and u.cpu_s > lim.cpu_seconds):
        return f"CPU time limit of {lim.cpu_seconds if lim else '?'} s exceeded"
    if sig == signal.SIGXFSZ:
        return f"file size limit of {lim.file_bytes >> 20 if lim else '?'} MiB exceeded"
    if u is not None and u.pids_limited:
        return f"process limit of {lim.pids} reached (fork bomb?)"
    return None


def machine() -> dict:
    return {"platform": platform.platform(), "python": platform.python_version(),
            "processor": platform.processor() or platform.machine()}


def evaluate_bundle(bundle, backend: str = "cpu-llvm", globs: list[str] | None = None,
                    include_hidden: bool = False, protocol: Protocol | None = None,
                    progress: Callable[[str, TaskResult | None], None] | None = None,
                    seeds: Iterable[int] | None = None, sandbox="auto") -> dict:
    """Evaluate a loaded bundle on one backend over the selected tasks; the run report."""
    import tvm

    pipe = Pipeline(backend, protocol, seeds, sandbox=sandbox)
    tasks = suite.select(globs, include_hidden)
    entries = {e.workload: e for e in bundle.entries if e.backend == pipe.info.name}
    started = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    results = []
    for w in tasks:
        if progress:
            progress(w.id, None)
        e = entries.get(w.id)
        cand = Candidate(e.format, e.source, e.trace, e.launch) if e else None
        res = pipe.evaluate(w, cand)
        results.append(res)
        if progress:
            progress(w.id, res)
    selected = {w.id for w in tasks}
    return {
        "backend": pipe.info.name,
        "backend_info": pipe.info.to_json(),
        "bundle": {"name": bundle.name, "sha256": bundle.sha256},
        "summary": scoring.breakdown(results),
        "summary_vendor": scoring.summarize(results, baseline="vendor"),
        # over the tasks that have a usable tvm-tuned record (None when none has)
        "summary_tvm_tuned": (scoring.summarize(tuned, baseline="tvm-tuned")
                              if (tuned := [r for w, r in zip(tasks, results) if pipe.has_tuned(w)]) else None),
        "tasks": [t.to_json() for t in results],
        "ignored_entries": [e.label for e in bundle.entries
                            if e.backend == pipe.info.name and e.workload not in selected],
        "protocol": pipe.protocol.to_json(),
        "peaks": pipe.peak,
        "machine": machine(),
        "sandbox": pipe.sandbox.limits.to_json() if pipe.sandbox else None,
        "tvm": tvm.__version__,
        "started": started,
        "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
