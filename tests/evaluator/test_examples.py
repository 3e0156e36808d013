"""The shipped example bundles, evaluated with the default protocol.

``tvm-default`` is the rule set submitted as a bundle: the same kernel as the baseline, so every
task (of a representative sample of the suite) must be correct and time as ≈1 against it — a
check on the harness's interleaved timing, not on anyone's performance. ``hand-tuned`` must be
correct everywhere it has an entry; its speedups are measured by ``bench/eval_throughput.py``,
not asserted here.
"""

from pathlib import Path

from evaluator import records, suite
from evaluator.formats.bundle import load_bundle
from evaluator.pipeline import evaluate_bundle

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "bundles"
DEFAULT_SAMPLE = 30


def test_tvm_default_bundle_is_all_correct_and_at_parity():
    # a representative sample (every family's cheapest task first): the whole bundle is
    # bench/suite_sweep.py's job
    tasks = [w.id for w in suite.sample(DEFAULT_SAMPLE, include_hidden=False)]
    report = evaluate_bundle(load_bundle(str(EXAMPLES / "tvm-default")), "cpu-llvm", globs=tasks)
    assert len(report["tasks"]) == DEFAULT_SAMPLE
    assert report["summary"]["correct@1"] == 1.0, [
        (t["workload"], t["reason"]) for t in report["tasks"] if t["status"] != records.CORRECT]
    off = {t["workload"]: round(t["speedup"]["tvm-default"], 3) for t in report["tasks"]
           if not 0.8 <= t["speedup"]["tvm-default"] <= 1.25}
    assert not off, off


def test_hand_tuned_entries_are_correct(quick_protocol):
    bundle = load_bundle(str(EXAMPLES / "hand-tuned"))
    globs = [e.workload for e in bundle.entries if e.backend == "cpu-llvm"]
    report = evaluate_bundle(bundle, "cpu-llvm", globs=globs, protocol=quick_protocol)
    bad = [(t["workload"], t["status"], t["reason"]) for t in report["tasks"] if t["status"] != records.CORRECT]
    assert not bad
    assert len(report["tasks"]) == len(globs) > 10


def test_pattern_level_bundle_is_correct_on_every_shape_of_its_patterns(quick_protocol):
    """Its entries stand for whole patterns: correct on the public shapes and on the held-out ones
    (drawn from the tests' secret), on both backends it has entries for, every pattern float32 only (a
    pattern-level entry stands for every dtype of its pattern)."""
    bundle = load_bundle(str(EXAMPLES / "pattern-level"))
    by_backend = {b: sorted(e.pattern for e in bundle.entries if e.backend == b) for b in ("cpu-llvm", "opencl")}
    assert by_backend == {"cpu-llvm": ["batch-matmul/batch-matmul", "elementwise/add-bias", "gemv/gemv-t",
                                       "reduction/sum-lastaxis"],
                          "opencl": ["gemv/gemv-t"]}
    assert {e.format for e in bundle.entries} == {"layered-trace", "c-source", "tvmscript", "opencl-source"}
    for backend, patterns in by_backend.items():
        report = evaluate_bundle(bundle, backend, globs=[f"{p}@*" for p in patterns], include_hidden=True,
                                 protocol=quick_protocol)
        held = [t for t in report["tasks"] if t["hidden"]]
        assert held and len(report["tasks"]) > len(held)
        bad = [(t["workload"], t["status"], t["reason"]) for t in report["tasks"] if t["status"] != records.CORRECT]
        assert not bad, backend
        assert report["ignored_entries"] == []
