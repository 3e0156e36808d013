"""leaderboard.ranking.board(): the one ranking function, over Submissions and Results stored
directly in PostgreSQL with known outcomes (no evaluation needed)."""

from __future__ import annotations

import csv
import html
import io
import json
import math
import re

import pytest

from leaderboard.aggregates import rebuild, result_landed
from leaderboard.ranking import board
from portal.models import Result, Submission
from portal_helpers import BACKEND, seed_leaderboard, served_tasks

pytestmark = pytest.mark.django_db


def _tasks(level=None, domain=None):
    return [w for w in served_tasks() if (not level or w.level == level) and (not domain or domain in w.domains)]


def _expected(outcome: dict, tasks) -> dict:
    """The metrics of one row worked out by hand: a task without an outcome is missing (wrong),
    a failed or missing task counts 1.0 in the deployable geomean."""
    n = len(tasks)
    views = [outcome.get(w.id, (False, None)) for w in tasks]
    good = [s for ok, s in views if ok]
    out = {"tasks": n, "correct": len(good), "correct@1": len(good) / n}
    for p in (0.5, 0.8, 1.0, 1.5, 2.0):
        out[f"fast@{p}"] = sum(1 for s in good if s >= p) / n
    out["geomean_deployable"] = math.exp(sum(math.log(s if ok else 1.0) for ok, s in views) / n)
    out["geomean_correct"] = math.exp(sum(math.log(s) for s in good) / len(good)) if good else None
    return out


def _check_rows(rows, seeded, tasks):
    names = [r.name for r in rows]
    assert sorted(names) == ["alpha", "beta", "gamma", "tvm-default", "vendor"], names
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
    for r in rows:
        want = _expected(seeded.outcomes[r.name], tasks)
        for key, value in want.items():
            assert r.summary[key] == pytest.approx(value), (r.name, key, r.summary)
    # Ranked by Fast@1.0, then Correct@1, then the deployable geomean, all descending.
    keys = [tuple(r.summary[k] or 0 for k in ("fast@1.0", "correct@1", "geomean_deployable")) for r in rows]
    assert keys == sorted(keys, reverse=True)


def test_full_board_ranks_and_numbers():
    seeded = seed_leaderboard()
    tasks = _tasks()
    assert len(tasks) == 58
    rows = board(BACKEND).rows
    _check_rows(rows, seeded, tasks)
    by_name = {r.name: r for r in rows}

    # The order, worked out by hand: alpha ties tvm-default on Fast@1.0 and Correct@1 and wins on
    # the geomean; vendor (2x on its 40 tasks) beats beta (29 of 58 at 2x); gamma is correct
    # everywhere but never faster.
    assert [r.name for r in rows] == ["alpha", "tvm-default", "vendor", "beta", "gamma"]

    # Missing tasks count as wrong over all 58 public tasks; wrong results with a speedup and a
    # hidden workload's result do not count.
    beta = by_name["beta"].summary
    assert beta["tasks"] == 58 and beta["correct"] == seeded.n_beta_correct
    assert beta["correct@1"] == pytest.approx(0.5) and beta["fast@1.0"] == pytest.approx(0.5)
    assert beta["geomean_correct"] == pytest.approx(2.0)
    assert beta["geomean_deployable"] == pytest.approx(math.sqrt(2.0))
    gamma = by_name["gamma"].summary
    assert gamma["correct@1"] == 1.0 and gamma["fast@1.0"] == 0.0 and gamma["fast@0.8"] == 1.0

    # Baselines: always present, marked, tvm-default is 1x by definition; vendor's numbers come
    # from the latest results that timed it (alpha's, not gamma's older ones).
    for name in ("tvm-default", "vendor"):
        assert by_name[name].kind == "baseline" and by_name[name].submission_id is None
    assert by_name["tvm-default"].summary["correct@1"] == 1.0
    assert by_name["tvm-default"].summary["fast@1.0"] == 1.0
    assert by_name["tvm-default"].summary["fast@1.5"] == 0.0
    vendor = by_name["vendor"].summary
    n_vendor = sum(1 for w in tasks if w.has_vendor)
    assert vendor["correct"] == n_vendor
    assert vendor["fast@2.0"] == pytest.approx(n_vendor / 58)
    assert vendor["geomean_correct"] == pytest.approx(2.0)

    # Submission rows carry their id and owner.
    for name, owner in (("alpha", "alice"), ("beta", "bob"), ("gamma", "carol")):
        r = by_name[name]
        assert r.kind == "submission" and r.submission_id == seeded.subs[name].pk and r.owner == owner
        assert r.created_at == seeded.subs[name].created_at.isoformat()

    # Per-domain Fast@1.0 on each row.
    for d in ("language", "vision", "audio"):
        in_d = [w for w in tasks if d in w.domains]
        assert by_name["beta"].domains[d] == pytest.approx(
            sum(1 for w in in_d if seeded.outcomes["beta"].get(w.id, (False, 0))[0]) / len(in_d))
        assert by_name["alpha"].domains[d] == 1.0 and by_name["gamma"].domains[d] == 0.0


@pytest.mark.parametrize("level,domain", [("L3", None), ("L2", None), (None, "audio"), ("L1", "vision")])
def test_board_narrowed_to_a_level_or_domain(level, domain):
    seeded = seed_leaderboard()
    tasks = _tasks(level, domain)
    assert 0 < len(tasks) < 58
    rows = board(BACKEND, level, domain).rows
    _check_rows(rows, seeded, tasks)
    assert {r.summary["tasks"] for r in rows} == {len(tasks)}
    if level == "L3":
        # The two model graphs: beta has neither (missing), vendor has no NumPy call for them.
        by_name = {r.name: r for r in rows}
        assert by_name["beta"].summary["correct"] == 0 and by_name["vendor"].summary["correct"] == 0
        assert [r.name for r in rows][:3] == ["alpha", "tvm-default", "gamma"]


def test_board_without_submissions_has_only_the_baselines():
    rows = board(BACKEND).rows
    assert [(r.name, r.kind) for r in rows] == [("tvm-default", "baseline"), ("vendor", "baseline")]
    assert rows[1].summary["correct"] == 0  # nothing has timed the vendor calls yet


def test_unfinished_private_and_other_backend_submissions_never_rank():
    seeded = seed_leaderboard()
    ranked = {r.submission_id for r in board(BACKEND).rows if r.kind == "submission"}
    assert ranked == {seeded.subs[n].pk for n in ("alpha", "beta", "gamma")}

    # Once it finishes, the running one is ranked (first: 3x everywhere); made private, it leaves.
    Submission.objects.filter(pk=seeded.subs["running"].pk).update(state="finished")
    rows = board(BACKEND).rows
    assert rows[0].submission_id == seeded.subs["running"].pk and rows[0].summary["fast@2.0"] == 1.0
    Submission.objects.filter(pk=seeded.subs["running"].pk).update(public=False)
    assert seeded.subs["running"].pk not in {r.submission_id for r in board(BACKEND).rows}


# ----------------------------------------------------------------------------- significant Fast@p


def _set_ci(sub, workloads, ci):
    """Give the stored records of ``sub`` on ``workloads`` a 95 % CI against tvm-default."""
    for r in Result.objects.filter(submission=sub, workload__in=[w.id for w in workloads]):
        r.record = {**r.record, "speedup_ci": {"tvm-default": list(ci)}}
        r.save(update_fields=["record"])


def test_significant_fast_p_from_the_stored_intervals():
    seeded = seed_leaderboard()
    tasks = _tasks()
    # alpha is 1.25x everywhere: 20 tasks with an interval clear of 1.0, 25 whose interval
    # straddles 1.0 (a tie within noise), the other 13 without one (not significant)
    _set_ci(seeded.subs["alpha"], tasks[:20], (1.1, 1.4))
    _set_ci(seeded.subs["alpha"], tasks[20:45], (0.95, 1.5))
    rebuild()
    ranking = board(BACKEND)
    rows = {r.name: r for r in ranking.rows}
    a = rows["alpha"].summary
    assert a["fast@1.0"] == 1.0
    assert a["fast_sig@1.0"] == pytest.approx(20 / 58)
    assert a["fast_sig@0.8"] == pytest.approx(45 / 58)
    assert a["fast_sig@1.5"] == 0.0
    assert a["ties@1.0"] == pytest.approx(25 / 58)
    assert rows["beta"].summary["fast_sig@0.5"] == 0.0  # 2x, but no interval
    # The rank is still the paper's Fast@p: alpha first.
    assert ranking.rows[0].name == "alpha"
    # A baseline against itself is exact; against another no interval is known (–, not 0).
    assert rows["tvm-default"].summary["fast_sig@1.0"] == 1.0 and rows["tvm-default"].summary["ties@1.0"] == 1.0
    assert rows["vendor"].summary["fast_sig@1.0"] is None
    by_vendor = {r.name: r for r in board(BACKEND, baseline="vendor").rows}
    n_vendor = sum(1 for w in tasks if w.has_vendor)
    assert by_vendor["vendor"].summary["fast_sig@1.0"] == pytest.approx(n_vendor / 58)
    assert by_vendor["tvm-default"].summary["fast_sig@1.0"] is None
    # Precomputed rows equal scoring the results on request.
    fresh = {r.name: r.summary for r in board(BACKEND, from_results=True).rows}
    assert {n: r.summary for n, r in rows.items()} == fresh


def test_a_landing_result_brings_its_interval_to_the_board():
    seeded = seed_leaderboard()
    beta = seeded.subs["beta"]
    before = {r.name: r for r in board(BACKEND).rows}["beta"].summary
    assert before["fast_sig@2.0"] == 0.0
    w = _tasks()[0]
    _set_ci(beta, [w], (2.0, 2.2))
    result_landed(Result.objects.get(submission=beta, workload=w.id))
    after = {r.name: r for r in board(BACKEND).rows}["beta"].summary
    assert after["fast_sig@2.0"] == pytest.approx(1 / 58) and after["fast@2.0"] == before["fast@2.0"]


def test_sorting_by_significant_fast_p_keeps_the_ranks():
    seeded = seed_leaderboard()
    _set_ci(seeded.subs["gamma"], _tasks(), (0.85, 0.95))  # 0.9x: significant at 0.8, not at 1.0
    _set_ci(seeded.subs["alpha"], _tasks()[:10], (0.7, 1.6))
    rebuild()
    ranked = {r.name: r.rank for r in board(BACKEND).rows}
    rows = board(BACKEND, p=0.8, sort="fast_sig").rows
    assert {r.name: r.rank for r in board(BACKEND, p=0.8).rows} == {r.name: r.rank for r in rows}
    values = [r.summary["fast_sig@0.8"] for r in rows]
    present = [v for v in values if v is not None]
    assert present == sorted(present, reverse=True) and values[len(present):] == [None] * (len(values) - len(present))
    assert [r.name for r in rows][:2] == ["tvm-default", "gamma"]  # 1.0, then gamma's 58/58
    assert ranked["alpha"] == 1


def test_page_api_and_exports_show_significant_fast_p(client):
    seeded = seed_leaderboard()
    _set_ci(seeded.subs["alpha"], _tasks()[:29], (1.1, 1.4))
    rebuild()
    api = client.get("/api/v1/leaderboard/").json()
    alpha = next(r for r in api["rows"] if r["name"] == "alpha")
    assert alpha["summary"]["fast@1.0"] == 1.0 and alpha["summary"]["fast_sig@1.0"] == 0.5
    exported = json.loads(client.get("/api/v1/leaderboard/export.json").content)
    assert next(r for r in exported["rows"] if r["name"] == "alpha")["summary"]["fast_sig@1.0"] == 0.5
    lines = {x["name"]: x for x in csv.DictReader(io.StringIO(
        client.get("/api/v1/leaderboard/export.csv").content.decode()))}
    header = list(lines["alpha"])
    assert header.index("fast_sig@1.0") == header.index("fast@1.0") + 1  # next to Fast@p
    assert float(lines["alpha"]["fast_sig@1.0"]) == 0.5 and float(lines["alpha"]["ties@1.0"]) == 0.0
    assert lines["vendor"]["fast_sig@1.0"] == ""  # no interval between two baselines
    body = html.unescape(client.get("/").content.decode())
    assert "Fast@1.0 (sig.)" in body and "lower bound of the 95 % CI of the speedup" in body
    row = re.search(r'<tr class="submission">(?:(?!</tr>).)*?>alpha</a>.*?</tr>', body, re.S)[0]
    sig = re.findall(r'<td class="sig"[^>]*>(.*?)</td>', row)
    assert sig == ["0.500"]
