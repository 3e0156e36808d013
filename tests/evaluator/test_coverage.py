"""The coverage table of peer benchmarks (``python -m evaluator coverage``): the committed
``docs/coverage.md`` is what the command makes from the suite now, and the mapping names only
workloads that exist."""

from pathlib import Path

from evaluator import cli, suite
from evaluator.suite import coverage

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "docs" / "coverage.md"


def test_the_committed_table_is_the_generated_one(tmp_path):
    out = tmp_path / "coverage.md"
    assert cli.main(["coverage", "--write", str(out)]) == 0
    assert out.read_text() == coverage.render()
    assert COMMITTED.read_text() == out.read_text(), \
        "docs/coverage.md is stale: run python -m evaluator coverage --write docs/coverage.md"


def test_every_workload_the_mapping_names_exists():
    ids = {w.id for w in suite.workloads()}
    dead = []
    for row in coverage.rows():
        for ref in row.exact + row.partly:
            if not coverage._resolve(ref, sorted(ids)):
                dead.append(f"{row.key}: {ref}")
    assert not dead, dead


def test_every_workload_citing_a_peer_lands_on_a_row():
    """A ``source`` naming a te_workload configuration or a KernelBench problem must be one the
    mapping has (a mistyped source would never show as exact)."""
    sources = {row.source for row in coverage.rows() if row.source}
    cited = [w for w in suite.workloads() if w.source.startswith(("TVM MetaSchedule te_workload", "KernelBench"))]
    assert cited
    assert not [w.id for w in cited if w.source not in sources]


def test_a_removed_workload_shows_as_missing():
    everything = suite.workloads()
    row = next(r for r in coverage.rows() if r.key == "94_MSELoss")
    assert coverage.status(row, everything)[0] == coverage.EXACT
    assert coverage.status(row, [w for w in everything if not w.id.startswith("loss/mse@")]) == (coverage.MISSING, [])
    row = next(r for r in coverage.rows() if r.key == "C2D[0]")
    assert coverage.status(row, everything) == (coverage.EXACT, ["conv2d/conv2d-nhwc@n1h224w224c3k64r7s2p3"])
    assert coverage.status(row, [w for w in everything if w.id != "conv2d/conv2d-nhwc@n1h224w224c3k64r7s2p3"]) == \
        (coverage.PARTLY, ["conv2d/conv2d-nhwc@*"])
