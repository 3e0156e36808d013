"""``tvm-tuned``: what TVM's own auto-tuner (MetaSchedule) makes of a workload under a fixed trial
budget, tuned once and stored in the repository as data.

Tuning takes minutes and its outcome depends on timing noise, so re-tuning at evaluation would
make the baseline slow and different on every run. A record holds the tuned module as TVMScript;
evaluation only parses and builds it (a fraction of a second) and times it beside the candidate
and ``tvm-default``. A record names the canonical module it was tuned from by a structural hash:
once a workload's definition changes, its record is stale and is ignored with a note, never used.

Records live in ``tuned/<backend>/<family>/<name@tag>.json`` beside this file, one per workload,
the TVMScript one line per list item so diffs stay readable. ``python -m evaluator tune`` writes
them (``tune_run.py``); it checks every tuned module against the workload's reference through
the evaluation harness before writing it, so a wrong record never lands.

An L3 model graph is tuned through MetaSchedule's Relax integration: every fused PrimFunc is a
task with the same per-task trial budget as a single operator. A function no trial could build
or run keeps the ``tvm-default`` rule set (named in the record's ``default_functions``).
"""

from __future__ import annotations

import functools
import json
import logging
import os
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from evaluator.ir.layered_trace import _is_graph, _tvm_message
from evaluator.suite.inputs import generate
from evaluator.vocabulary import BackendKind

RECORDS_DIR = Path(__file__).resolve().parent / "tuned"
RECORD_VERSION = 1
DEFAULT_TRIALS = 32
MAX_TRIALS = 512  # per task
DEFAULT_TIME_LIMIT_S = 180.0
MAX_TIME_LIMIT_S = 1800.0
TRIALS_PER_ITER = 16  # candidates measured per round; the cost model retrains between rounds
BUILD_TIMEOUT_S = 60.0  # per candidate build in MetaSchedule's builder
RUN_TIMEOUT_S = 30.0  # per candidate measurement in MetaSchedule's runner
MAX_SCRIPT_CHARS = 2_000_000


class TuneError(RuntimeError):
    """A workload could not be tuned; the message says why."""


@dataclass
class TunedRecord:
    workload: str
    backend: str
    target: dict
    tvm: str
    trials: int  # the budget per task (a model graph has one task per distinct fused PrimFunc)
    seed: int
    canonical_hash: str  # structural hash of the canonical module the record was tuned from
    tvmscript: str  # the tuned module: data, parsed and built at evaluation, never re-tuned
    tuning_s: float = 0.0
    space: str = "default"  # MetaSchedule's design space (see SPACES)
    tasks: int = 1
    measured: int = 0  # candidates MetaSchedule built and timed, all tasks together
    build_errors: int = 0
    run_errors: int = 0
    time_limited: bool = False  # the time limit stopped tuning before the budget was spent
    tuned_functions: list[str] = field(default_factory=list)
    default_functions: list[str] = field(default_factory=list)  # kept the tvm-default rule set
    checked: dict = field(default_factory=dict)  # the harness check the tune command ran
    host: str = ""  # the CPU the candidates were measured on (the target says what they were built for)
    version: int = RECORD_VERSION

    def to_json(self) -> dict:
        d = asdict(self)
        d["tvmscript"] = self.tvmscript.splitlines()  # one line per item: readable diffs
        return d

    @classmethod
    def from_json(cls, d: dict) -> "TunedRecord":
        if not isinstance(d, dict):
            raise ValueError("a tvm-tuned record must be a JSON object")
        missing = [k for k in ("workload", "backend", "target", "tvm", "trials", "seed",
                               "canonical_hash", "tvmscript") if k not in d]
        if missing:
            raise ValueError(f"the tvm-tuned record lacks {missing}")
        if d.get("version", RECORD_VERSION) != RECORD_VERSION:
            raise ValueError(f"tvm-tuned record version {d.get('version')!r}; this evaluator reads "
                             f"version {RECORD_VERSION}")
        lines = d["tvmscript"]
        if not (isinstance(lines, list) and all(isinstance(x, str) for x in lines)):
            raise ValueError("the record's tvmscript must be a list of lines")
        text = "\n".join(lines) + "\n"
        if len(text) > MAX_SCRIPT_CHARS:
            raise ValueError(f"the record's TVMScript has {len(text)} characters; the limit is "
                             f"{MAX_SCRIPT_CHARS}")
        fields = {k: v for k, v in d.items() if k in cls.__dataclass_fields__}
        return cls(**{**fields, "tvmscript": text})

    def module(self):
        """The tuned IRModule, parsed from the stored TVMScript (records are trusted repository
        data; a submission's TVMScript is only ever parsed in a sandboxed child)."""
        import tvm  # heavy: TVM is imported on use, never with this module

        return tvm.script.from_source(self.tvmscript)


@dataclass(frozen=True)
class Lookup:
    """The record to use for a workload on a backend (None when there is none or it is not
    usable) and, for one that exists but is not used, why."""

    record: TunedRecord | None
    note: str = ""


def canonical_hash(mod) -> str:
    """Structural hash of a canonical module (stable across processes for one TVM version)."""
    import tvm_ffi  # heavy: TVM is imported on use, never with this module

    return f"{tvm_ffi.structural_hash(mod) & (2**64 - 1):016x}"


def record_path(workload_id: str, backend: str, root: Path = RECORDS_DIR) -> Path:
    family, _, rest = workload_id.partition("/")
    if not family or not rest or "/" in rest or ".." in workload_id:
        raise ValueError(f"not a workload id: {workload_id!r}")
    return Path(root) / backend / family / f"{rest}.json"


def write(record: TunedRecord, root: Path = RECORDS_DIR) -> Path:
    path = record_path(record.workload, record.backend, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(record.to_json(), indent=1) + "\n")
    tmp.replace(path)
    return path


def read(path: Path) -> TunedRecord:
    try:
        return TunedRecord.from_json(json.loads(Path(path).read_text()))
    except json.JSONDecodeError as e:
        raise ValueError(f"{Path(path).name} is not JSON: {e}") from None


def lookup(w, backend: str, root: Path | None = RECORDS_DIR, canonical=None) -> Lookup:
    """The stored record for workload ``w`` on ``backend``. A record tuned from a different
    canonical module than the workload's current one is stale: it is not used, and the note says
    so (``canonical``: the workload's canonical module, when the caller has it already)."""
    if root is None:
        return Lookup(None)
    path = record_path(w.id, backend, root)
    if not path.is_file():
        return Lookup(None)
    try:
        rec = read(path)
    except (OSError, ValueError, TypeError) as e:
        return Lookup(None, f"tvm-tuned record ignored: {e}")
    if rec.workload != w.id or rec.backend != backend:
        return Lookup(None, f"tvm-tuned record ignored: it is for {rec.workload} on {rec.backend}")
    now = canonical_hash(canonical if canonical is not None else w.canonical_module())
    if rec.canonical_hash != now:
        return Lookup(None, f"stale tvm-tuned record ignored: tuned from canonical module "
                            f"{rec.canonical_hash}, the workload's is now {now}; re-tune with "
                            f"`python -m evaluator tune --backend {backend} --tasks '{w.id}'`")
    return Lookup(rec)


def load(w, backend: str, root: Path | None = RECORDS_DIR) -> TunedRecord | None:
    """The usable record for (workload, backend), or None."""
    return lookup(w, backend, root).record


def stored(backend: str | None = None, root: Path = RECORDS_DIR) -> list[Path]:
    """Every record file under ``root`` (one backend's, or all)."""
    base = Path(root) / backend if backend else Path(root)
    return sorted(base.rglob("*.json")) if base.is_dir() else []


# --- tuning ------------------------------------------------------------------------------------
def cpu_build(mod, target, _params):
    """MetaSchedule's default candidate build without its first step, ``import
    tvm.s_tir.tensor_intrin``: that import parses every GPU tensor intrinsic (25-30 s here) and
    the builder starts fresh worker processes for every round, so each round's builds hit the
    builder's timeout. CPU candidates use no tensor intrinsics at build time."""
    # heavy: TVM is imported on use, never with this module
    from tvm.driver import build as tvm_build
    from tvm.s_tir.transform import RemoveWeightLayoutRewriteBlock

    mod = RemoveWeightLayoutRewriteBlock(skip_tensor_rewrite=True)(mod)
    return tvm_build(mod, target=target)


class TimeLimitReached(Exception):
    """Raised by the measure callback to end tuning at the time limit (see ``_measure_callback``)."""


def cpu_alloc_arguments(inputs, device, args_info, alloc_repeat: int):
    """MetaSchedule's runner arguments: the workload's own generated inputs where given (``inputs``,
    the kernel's leading parameters), else random floats and zero integers. MetaSchedule's
    default fills index tensors with random integers, so every gather or scatter (embedding
    lookups, index-select) reads out of bounds and the measuring process crashes."""
    import tvm  # heavy: TVM is imported on use, never with this module

    rng = np.random.default_rng(0)
    repeated = []
    for _ in range(alloc_repeat):
        args = []
        for i, (kind, dtype, shape) in enumerate(args_info):
            if kind != "TENSOR":
                # every suite kernel takes tensors only; a scalar parameter has no input to draw from
                raise ValueError(f"kernel parameter {i} is a {kind}, not a tensor: tuning takes "
                                 "kernels whose parameters are all tensors")
            shape = tuple(int(d) for d in shape)
            given = inputs[i] if inputs is not None and i < len(inputs) else None
            if given is not None and given.shape == shape and str(given.dtype) == dtype:
                data = given
            elif np.issubdtype(np.dtype(dtype), np.floating):
                data = rng.standard_normal(shape).astype(dtype)
            else:
                data = np.zeros(shape, dtype)  # index 0 is in bounds for every gather
            args.append(tvm.runtime.tensor(data, device))
        repeated.append(args)
    return repeated


def _measure_callback(deadline: float, budget: int):
    """A MetaSchedule measure callback that counts what was measured and keeps the first errors,
    and ends tuning once the wall-clock deadline has passed while some task still has budget
    left: it raises :class:`TimeLimitReached`, which unwinds the task scheduler (ending tasks
    from a callback trips the scheduler's own check when it ends them again). It runs after
    ``AddToDatabase``, so everything measured so far is in the database; tuning thus stops
    within one round — bounded by the builder's and runner's timeouts — of the limit."""
    # heavy: TVM is imported on use, never with this module
    from tvm.ir.utils import derived_object
    from tvm.s_tir.meta_schedule.measure_callback import PyMeasureCallback

    @derived_object
    class Watch(PyMeasureCallback):
        def __init__(self):
            self.measured = self.build_errors = self.run_errors = 0
            self.per_task: dict[int, int] = {}
            self.errors: list[str] = []
            self.time_limited = False

        def apply(self, task_scheduler, task_id, measure_candidates, builder_results, runner_results):
            self.per_task[task_id] = self.per_task.get(task_id, 0) + len(builder_results)
            for b, r in zip(builder_results, runner_results):
                self.measured += 1
                err = b.error_msg or r.error_msg
                if b.error_msg:
                    self.build_errors += 1
                elif r.error_msg:
                    self.run_errors += 1
                if err and len(self.errors) < 3:
                    self.errors.append(str(err).strip().splitlines()[-1][:300] if str(err).strip() else "?")
            if time.monotonic() > deadline:
                unfinished = [i for i, task in enumerate(task_scheduler.tasks_)
                              if self.per_task.get(i, 0) < budget and (i == task_id or not task.is_terminated)]
                if unfinished:
                    self.time_limited = True
                    raise TimeLimitReached(f"time limit reached with {len(unfinished)} task(s) unfinished")

    return Watch()


SPACES = ("default", "no-write-reuse")


def _space(name: str):
    """MetaSchedule's design space for a CPU target: ``default`` is its own rule set;
    ``no-write-reuse`` is the same with multi-level tiling not fusing a consumer into the tiles
    of its producer. That fusion fails to generate any space for a reduction whose elementwise
    consumer also reads another block's result (attention: context / row sum) — a MetaSchedule
    limitation — so such workloads are tuned in the second space."""
    from tvm.s_tir import meta_schedule as ms  # heavy: TVM is imported on use, never with this module

    if name == "default":
        return "post-order-apply"
    rules = []
    for rule in ms.ScheduleRule.create("llvm"):
        if type(rule).__name__ == "MultiLevelTiling":
            # the llvm default's tiling, less its reuse_write (req "may", levels 1-2, global)
            rule = ms.schedule_rule.MultiLevelTiling(structure="SSRSRS", max_innermost_factor=64)
        rules.append(rule)
    return ms.space_generator.PostOrderApply(sch_rules=rules, postprocs="llvm", mutator_probs="llvm")


def choose_space(mods: list, target, llvm: bool) -> str:
    """The first design space in which every task's module generates (a quick, untimed check)."""
    from tvm.s_tir import meta_schedule as ms  # heavy: TVM is imported on use, never with this module

    why = ""
    for name in SPACES if llvm else SPACES[:1]:
        try:
            for mod in mods:
                ctx = ms.TuneContext(mod=mod, target=target, space_generator=_space(name),
                                     search_strategy="evolutionary", task_name="check")
                if not ctx.space_generator.generate_design_space(mod):
                    raise ValueError("the design space is empty")
            return name
        except Exception as e:  # noqa: BLE001 - TVM's refusal: try the next space
            why = why or _tvm_message(e)
    raise TuneError(f"MetaSchedule generates no design space for it: {why}")


def _quiet_meta_schedule() -> None:
    # the per-round task tables go to the work directory's logs, not the console
    logger = logging.getLogger("tvm.s_tir.meta_schedule")
    logger.setLevel(logging.WARNING)
    # MetaSchedule configures logging for each tuning from the *names* of the handlers already
    # on its logger; an unnamed one (pytest attaches its capture handlers) makes that fail
    for handler in [h for h in logger.handlers if h.get_name() is None]:
        logger.removeHandler(handler)


def tune(w, backend, trials: int = DEFAULT_TRIALS, seed: int = 0,
         time_limit_s: float = DEFAULT_TIME_LIMIT_S) -> TunedRecord:
    """Tune one workload on ``backend`` (a :class:`~evaluator.backends.base.Backend`) with
    MetaSchedule: ``trials`` candidates per task, evolutionary search with the XGBoost cost
    model, a fixed seed. Raises :class:`TuneError` when nothing usable comes out.

    The record is not yet checked for correctness: ``tune_run`` does that before writing it."""
    if not 1 <= trials <= MAX_TRIALS:
        raise ValueError(f"trials must be between 1 and {MAX_TRIALS}, got {trials}")
    if not 0 < time_limit_s <= MAX_TIME_LIMIT_S:
        raise ValueError(f"time limit must be between 0 and {MAX_TIME_LIMIT_S:g} s, got {time_limit_s}")
    # heavy: TVM is imported on use, never with this module
    import tvm
    from tvm.s_tir import meta_schedule as ms

    _quiet_meta_schedule()
    canonical = w.canonical_module()
    target_json = backend.target()
    target = tvm.target.Target(target_json)
    cores = int(target_json.get("num-cores") or os.cpu_count() or 1)
    llvm = target_json.get("kind") == "llvm"
    if not llvm and backend.name not in (BackendKind.CUDA,):
        raise TuneError(f"MetaSchedule tuning on {backend.name!r} is not supported: its local runner "
                        "measures on this machine's CPU or CUDA GPU only")
    env_before = os.environ.get("PYTHONPATH")
    # the builder's and runner's worker processes (started here) import this module
    root = str(Path(__file__).resolve().parents[2])
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (root, env_before) if p)
    try:
        builder = ms.builder.LocalBuilder(f_build=cpu_build if llvm else None, max_workers=cores,
                                          timeout_sec=BUILD_TIMEOUT_S)
        # an operator's index inputs are its real ones (float data is random either way: only
        # what must be in bounds is shipped to the runner); a graph's fused functions get zeros
        inputs = None if _is_graph(canonical) else [
            None if np.issubdtype(a.dtype, np.floating) else a for a in generate(w, 0)]
        runner = ms.runner.LocalRunner(timeout_sec=RUN_TIMEOUT_S,
                                       f_alloc_argument=functools.partial(cpu_alloc_arguments, inputs))
        per_iter = min(TRIALS_PER_ITER, trials)
        import tvm.s_tir.tensor_intrin  # noqa: F401 - once per process (25-30 s), not tuning time

        t0 = time.perf_counter()
        watch = _measure_callback(time.monotonic() + time_limit_s, trials)
        graph = _is_graph(canonical)
        with tempfile.TemporaryDirectory(prefix="ekb-tune-") as work_dir:
            if graph:
                extracted = ms.relax_integration.extract_tasks(canonical, target)
                space = choose_space([t.dispatched[0] for t in extracted], target, llvm)
            else:
                space = choose_space([canonical], target, llvm)
            # our own database: what was measured before the time limit is kept
            db = ms.database.MemoryDatabase()
            common = dict(target=target, work_dir=work_dir, num_trials_per_iter=per_iter,
                          builder=builder, runner=runner, database=db, cost_model="xgb",
                          measure_callbacks=ms.MeasureCallback.create("default") + [watch], seed=seed,
                          space=_space(space))
            tasks = len(extracted) if graph else 1
            try:
                if graph:
                    ms.relax_integration.tune_relax(canonical, {}, max_trials_global=trials * tasks,
                                                    max_trials_per_task=trials, **common)
                else:
                    ms.tune_tir(canonical, max_trials_global=trials, num_tuning_cores=cores, **common)
            except Exception:
                if not watch.time_limited:  # the callback's own stop is not a failure
                    raise
            if graph:
                tuned, done, fallback = _apply_graph(db, canonical, target, backend, w)
            else:
                sch = ms.tir_integration.compile_tir(db, canonical, target)
                if sch is None:
                    why = "; ".join(dict.fromkeys(watch.errors)) or "no candidate was measured"
                    raise TuneError(f"no candidate of {watch.measured} built and ran: {why}")
                tuned, done, fallback = sch.mod, ["main"], []
    except TuneError:
        raise
    except Exception as e:  # noqa: BLE001 - MetaSchedule's own failures, in one sentence
        raise TuneError(f"MetaSchedule failed: {_tvm_message(e)}") from e
    finally:
        if env_before is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = env_before
    elapsed = time.perf_counter() - t0
    script = tuned.script()
    _check_round_trip(script)
    return TunedRecord(
        workload=w.id, backend=backend.name, target=target_json, tvm=tvm.__version__, trials=trials,
        seed=seed, space=space, canonical_hash=canonical_hash(canonical), tvmscript=script,
        tuning_s=round(elapsed, 2), tasks=tasks, measured=watch.measured,
        build_errors=watch.build_errors, run_errors=watch.run_errors,
        time_limited=watch.time_limited, tuned_functions=done, default_functions=fallback,
        host=backend.info().device)


def _apply_graph(db, canonical, target, backend, w):
    """The graph with every tuned PrimFunc replaced by its best schedule and every other one
    scheduled by the tvm-default rule set."""
    # heavy: TVM is imported on use, never with this module
    import tvm
    from tvm import relax, tirx

    with target, db, tvm.transform.PassContext(opt_level=3):
        tuned = relax.transform.MetaScheduleApplyDatabase(enable_warning=False)(canonical)
    done, fallback = [], []
    for gv, func in tuned.functions.items():
        if isinstance(func, tirx.PrimFunc):
            scheduled = func.attrs is not None and bool(func.attrs.get("tirx.is_scheduled", False))
            (done if scheduled else fallback).append(gv.name_hint)
    if not done:
        raise TuneError("no fused function of the graph got a measured schedule")
    if fallback:
        default = backend.default_module(w.canonical_module())
        for name in fallback:
            tuned[name] = default[name]
    return tuned, sorted(done), sorted(fallback)


def _check_round_trip(script: str) -> None:
    """The stored text must parse and print back to itself: what evaluation builds is exactly
    what was checked. (Structural equality with the tuned module is too strict: a parameter's
    layout annotation of TOPI's opaque scans is not printed.)"""
    import tvm  # heavy: TVM is imported on use, never with this module

    if len(script) > MAX_SCRIPT_CHARS:
        raise TuneError(f"the tuned module's TVMScript has {len(script)} characters; the limit is "
                        f"{MAX_SCRIPT_CHARS}")
    try:
        again = tvm.script.from_source(script)
    except Exception as e:  # noqa: BLE001
        raise TuneError(f"the tuned module's TVMScript does not parse back: {str(e)[:300]}") from e
    if again.script() != script:
        raise TuneError("the tuned module's TVMScript does not print back to the same text")
