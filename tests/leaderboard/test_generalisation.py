"""Generalisation (issue 15, point 4): of the patterns a verified run gets right on every public
workload, the share it also gets right (and fast) on every held-out workload of the pattern.
The pure function on hand-built records; then through the database: the boards (both tracks),
the API, the exports and the submission page show it, and no held-out workload id."""

from __future__ import annotations

import csv
import html
import io
import json
import re

import pytest

from evaluator import scoring
from evaluator.records import TaskResult
from portal_helpers import BACKEND, add_result, make_submission, make_user, seed_leaderboard

CORRECT, WRONG, SUSPECT = "correct", "wrong_result", "suspect"


def rec(workload: str, status: str, speedup: float | None = 1.5, hidden: bool = False) -> dict:
    """A result-like record as the boards hold one (speedup per baseline)."""
    return {"workload": workload, "hidden": hidden, "status": status,
            "speedup": {} if speedup is None else {"tvm-default": speedup}}


def held(workload: str, status: str = CORRECT, speedup: float | None = 1.5) -> dict:
    return rec(workload, status, speedup, hidden=True)


def gen(records) -> tuple:
    g = scoring.generalisation(records)
    return g["generalisation"], g["generalisation_fast"], g["generalisation_patterns"]


# ----------------------------------------------------------------------------- the pure function


def test_every_pattern_generalises():
    records = [rec("a/x@m1", CORRECT), rec("a/x@m2", CORRECT), held("a/x@h1"), held("a/x@h2"),
               rec("b/y@n1", CORRECT), held("b/y@h9")]
    assert gen(records) == (1.0, 1.0, 2)


def test_one_pattern_fails_a_held_out_shape():
    records = [rec("a/x@m1", CORRECT), held("a/x@h1"), held("a/x@h2", WRONG, None),
               rec("b/y@n1", CORRECT), held("b/y@h9")]
    assert gen(records) == (0.5, 0.5, 2)
    # the failing shape alone decides: the order of the records does not
    assert gen(reversed(records)) == (0.5, 0.5, 2)


def test_a_pattern_without_a_held_out_result_is_not_counted():
    base = [rec("a/x@m1", CORRECT), held("a/x@h1")]
    assert gen(base + [rec("c/z@k1", CORRECT), rec("c/z@k2", CORRECT)]) == (1.0, 1.0, 1)
    # a pattern seen only held out (no public result) is not counted either
    assert gen(base + [held("d/w@h1", WRONG, None)]) == (1.0, 1.0, 1)


def test_a_pattern_incorrect_on_a_public_workload_is_not_counted():
    records = [rec("a/x@m1", CORRECT), held("a/x@h1"),
               rec("b/y@n1", CORRECT), rec("b/y@n2", WRONG, None), held("b/y@h1", WRONG, None),
               rec("c/z@k1", SUSPECT), held("c/z@h1")]  # suspect is not correct, as everywhere
    assert gen(records) == (1.0, 1.0, 1)


def test_fast_is_counted_apart_from_correct():
    records = [rec("a/x@m1", CORRECT, 0.5), held("a/x@h1", CORRECT, 1.0),  # slow in public: still counted
               rec("b/y@n1", CORRECT), held("b/y@h1", CORRECT, 0.999),  # correct, not fast
               rec("c/z@k1", CORRECT), held("c/z@h1", CORRECT, 2.0), held("c/z@h2", CORRECT, None),  # untimed
               rec("d/w@j1", CORRECT), held("d/w@h1", CORRECT, 1.2), held("d/w@h2", CORRECT, 3.0)]
    assert gen(records) == (1.0, 0.5, 4)


@pytest.mark.parametrize("speedup", [0.5, 0.999, 1.0, 1.001, 4.0, None])
def test_fast_is_what_fast_at_one_counts(speedup):
    one = held("a/x@h1", CORRECT, speedup)
    fast = scoring.summarize([one])["fast@1.0"] == 1.0
    assert gen([rec("a/x@m1", CORRECT), one])[1] == (1.0 if fast else 0.0)


def test_no_pattern_to_count_is_none_not_zero():
    assert gen([]) == (None, None, 0)
    assert gen([rec("a/x@m1", CORRECT), rec("b/y@n1", WRONG, None)]) == (None, None, 0)
    assert gen([rec("a/x@m1", WRONG, None), held("a/x@h1")]) == (None, None, 0)


def test_task_results_and_plain_speedups_are_records_too():
    """TaskResult objects (the evaluator's) and a speedup given as the number against
    tvm-default (``Result.speedup_tvm_default``) score alike."""
    objs = [TaskResult("a/x@m1", BACKEND, CORRECT, speedup={"tvm-default": 1.1}),
            TaskResult("a/x@h1", BACKEND, CORRECT, speedup={"tvm-default": 0.7}, hidden=True),
            TaskResult("b/y@n1", BACKEND, CORRECT, speedup={"tvm-default": 1.1}),
            TaskResult("b/y@h1", BACKEND, CORRECT, speedup={"tvm-default": 1.3}, hidden=True)]
    assert gen(objs) == (1.0, 0.5, 2)
    flat = [{"workload": t.workload, "hidden": t.hidden, "status": t.status, "speedup": t.speedup["tvm-default"]}
            for t in objs]
    assert gen(flat) == gen(objs)


# ----------------------------------------------------------------------------- through the database


def _patterns_with_held_out() -> list[tuple[str, list, list]]:
    """(pattern, its served public workloads, its held-out workloads) for every pattern that has
    both on the verified track, in a fixed order."""
    from leaderboard.slices import track_tasks

    by: dict[str, tuple[list, list]] = {}
    for w in track_tasks("verified"):
        by.setdefault(scoring.pattern_of(w.id), ([], []))[1 if w.hidden else 0].append(w)
    return [(p, pub, hid) for p, (pub, hid) in sorted(by.items()) if pub and hid]


class Seeded:
    """seed_leaderboard's public board plus verified runs with known generalisation:

    * alpha (verified, finished): every public workload correct; of the n patterns with held-out
      workloads, the first fails one held-out shape, the second holds up but slower than
      tvm-default, the rest are correct and fast: (n-1)/n and (n-2)/n over n patterns;
    * gamma (verified, finished): public workloads only (no held-out result): no pattern, –;
    * beta: a verified run still running: nothing shown, whatever its results.
    """

    def __init__(self):
        from leaderboard.aggregates import rebuild
        from leaderboard.slices import track_tasks
        from portal.models import Submission

        self.board = seed_leaderboard()
        self.subs = self.board.subs
        self.patterns = _patterns_with_held_out()
        n = len(self.patterns)
        assert n >= 3, "the fixed board needs three patterns with held-out workloads"
        self.n = n
        self.failing, self.slow = self.patterns[0][0], self.patterns[1][0]
        alpha, gamma, beta = self.subs["alpha"], self.subs["gamma"], self.subs["beta"]
        self.hidden = [w for w in track_tasks("verified") if w.hidden]
        public = [w for w in track_tasks("verified") if not w.hidden]
        for w in public:
            add_result(alpha, w, CORRECT, 1.25, track="verified")
            add_result(gamma, w, CORRECT, 0.9, track="verified")
            add_result(beta, w, CORRECT, 2.0, track="verified")
        for i, (_, _, hid) in enumerate(self.patterns):
            for j, w in enumerate(hid):
                if i == 0 and j == 0:
                    add_result(alpha, w, WRONG, None, track="verified")
                else:
                    add_result(alpha, w, CORRECT, 0.9 if i == 1 else 1.5, track="verified")
                add_result(beta, w, CORRECT, 2.0, track="verified")
        Submission.objects.filter(pk__in=[alpha.pk, gamma.pk]).update(verification="finished")
        Submission.objects.filter(pk=beta.pk).update(verification="running")
        rebuild()
        self.want = {"generalisation": (n - 1) / n, "generalisation_fast": (n - 2) / n,
                     "generalisation_patterns": n}


NONE = {"generalisation": None, "generalisation_fast": None, "generalisation_patterns": 0}
KEYS = tuple(NONE)


def _gen(summary: dict) -> dict:
    return {k: summary[k] for k in KEYS}


@pytest.fixture
def seeded(db) -> Seeded:
    return Seeded()


def _assert_no_held_out(seeded: Seeded, url: str, body: str) -> None:
    for w in seeded.hidden:
        for form in (w.id, w.id.split("@", 1)[1]):
            assert form not in body, (url, "a held-out workload id")


@pytest.mark.parametrize("track", ["public", "verified"])
def test_board_rows_carry_the_verified_runs_generalisation(seeded, track):
    from leaderboard.ranking import board

    rows = {x.name: x for x in board(BACKEND, track=track).rows}
    assert _gen(rows["alpha"].summary) == pytest.approx(seeded.want)
    assert _gen(rows["gamma"].summary) == NONE  # verified, but no held-out result
    if track == "public":
        assert _gen(rows["beta"].summary) == NONE  # its verified run has not finished
    else:
        assert "beta" not in rows
    assert all(_gen(x.summary) == NONE for x in rows.values() if x.kind == "baseline")
    # the chosen baseline does not move it: it is against tvm-default, as Fast@1.0
    vendor = {x.name: x for x in board(BACKEND, track=track, baseline="vendor", p=2.0).rows}
    assert _gen(vendor["alpha"].summary) == pytest.approx(seeded.want)


def test_stored_slices_equal_scoring_from_the_results(seeded):
    """Precomputed slices (read from the stored verified rows) and slices scored on request (from
    the verified results) give the same generalisation, on both tracks."""
    from leaderboard.ranking import board
    from leaderboard.slices import Slice

    failing = next(w for p, pub, _ in seeded.patterns if p == seeded.failing for w in pub)
    for f in ({}, {"family": failing.family}, {"level": failing.level, "domain": failing.domains[0]},
              {"family": failing.family, "dtype": failing.dtype}):
        assert Slice(**f).precomputed == (f.get("dtype") is None)
        for track in ("public", "verified"):
            stored = {x.name: _gen(x.summary) for x in board(BACKEND, track=track, **f).rows}
            fresh = {x.name: _gen(x.summary) for x in board(BACKEND, track=track, from_results=True, **f).rows}
            assert stored == fresh, (f, track)
    # In the failing pattern's family only that family's patterns count, the failing one among them.
    fam = {x.name: _gen(x.summary) for x in board(BACKEND, family=failing.family).rows}["alpha"]
    n_fam = sum(1 for p, pub, _ in seeded.patterns if pub[0].family == failing.family)
    assert fam["generalisation_patterns"] == n_fam and fam["generalisation"] == pytest.approx((n_fam - 1) / n_fam)


def test_sorting_by_generalisation_keeps_the_ranks(seeded):
    from leaderboard.ranking import board

    ranked = {x.name: x.rank for x in board(BACKEND).rows}
    rows = board(BACKEND, sort="generalisation").rows
    assert {x.name: x.rank for x in rows} == ranked
    assert rows[0].name == "alpha" and all(x.summary["generalisation"] is None for x in rows[1:])
    assert board(BACKEND, sort="generalisation_fast").rows[0].name == "alpha"


def test_a_landing_verified_result_moves_it(seeded):
    """The failing held-out shape is fixed (a rerun lands correct and fast): every pattern holds."""
    from leaderboard import aggregates
    from leaderboard.ranking import board
    from portal.models import Result

    w = seeded.patterns[0][2][0]
    r = Result.objects.get(submission=seeded.subs["alpha"], workload=w.id, track="verified")
    r.status, r.speedup_tvm_default = CORRECT, 1.5
    r.record = {**r.record, "status": CORRECT, "speedup": {"tvm-default": 1.5}}
    r.save()
    aggregates.result_landed(r)
    n = seeded.n
    for track in ("public", "verified"):
        alpha = {x.name: x for x in board(BACKEND, track=track).rows}["alpha"]
        assert _gen(alpha.summary) == pytest.approx({"generalisation": 1.0, "generalisation_fast": (n - 1) / n,
                                                     "generalisation_patterns": n})


def _cell(body: str, name: str, cls: str) -> str:
    row = re.search(rf'<tr class="submission">(?:(?!</tr>).)*?>{name}</a>.*?</tr>', body, re.S)[0]
    return re.findall(rf'<td class="{cls}"[^>]*>(.*?)</td>', row)[0]


@pytest.mark.parametrize("track", ["public", "verified"])
def test_board_page_api_and_exports_show_it(client, seeded, track):
    want = seeded.want
    bodies = {}

    resp = client.get("/", {"track": track})
    body = bodies["/"] = html.unescape(resp.content.decode())
    assert ">generalisation<" in body and ">generalisation, fast<" in body  # the column headers
    assert _cell(body, "alpha", "gen") == f"{want['generalisation']:.3f}"
    assert _cell(body, "alpha", "gen-fast") == f"{want['generalisation_fast']:.3f}"
    assert _cell(body, "gamma", "gen") == "–"
    assert f"over {seeded.n} patterns with held-out results" in body
    header = re.findall(r"<th[^>]*>(.*?)</th>", body.split('<table class="board">', 1)[1])
    labels = [re.sub(r"<[^>]+>|[↑↓▲▼]", "", h).strip() for h in header]
    assert labels.index("generalisation") == labels.index("Fast@1.0 (sig.)") + 1  # next to Fast@p

    api = client.get("/api/v1/leaderboard/", {"track": track}).json()
    bodies["api"] = json.dumps(api)
    alpha = next(r for r in api["rows"] if r["name"] == "alpha")
    assert _gen(alpha["summary"]) == pytest.approx(want)
    assert _gen(next(r for r in api["rows"] if r["name"] == "gamma")["summary"]) == NONE

    exported = json.loads(client.get("/api/v1/leaderboard/export.json", {"track": track}).content)
    bodies["export.json"] = json.dumps(exported)
    assert _gen(next(r for r in exported["rows"] if r["name"] == "alpha")["summary"]) == pytest.approx(want)

    text = bodies["export.csv"] = client.get("/api/v1/leaderboard/export.csv", {"track": track}).content.decode()
    lines = {x["name"]: x for x in csv.DictReader(io.StringIO(text))}
    assert float(lines["alpha"]["generalisation"]) == pytest.approx(want["generalisation"])
    assert float(lines["alpha"]["generalisation_fast"]) == pytest.approx(want["generalisation_fast"])
    assert int(lines["alpha"]["generalisation_patterns"]) == seeded.n
    assert lines["gamma"]["generalisation"] == "" and lines["tvm-default"]["generalisation"] == ""

    for url, body in bodies.items():
        _assert_no_held_out(seeded, url, body)


def test_submission_page_and_api_show_it(client, seeded):
    alpha, gamma = seeded.subs["alpha"], seeded.subs["gamma"]
    body = html.unescape(client.get(f"/submissions/{alpha.pk}/").content.decode())
    shown = re.findall(r'<strong class="gen">(.*?)</strong>', body)
    # the public summary and the verified one of the same board
    assert shown == [f"{seeded.want['generalisation']:.3f}"] * 2
    assert re.findall(r'<strong class="gen-fast">(.*?)</strong>', body) == [
        f"{seeded.want['generalisation_fast']:.3f}"] * 2
    _assert_no_held_out(seeded, "submission page", body)
    assert "Generalisation (verified run)" in body and f"over {seeded.n} patterns" in body
    gamma_page = html.unescape(client.get(f"/submissions/{gamma.pk}/").content.decode())
    assert set(re.findall(r'<strong class="gen">(.*?)</strong>', gamma_page)) == {"–"}

    api = client.get(f"/api/v1/submissions/{alpha.pk}/").json()
    assert [(g["backend"], g["generalisation_patterns"]) for g in api["generalisation"]] == [(BACKEND, seeded.n)]
    assert api["generalisation"][0]["generalisation"] == pytest.approx(seeded.want["generalisation"])
    _assert_no_held_out(seeded, "submission API", json.dumps(api))
    beta = client.get(f"/api/v1/submissions/{seeded.subs['beta'].pk}/").json()
    assert beta["generalisation"] == []  # not finished: nothing yet


def test_the_schema_declares_it(db, client):
    schema = client.get("/api/v1/schema/", {"format": "json"})
    assert schema.status_code == 200
    text = schema.content.decode()
    assert "generalisation_patterns" in text and "held-out workload of the pattern" in text


def test_a_board_without_any_verified_run_shows_none(db, client):
    from leaderboard.aggregates import rebuild
    from leaderboard.ranking import board
    from leaderboard.slices import track_tasks

    sub = make_submission(make_user("solo"), "solo")
    add_result(sub, track_tasks("public")[0], CORRECT, 2.0)
    rebuild()
    row = {x.name: x for x in board(BACKEND).rows}["solo"]
    assert _gen(row.summary) == NONE
    assert _cell(html.unescape(client.get("/").content.decode()), "solo", "gen") == "–"
