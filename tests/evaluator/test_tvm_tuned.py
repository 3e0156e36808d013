"""The tvm-tuned baseline: real MetaSchedule tuning through the tune command, records that are
checked before they land, stale records ignored with a reason, a third kernel timed by the real
(sandboxed) pipeline, and every committed record still matching its workload and building.

One tuning of a tiny matmul (4 trials) is shared by the module: TVM's tuner first imports its
tensor-intrinsic tables (about 25 s on this machine), then tunes in about 15 s.
"""

import json
import shutil

import pytest

from evaluator import cli, records, suite
from evaluator.backends import get_backend
from evaluator.baselines import tune_run, tvm_tuned
from evaluator.baselines.tvm_default import default_document
from evaluator.pipeline import Candidate, Pipeline

TINY = "matmul/matmul-nt@m1n12k48"
TRIALS = 4
BACKEND = "cpu-llvm"


@pytest.fixture(scope="module")
def tuned(tmp_path_factory, quick_protocol):
    """What the tune command does (``cmd_tune`` is only its argument checks and printing), over
    one tiny workload, with the short test protocol, into temporary directories."""
    root = tmp_path_factory.mktemp("tuned")
    rec_dir, res_dir = root / "records", root / "results"
    outcomes = tune_run.tune_subset(BACKEND, TRIALS, globs=[TINY], records_dir=rec_dir,
                                    protocol=quick_protocol)
    s = tune_run.summary(outcomes, BACKEND, ["tune", "--tasks", TINY], TRIALS, 0,
                         tvm_tuned.DEFAULT_TIME_LIMIT_S, 1.0, tune_run.started())
    tune_run.write_summary(s, res_dir)
    return 0 if not s["families_without_record"] else 1, rec_dir, res_dir


@pytest.fixture(scope="module")
def pipeline(quick_protocol):
    return Pipeline(BACKEND, quick_protocol, tuned_records=None)


def _copy_record(tuned, tmp_path, **change):
    """The tuned record, changed, in a records directory of its own."""
    _, rec_dir, _ = tuned
    d = json.loads(tvm_tuned.record_path(TINY, BACKEND, rec_dir).read_text())
    d.update(change)
    path = tvm_tuned.record_path(TINY, BACKEND, tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(d))
    return tmp_path


def test_tune_command_writes_a_checked_record_and_a_summary(tuned):
    rc, rec_dir, res_dir = tuned
    assert rc == 0
    w = suite.get_workload(TINY)
    rec = tvm_tuned.read(tvm_tuned.record_path(TINY, BACKEND, rec_dir))
    assert (rec.workload, rec.backend, rec.trials) == (TINY, BACKEND, TRIALS)
    assert 1 <= rec.measured <= TRIALS and rec.tuning_s > 0
    assert rec.canonical_hash == tvm_tuned.canonical_hash(w.canonical_module())
    assert rec.checked["status"] == records.CORRECT
    # MetaSchedule scheduled it: its sketch rules annotate what they tiled. (Not which loops run in
    # parallel: for a 1x12x48 matmul the search may keep a serial schedule, and did on a busy
    # machine, where parallel threads cost more than they save.)
    assert "meta_schedule." in rec.tvmscript, rec.tvmscript
    summary = json.loads(next(res_dir.glob("tvm_tuned-*.json")).read_text())
    [row] = summary["workloads"]
    assert row["ok"] and row["workload"] == TINY and row["speedup_vs_default"] > 0
    assert row["tuned_median_s"] > 0 and row["default_median_s"] > 0
    assert summary["families_without_record"] == []
    assert TINY in next(res_dir.glob("tvm_tuned-*.md")).read_text()


def test_stored_record_builds_and_is_correct(tuned, pipeline):
    _, rec_dir, _ = tuned
    w = suite.get_workload(TINY)
    rec = tvm_tuned.load(w, BACKEND, rec_dir)
    r = pipeline.evaluate_module(w, rec.module())
    assert r.status == records.CORRECT, r.reason
    assert r.speedup["tvm-default"] > 0


def test_evaluation_times_tvm_tuned_as_a_third_kernel(tuned, quick_protocol):
    _, rec_dir, _ = tuned
    w = suite.get_workload(TINY)
    pipe = Pipeline(BACKEND, quick_protocol, tuned_records=rec_dir)
    r = pipe.evaluate(w, Candidate("layered-trace", json.dumps(default_document(w.canonical_module()))))
    assert r.status == records.CORRECT, r.reason
    assert set(r.times) >= {"candidate", "tvm-default", "tvm-tuned"}
    assert r.speedup["tvm-tuned"] > 0 and r.speedup["tvm-default"] > 0
    assert "tvm-tuned" in r.detail["speedup_spread"]
    assert "tuned_note" not in r.detail and "tuned_error" not in r.detail


def test_stale_record_is_ignored_with_a_reason(tuned, tmp_path, quick_protocol):
    root = _copy_record(tuned, tmp_path, canonical_hash="0123456789abcdef")
    w = suite.get_workload(TINY)
    found = tvm_tuned.lookup(w, BACKEND, root)
    assert found.record is None
    assert "stale" in found.note and "0123456789abcdef" in found.note
    assert f"--tasks '{TINY}'" in found.note  # how to re-tune it
    r = Pipeline(BACKEND, quick_protocol, tuned_records=root).evaluate(
        w, Candidate("layered-trace", json.dumps(default_document(w.canonical_module()))))
    assert r.status == records.CORRECT, r.reason
    assert "tvm-tuned" not in r.speedup and "tvm-tuned" not in r.times
    assert r.detail["tuned_note"] == found.note


def test_record_that_does_not_build_is_recorded_not_the_candidates_failure(tuned, tmp_path, quick_protocol):
    _, rec_dir, _ = tuned
    lines = json.loads(tvm_tuned.record_path(TINY, BACKEND, rec_dir).read_text())["tvmscript"]
    broken = [ln.replace("def main(", "def main(:") for ln in lines]  # a syntax error
    assert broken != lines
    root = _copy_record(tuned, tmp_path, tvmscript=broken)
    w = suite.get_workload(TINY)
    r = Pipeline(BACKEND, quick_protocol, tuned_records=root).evaluate(
        w, Candidate("layered-trace", json.dumps(default_document(w.canonical_module()))))
    assert r.status == records.CORRECT, r.reason
    assert r.detail["tuned_error"].startswith("tvm-tuned does not build here")
    assert "tvm-tuned" not in r.speedup


def test_unreadable_or_foreign_records_are_ignored_with_a_reason(tuned, tmp_path):
    w = suite.get_workload(TINY)
    path = tvm_tuned.record_path(TINY, BACKEND, tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    assert "not JSON" in tvm_tuned.lookup(w, BACKEND, tmp_path).note
    path.write_text(json.dumps({"workload": TINY}))
    assert "lacks" in tvm_tuned.lookup(w, BACKEND, tmp_path).note
    shutil.rmtree(tmp_path / BACKEND)
    other = _copy_record(tuned, tmp_path, workload="matmul/matmul@m128n512k128")
    assert "it is for matmul/matmul@m128n512k128" in tvm_tuned.lookup(w, BACKEND, other).note
    assert tvm_tuned.lookup(suite.get_workload("matmul/matmul@m128n512k128"), BACKEND, other) == \
        tvm_tuned.Lookup(None)  # no file for that workload


def test_time_limit_stops_tuning_and_keeps_what_was_measured(tuned):
    # runs after the command, so TVM's tensor-intrinsic tables are already imported
    w = suite.get_workload(TINY)
    rec = tvm_tuned.tune(w, get_backend(BACKEND), trials=2 * tvm_tuned.TRIALS_PER_ITER, time_limit_s=0.5)
    assert rec.time_limited
    assert rec.measured == tvm_tuned.TRIALS_PER_ITER  # one round, then the limit
    assert rec.canonical_hash == tvm_tuned.canonical_hash(w.canonical_module())
    # a schedule the search measured, not the canonical module (which of the round's candidates
    # measured fastest is up to the clock: on a 1x12x48 matmul a serial one can win)
    assert tvm_tuned.canonical_hash(rec.module()) != rec.canonical_hash
    assert "meta_schedule" in rec.module().script()


def test_budgets_are_limited():
    w = suite.get_workload(TINY)
    with pytest.raises(ValueError, match="trials must be between"):
        tvm_tuned.tune(w, get_backend(BACKEND), trials=tvm_tuned.MAX_TRIALS + 1)
    with pytest.raises(ValueError, match="time limit"):
        tvm_tuned.tune(w, get_backend(BACKEND), time_limit_s=0)
    assert cli.main(["tune", "--trials", "0"]) == 2
    assert cli.main(["tune", "--per-family", "9"]) == 2
    assert cli.main(["tune", "--tasks", "no-such-family/*"]) == 2


def test_the_commands_subset_covers_every_family():
    chosen = tune_run.candidates()
    assert set(chosen) == {w.family for w in suite.workloads()}
    assert chosen == tune_run.candidates()  # deterministic
    for family, ws in chosen.items():
        assert ws and all(w.family == family and not w.hidden for w in ws)
        if any(w.dtype == "float32" for w in ws):
            assert ws[0].dtype == "float32", family
    assert chosen["model"][0].level == "L3"
    assert list(tune_run.candidates(["matmul/*"])) == ["matmul"]


COMMITTED = tvm_tuned.stored(BACKEND)


@pytest.mark.parametrize("path", COMMITTED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_committed_record_matches_its_workload_and_builds(path, tmp_path):
    rec = tvm_tuned.read(path)
    assert path == tvm_tuned.record_path(rec.workload, rec.backend)
    w = suite.get_workload(rec.workload)
    assert not w.hidden
    found = tvm_tuned.lookup(w, BACKEND)
    assert found.record is not None, found.note  # a stale record must be re-tuned, not kept
    assert rec.checked.get("status") == records.CORRECT
    assert 1 <= rec.trials <= tvm_tuned.MAX_TRIALS
    get_backend(BACKEND).build(rec.module(), str(tmp_path / "tuned.so"))
    assert (tmp_path / "tuned.so").stat().st_size > 0


def test_committed_records_cover_every_family():
    families = {tvm_tuned.read(p).workload.split("/")[0] for p in COMMITTED}
    assert families == {w.family for w in suite.workloads()}


def test_a_later_run_of_the_day_updates_the_summary(tmp_path):
    def run(rows, argv):
        outs = [tune_run.Outcome(wid, wid.split("/")[0], ok, reason="" if ok else "no design space",
                                 speedup_vs_default=x) for wid, ok, x in rows]
        return tune_run.summary(outs, BACKEND, argv, TRIALS, 0, 60.0, 1.0, tune_run.started())

    tune_run.write_summary(run([("scan/a@1", False, None), ("matmul/b@1", True, 2.0)], ["tune"]), tmp_path)
    js, md = tune_run.write_summary(run([("scan/a@1", True, 0.5)], ["tune", "--tasks", "scan/*"]), tmp_path)
    s = json.loads(js.read_text())
    assert [r["command"] for r in s["runs"]] == ["python -m evaluator tune",
                                                 "python -m evaluator tune --tasks scan/*"]
    assert {r["workload"]: (r["ok"], r["run"]) for r in s["workloads"]} == {
        "matmul/b@1": (True, 1), "scan/a@1": (True, 2)}
    assert s["families_without_record"] == [] and s["geomean_speedup_vs_default"] == pytest.approx(1.0)
    assert "run 2" in md.read_text()


def test_a_campaign_resumes_past_what_is_tuned_and_shards_split_what_is_left(tuned):
    """``tune --missing`` works through the selected L1/L2 workloads that have no usable record,
    so an interrupted campaign starts again where it stopped; ``--shard I/N`` gives N processes
    disjoint parts that together are all of it."""
    _, rec_dir, _ = tuned
    glob = [TINY.split("@")[0] + "@*"]
    left = tune_run.missing(glob, BACKEND, rec_dir)
    assert TINY not in {w.id for w in left}
    assert {w.id for w in left} == {w.id for w in suite.select(glob)} - {TINY}
    parts = [tune_run.missing(["matmul/*"], BACKEND, rec_dir, (i, 3)) for i in range(3)]
    ids = [w.id for part in parts for w in part]
    assert len(ids) == len(set(ids)) == len(tune_run.missing(["matmul/*"], BACKEND, rec_dir))
    assert tvm_tuned.read(tvm_tuned.record_path(TINY, BACKEND, rec_dir)).host  # where it was measured
    assert cli.main(["tune", "--missing", "--shard", "3/3"]) == 2
