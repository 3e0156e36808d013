"""leaderboard.ranking.board(): the one ranking function, over Submissions and Results stored
directly in PostgreSQL with known outcomes (no evaluation needed)."""

from __future__ import annotations

import math

import pytest

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
    from leaderboard.ranking import board

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
    from leaderboard.ranking import board

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
    from leaderboard.ranking import board

    rows = board(BACKEND).rows
    assert [(r.name, r.kind) for r in rows] == [("tvm-default", "baseline"), ("vendor", "baseline")]
    assert rows[1].summary["correct"] == 0  # nothing has timed the vendor calls yet


def test_unfinished_private_and_other_backend_submissions_never_rank():
    from leaderboard.ranking import board
    from portal.models import Submission

    seeded = seed_leaderboard()
    ranked = {r.submission_id for r in board(BACKEND).rows if r.kind == "submission"}
    assert ranked == {seeded.subs[n].pk for n in ("alpha", "beta", "gamma")}

    # Once it finishes, the running one is ranked (first: 3x everywhere); made private, it leaves.
    Submission.objects.filter(pk=seeded.subs["running"].pk).update(state="finished")
    rows = board(BACKEND).rows
    assert rows[0].submission_id == seeded.subs["running"].pk and rows[0].summary["fast@2.0"] == 1.0
    Submission.objects.filter(pk=seeded.subs["running"].pk).update(public=False)
    assert seeded.subs["running"].pk not in {r.submission_id for r in board(BACKEND).rows}
