"""``python -m evaluator tune``: tune a deterministic subset covering every family and store the
``tvm-tuned`` records (see ``tvm_tuned.py``), with a summary of what tuning bought.

Per family the workloads are tried in a fixed order — fp32 first, near the smaller third of the
family's sizes (tuning stays in the order of a minute per workload), the smallest model graph for
``model`` — until ``per_family`` of them are tuned; one that cannot be tuned, or whose tuned
module fails the harness's correctness check, is listed with the reason and the next is tried.
Every tuned module is checked and timed through the evaluation pipeline's own run step (the same
correctness check and interleaved timing as a submission), beside ``tvm-default``; only a
correct one is written.
"""

from __future__ import annotations

import datetime
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from evaluator import records, suite
from evaluator.backends import get_backend
from evaluator.baselines import tvm_tuned
from evaluator.vocabulary import BackendKind, Baseline

RESULTS_DIR = Path(__file__).resolve().parents[2] / "bench" / "results"
MAX_PER_FAMILY = 5
EXTRA_TRIES = 2  # workloads tried per family beyond per_family when some cannot be tuned
MAX_BYTES = 16 << 20  # larger workloads go last: their candidates take long to measure


def _order(ws: list[suite.WorkloadDef]) -> list[suite.WorkloadDef]:
    """A family's workloads in the order the command tries them."""
    graphs = all(w.level == "L3" for w in ws)
    by_size = sorted(ws, key=lambda w: (w.flops, w.bytes, w.id))
    rank = {w.id: i for i, w in enumerate(by_size)}
    aim = 0 if graphs else len(by_size) // 3  # a model graph tunes each of its kernels: smallest

    def key(w):
        return (w.dtype != "float32", w.bytes > MAX_BYTES, abs(rank[w.id] - aim), rank[w.id], w.id)

    return sorted(ws, key=key)


def candidates(globs: list[str] | None = None) -> dict[str, list[suite.WorkloadDef]]:
    """Per family (every family of the public suite, or those with a workload matching
    ``globs``), its public workloads in the order the command tries them."""
    chosen = suite.select(globs)
    families: dict[str, list[suite.WorkloadDef]] = {}
    for w in chosen:
        families.setdefault(w.family, []).append(w)
    return {f: _order(ws) for f, ws in sorted(families.items())}


@dataclass
class Outcome:
    workload: str
    family: str
    ok: bool
    reason: str = ""
    trials: int = 0
    measured: int = 0
    tuning_s: float = 0.0
    time_limited: bool = False
    tuned_median_s: float | None = None
    default_median_s: float | None = None
    speedup_vs_default: float | None = None  # tvm-default time / tvm-tuned time, paired rounds
    speedup_spread: list[float] | None = None
    default_functions: list[str] = field(default_factory=list)
    space: str = ""
    record: str = ""


def tune_subset(backend: str = BackendKind.CPU_LLVM, trials: int = tvm_tuned.DEFAULT_TRIALS, per_family: int = 1,
                globs: list[str] | None = None, seed: int = 0,
                time_limit_s: float = tvm_tuned.DEFAULT_TIME_LIMIT_S,
                records_dir: Path = tvm_tuned.RECORDS_DIR, sandbox="auto", protocol=None,
                progress: Callable[[str, str], None] | None = None) -> list[Outcome]:
    """Tune, check, time and store ``per_family`` workloads of every selected family."""
    # the CLI imports this module for its --help defaults: the pipeline (elftools) loads on use
    from evaluator.pipeline import Pipeline

    if not 1 <= per_family <= MAX_PER_FAMILY:
        raise ValueError(f"per-family must be between 1 and {MAX_PER_FAMILY}, got {per_family}")
    families = candidates(globs)
    if not families:
        raise ValueError(f"no public workload matches {globs}")
    # the fresh module is the candidate; an older stored record is not timed beside it
    pipe = Pipeline(backend, protocol, sandbox=sandbox, tuned_records=None)
    outcomes: list[Outcome] = []
    for family, ws in families.items():
        done = 0
        for w in ws[: per_family + EXTRA_TRIES]:
            if done >= per_family:
                break
            out = _tune_one(pipe, w, trials, seed, time_limit_s, records_dir, progress)
            outcomes.append(out)
            done += out.ok
    return outcomes


def missing(globs: list[str] | None, backend: str, records_dir: Path = tvm_tuned.RECORDS_DIR,
            shard: tuple[int, int] = (0, 1)) -> list[suite.WorkloadDef]:
    """The selected public L1/L2 workloads with no usable record yet, in suite order, those of
    shard ``i`` of ``n`` (every n-th, from the i-th): what ``tune --missing`` works through, so
    an interrupted campaign resumes where it stopped and n processes share one."""
    i, n = shard
    todo = [w for w in suite.select(globs) if w.level != "L3"
            and tvm_tuned.lookup(w, backend, records_dir).record is None]
    return todo[i::n]


def tune_missing(backend: str = BackendKind.CPU_LLVM, trials: int = tvm_tuned.DEFAULT_TRIALS,
                 globs: list[str] | None = None, seed: int = 0,
                 time_limit_s: float = tvm_tuned.DEFAULT_TIME_LIMIT_S,
                 records_dir: Path = tvm_tuned.RECORDS_DIR, shard: tuple[int, int] = (0, 1),
                 sandbox="auto", protocol=None,
                 progress: Callable[[str, str], None] | None = None) -> list[Outcome]:
    """Tune, check, time and store every workload :func:`missing` names."""
    from evaluator.pipeline import Pipeline

    pipe = Pipeline(backend, protocol, sandbox=sandbox, tuned_records=None)
    return [_tune_one(pipe, w, trials, seed, time_limit_s, records_dir, progress)
            for w in missing(globs, backend, records_dir, shard)]


def _tune_one(pipe, w, trials, seed, time_limit_s, records_dir, progress=None) -> Outcome:
    if progress:
        progress(w.id, "tuning")
    out = _tune_checked(pipe, w, trials, seed, time_limit_s, records_dir)
    if progress:
        progress(w.id, "tuned" if out.ok else f"not tuned: {out.reason}")
    return out


def _tune_checked(pipe, w, trials, seed, time_limit_s, records_dir) -> Outcome:
    out = Outcome(w.id, w.family, False, trials=trials)
    try:
        rec = tvm_tuned.tune(w, pipe.backend, trials=trials, seed=seed, time_limit_s=time_limit_s)
    except tvm_tuned.TuneError as e:
        out.reason = _brief(str(e))
        return out
    out.measured, out.tuning_s, out.time_limited = rec.measured, rec.tuning_s, rec.time_limited
    out.default_functions, out.space = rec.default_functions, rec.space
    res = pipe.evaluate_module(w, rec.module())
    if res.status != records.CORRECT:
        out.reason = _brief(f"the tuned module failed the harness ({res.status}): {res.reason}")
        return out
    times = res.times
    out.tuned_median_s = times["candidate"].median_s
    out.default_median_s = times[Baseline.TVM_DEFAULT].median_s if Baseline.TVM_DEFAULT in times else None
    out.speedup_vs_default = res.speedup.get(Baseline.TVM_DEFAULT)
    out.speedup_spread = res.detail.get("speedup_spread", {}).get(Baseline.TVM_DEFAULT)
    rec.checked = {"status": res.status, "input_sets": len(pipe.protocol.seeds),
                   "runs_per_set": pipe.protocol.runs_per_seed, "after_timing": True}
    out.record = str(tvm_tuned.write(rec, records_dir))
    out.ok = True
    return out


def _brief(text: str) -> str:
    """One line for the summary: a traceback is cut to the line before it and its last line
    (the error itself; the frames name files of this machine)."""
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    if len(lines) > 1 and any(ln.startswith(("Traceback", "File ")) or "Traceback" in ln for ln in lines):
        text = f"{lines[0].split('Traceback')[0].strip()} … {lines[-1]}"
    return " ".join(text.split())[:500]


# --- the summary -------------------------------------------------------------------------------
def summary(outcomes: list[Outcome], backend: str, argv: list[str], trials: int, seed: int,
            time_limit_s: float, wall_s: float, started: str) -> dict:
    import tvm  # heavy: TVM is imported on use, never with this module

    from evaluator.pipeline import machine  # elftools with the pipeline: on use (see tune_subset)

    info = get_backend(backend).info()
    run = {"date": started, "command": "python -m evaluator " + " ".join(argv), "trials_per_task": trials,
           "seed": seed, "time_limit_s": time_limit_s, "wall_s": round(wall_s, 1)}
    return _derive({
        "backend": backend,
        "machine": machine() | {"device": info.device},
        "target": info.target,
        "tvm": tvm.__version__,
        "runs": [run],
        "workloads": [o.__dict__ | {"record": _relative(o.record), "run": 1} for o in outcomes],
    })


def _derive(s: dict) -> dict:
    """The per-family view and the geomean, from the rows."""
    rows = s["workloads"]
    families = sorted({r["family"] for r in rows})
    ratios = [r["speedup_vs_default"] for r in rows if r["ok"] and r["speedup_vs_default"]]
    return s | {
        "families": {f: [r["workload"] for r in rows if r["ok"] and r["family"] == f] for f in families},
        "families_without_record": [f for f in families if not any(r["ok"] and r["family"] == f for r in rows)],
        "geomean_speedup_vs_default": (math.exp(sum(math.log(x) for x in ratios) / len(ratios))
                                       if ratios else None),
    }


def merge(old: dict, new: dict) -> dict:
    """A later run on the same day, backend, target and TVM version (re-tuning some workloads
    with ``--tasks``) updates that day's summary: its rows replace the rows of the workloads it
    tried again, the others stay, and both commands are listed. Otherwise the new one stands."""
    same = all(old.get(k) == new[k] for k in ("backend", "target", "tvm"))
    if not same or "runs" not in old:
        return new
    offset = len(old["runs"])
    fresh = {r["workload"] for r in new["workloads"]}
    rows = [r for r in old["workloads"] if r["workload"] not in fresh]
    rows += [r | {"run": r["run"] + offset} for r in new["workloads"]]
    rows.sort(key=lambda r: r["family"])  # stable: within a family, in the order tried
    return _derive(new | {"runs": old["runs"] + new["runs"], "workloads": rows})


def _relative(path: str) -> str:
    if not path:
        return ""
    try:
        return str(Path(path).resolve().relative_to(Path(__file__).resolve().parents[2]))
    except ValueError:
        return Path(path).name


def _ms(x: float | None) -> str:
    return "–" if x is None else f"{x * 1e3:.4f}"


def markdown(s: dict) -> str:
    runs = s["runs"]
    lines = [
        f"# tvm_tuned — {runs[0]['date']}",
        "",
        *[f"Command{f' (run {i})' if len(runs) > 1 else ''}: `{r['command']}` — {r['trials_per_task']} "
          f"trials per task, seed {r['seed']}, {r['time_limit_s']:g} s limit per workload, wall "
          f"{r['wall_s']:.0f} s, started {r['date']}  " for i, r in enumerate(runs, 1)],
        f"Machine: {s['machine']['platform']}, {s['machine']['device']}, target "
        f"{s['target'].get('mcpu', s['target'].get('kind'))}  ",
        f"TVM {s['tvm']}; MetaSchedule, evolutionary search with the XGBoost cost model; a model "
        "graph is tuned per fused function, each with the trial budget  ",
        "Each tuned module was checked against the reference and timed by the evaluation harness "
        "(full protocol) beside tvm-default in one process, on shared buffers; the speedup is the "
        "median of paired per-round ratios tvm-default / tvm-tuned (> 1: tuning beat the default "
        "rule set). Tuning seconds exclude TVM's one-time import of its tensor-intrinsic tables.",
        "",
    ]
    g = s["geomean_speedup_vs_default"]
    tuned = [w for w in s["workloads"] if w["ok"]]
    lines += [f"Tuned: {len(tuned)} workloads in {len(s['families']) - len(s['families_without_record'])} "
              f"of {len(s['families'])} families; geomean tvm-default / tvm-tuned "
              f"{'–' if g is None else f'{g:.3f}'}."
              + (f" Families without a record: {', '.join(s['families_without_record'])}."
                 if s["families_without_record"] else ""), ""]
    multi = len(runs) > 1
    lines += ["| family | workload | " + ("run | " if multi else "") + "trials measured | tuning s | "
              "tvm-tuned ms | tvm-default ms | tvm-default / tvm-tuned | IQR | note |",
              "|---|---|" + ("---|" if multi else "") + "---|---|---|---|---|---|---|"]
    for w in s["workloads"]:
        note = "" if w["ok"] else f"not tuned: {w['reason']}"
        if w["ok"] and w["time_limited"]:
            note = "time limit reached before the budget"
        if w["space"] and w["space"] != "default":
            note = (note + "; " if note else "") + f"design space {w['space']}"
        if w["default_functions"]:
            note = (note + "; " if note else "") + f"{len(w['default_functions'])} functions kept tvm-default"
        spread = w["speedup_spread"]
        lines.append(
            f"| {w['family']} | {w['workload']} | " + (f"{w['run']} | " if multi else "")
            + f"{w['measured']} | {w['tuning_s']:.1f} | "
            f"{_ms(w['tuned_median_s'])} | {_ms(w['default_median_s'])} | "
            f"{'–' if w['speedup_vs_default'] is None else format(w['speedup_vs_default'], '.3f')} | "
            f"{'–' if not spread else f'{spread[0]:.2f}–{spread[1]:.2f}'} | "
            f"{note.replace('|', '/').replace(chr(10), ' ')} |")
    return "\n".join(lines) + "\n"


def write_summary(s: dict, results_dir: Path = RESULTS_DIR) -> tuple[Path, Path]:
    """Write the day's summary (merged into an earlier one of the same day: see ``merge``)."""
    day = datetime.date.today().isoformat()
    stem = f"tvm_tuned-{day}" + ("" if s["backend"] == BackendKind.CPU_LLVM else f"-{s['backend']}")
    results_dir.mkdir(parents=True, exist_ok=True)
    js, md = results_dir / f"{stem}.json", results_dir / f"{stem}.md"
    if js.is_file():
        try:
            s = merge(json.loads(js.read_text()), s)
        except (ValueError, KeyError, TypeError):
            pass  # an unreadable summary of the day is replaced
    js.write_text(json.dumps(s, indent=1) + "\n")
    md.write_text(markdown(s))
    return js, md


def started() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S %Z")
