"""The boards: precomputed aggregates equal the ranking function scored from the results; every
filter, the baseline choice, Fast@p, sorting, best/latest per team, public vs verified; page =
API = export = ranking; refresh when a result lands; hidden workloads never shown."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from datetime import timedelta

import pytest

from evaluator.suite.declare import tag_of
from leaderboard.slices import track_tasks
from portal_helpers import BACKEND, add_result, make_submission, make_user, seed_leaderboard

pytestmark = pytest.mark.django_db


def _tasks(**f):
    from leaderboard.slices import Slice

    return Slice(**f).tasks()


def _expected(outcome: dict, tasks, baseline_of=lambda s: s) -> dict:
    """One row's metrics by hand (outcome: workload → (correct, speedup vs tvm-default))."""
    n = len(tasks)
    views = [outcome.get(w.id, (False, None)) for w in tasks]
    good = [baseline_of(s) for ok, s in views if ok]
    good = [s for s in good if s is not None]
    out = {"tasks": n, "correct": sum(1 for ok, _ in views if ok)}
    out["correct@1"] = out["correct"] / n
    for p in (0.5, 0.8, 1.0, 1.5, 2.0):
        out[f"fast@{p}"] = sum(1 for s in good if s >= p) / n
    return out


def _rows_json(ranking) -> list[dict]:
    return json.loads(json.dumps([r.to_json() for r in ranking.rows]))


def _numbers(rows) -> list[tuple]:
    """What must match between two scorings of a board (not ids or timestamps)."""
    return [(r.name, r.kind, r.rank, r.summary, r.domains) for r in rows]


# ----------------------------------------------------------------------------- aggregates


def test_every_precomputed_slice_equals_scoring_from_the_results():
    from leaderboard.ranking import BASELINES, board
    from leaderboard.slices import precomputed_slices

    seed_leaderboard()
    slices = precomputed_slices()
    assert len(slices) > 20  # the whole board, each level/domain/family/dtype, level × domain
    for sl in slices:
        for baseline in BASELINES:
            stored = board(BACKEND, level=sl.level, domain=sl.domain, family=sl.family, dtype=sl.dtype,
                           baseline=baseline)
            fresh = board(BACKEND, level=sl.level, domain=sl.domain, family=sl.family, dtype=sl.dtype,
                          baseline=baseline, from_results=True)
            assert stored.precomputed and not fresh.precomputed
            assert _numbers(stored.rows) == _numbers(fresh.rows), (sl, baseline)


def test_a_combination_nobody_precomputes_is_scored_on_request():
    from leaderboard.ranking import board

    seeded = seed_leaderboard()
    tasks = _tasks(family="activation", domain="language")
    assert 0 < len(tasks) < 58
    r = board(BACKEND, family="activation", domain="language")
    assert not r.precomputed and r.tasks == len(tasks)
    by_name = {x.name: x for x in r.rows}
    for name in ("alpha", "beta", "gamma"):
        want = _expected(seeded.outcomes[name], tasks)
        assert {k: by_name[name].summary[k] for k in want} == pytest.approx(want)


def test_a_result_landing_refreshes_its_rows_without_a_rebuild():
    """portal.evaluation.store is what the workers call: the board follows at once."""
    from evaluator.records import TaskResult, Timing
    from leaderboard.models import BoardEntry
    from leaderboard.ranking import board
    from portal.evaluation import store

    seeded = seed_leaderboard()
    beta = seeded.subs["beta"]
    before = {x.name: x for x in board(BACKEND).rows}["beta"].summary
    missing = [w for w in track_tasks("public") if w.id not in seeded.outcomes["beta"]][0]
    t = Timing(1e-3, 1e-3, 1e-3, 1e-3, 0.001, 10, 10)
    r = TaskResult(missing.id, BACKEND, "correct", times={"candidate": t, "tvm-default": t},
                   speedup={"tvm-default": 4.0}, level=missing.level, family=missing.family,
                   domains=list(missing.domains))
    assert store(beta, r)
    after = {x.name: x for x in board(BACKEND).rows}["beta"].summary
    assert after["correct"] == before["correct"] + 1
    assert after["fast@2.0"] == pytest.approx(before["fast@2.0"] + 1 / 58)
    assert after["attempted"] == before["attempted"] + 1
    # Its level and domain slices moved too, and the stored rows equal a scoring from the results.
    for sl in ({"level": missing.level}, {"domain": missing.domains[0]}):
        assert _numbers(board(BACKEND, **sl).rows) == _numbers(board(BACKEND, **sl, from_results=True).rows)
    assert not store(beta, r)  # a redelivered job's duplicate changes nothing
    assert BoardEntry.objects.filter(submission=beta, slice="").count() == 1


def test_rebuild_command_and_a_board_without_results():
    from django.core.management import call_command

    from leaderboard.models import BoardEntry
    from leaderboard.ranking import board

    seed_leaderboard()
    n = BoardEntry.objects.count()
    BoardEntry.objects.all().delete()
    out = io.StringIO()
    call_command("rebuild_boards", stdout=out)
    assert BoardEntry.objects.count() == n and "2 boards" in out.getvalue()
    assert [x.name for x in board("opencl").rows if x.kind == "submission"] == ["elsewhere"]


def _stored_boards() -> tuple[dict, dict]:
    """Every stored entry's numbers and every baseline sample, keyed by what identifies them."""
    from leaderboard.models import BaselineSample, BoardEntry

    entries = {(e.board.backend, e.track, e.slice, e.submission_id, e.baseline): (e.metrics, e.histogram)
               for e in BoardEntry.objects.select_related("board")}
    samples = {(s.board.backend, s.workload): (s.speedup, s.roofline_fraction, s.time_s, s.measured_at)
               for s in BaselineSample.objects.select_related("board")}
    return entries, samples


def test_a_rebuild_equals_landing_the_same_results_one_by_one():
    """The bulk rebuild (results read a board at a time) and the refresh a landing result does
    (only the slices holding its task) give the same entries and samples, to the last bit."""
    from leaderboard import aggregates, demo_data
    from leaderboard.models import BoardEntry
    from portal.models import Result

    spec = next(s for s in demo_data.DEMO_BOARDS if s.backend == BACKEND)
    demo_data.insert(3, [spec], seed=5, verified_every=2)  # 2 of 3 verified: public and verified runs tie
    results = list(Result.objects.order_by("id"))
    assert {r.track for r in results} == {"public", "verified"} and BoardEntry.objects.count() == 0
    for r in results:  # in the order they were stored, as the workers land them
        aggregates.result_landed(r)
    landed = _stored_boards()
    assert len(landed[0]) > 3 * 58 and landed[1]
    BoardEntry.objects.all().delete()
    aggregates.rebuild()
    assert _stored_boards() == landed


def test_a_landing_replaces_only_the_rows_of_slices_holding_its_task():
    """What keeps a landing cheap for writers and readers: the other slices' rows stay as stored."""
    from evaluator.records import TaskResult, Timing
    from leaderboard.models import BoardEntry
    from leaderboard.slices import slices_with
    from portal.evaluation import store

    seeded = seed_leaderboard()
    beta = seeded.subs["beta"]
    before = dict(BoardEntry.objects.filter(submission=beta, track="public").values_list("slice", "id"))
    # a task with no vendor call: alpha's newer vendor timings would keep the vendor row as it is
    w = [w for w in track_tasks("public") if w.id not in seeded.outcomes["beta"] and not w.has_vendor][0]
    t = Timing(1e-3, 1e-3, 1e-3, 1e-3, 0.001, 10, 10)
    assert store(beta, TaskResult(w.id, BACKEND, "correct", times={"candidate": t, "tvm-default": t},
                                  speedup={"tvm-default": 3.0}, level=w.level, family=w.family,
                                  domains=list(w.domains)))
    after = dict(BoardEntry.objects.filter(submission=beta, track="public").values_list("slice", "id"))
    assert after.keys() == before.keys()
    changed = {k for k in after if after[k] != before[k]}
    assert changed == slices_with("public")[w.id] and "" in changed and len(changed) < len(after)


def test_a_read_after_a_landing_decodes_only_the_replaced_rows():
    """Each process keeps the decoded entries it read; after a landing it fetches only the new
    rows of the slice it reads, and shows the new numbers."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from leaderboard.models import BoardEntry
    from leaderboard.ranking import board
    from portal.evaluation import store
    from evaluator.records import TaskResult, Timing

    seeded = seed_leaderboard()
    beta = seeded.subs["beta"]
    board(BACKEND)  # decodes the whole board once

    def slice_ids():
        return set(BoardEntry.objects.filter(track="public", slice="").values_list("id", flat=True))

    before = slice_ids()
    # a task with no vendor call: alpha's newer vendor timings would keep the vendor row as it is
    w = [w for w in track_tasks("public") if w.id not in seeded.outcomes["beta"] and not w.has_vendor][0]
    t = Timing(1e-3, 1e-3, 1e-3, 1e-3, 0.001, 10, 10)
    assert store(beta, TaskResult(w.id, BACKEND, "correct", times={"candidate": t, "tvm-default": t},
                                  speedup={"tvm-default": 3.0}, level=w.level, family=w.family,
                                  domains=list(w.domains)))
    # beta's row, and the baseline rows: its result is the task's newest baseline sample
    replaced = slice_ids() - before
    assert BoardEntry.objects.get(submission=beta, track="public", slice="").pk in replaced
    assert len(replaced) == 4 < len(before)
    with CaptureQueriesContext(connection) as ctx:
        rows = board(BACKEND).rows
    decoding = [q["sql"] for q in ctx.captured_queries if '"metrics"' in q["sql"]]
    assert len(decoding) == 1
    assert {int(i) for i in re.search(r'"id" IN \(([^)]*)\)', decoding[0])[1].split(",")} == replaced
    assert _numbers(rows) == _numbers(board(BACKEND, from_results=True).rows)
    assert {x.name: x for x in rows}["beta"].summary["correct"] == seeded.n_beta_correct + 1


# ----------------------------------------------------------------------------- filters and choices


def test_baseline_choice_and_fast_p():
    from leaderboard.ranking import board

    seeded = seed_leaderboard()
    tasks = _tasks()
    r = board(BACKEND, baseline="vendor", p=1.5)
    assert r.baseline_available and r.query.fast_key == "fast@1.5"
    rows = {x.name: x for x in r.rows}
    # alpha: 1.25x tvm-default, vendor is 2x tvm-default → alpha is 0.625x vendor where vendor exists.
    n_vendor = sum(1 for w in tasks if w.has_vendor)
    assert rows["alpha"].summary["geomean_correct"] == pytest.approx(0.625)
    assert rows["alpha"].summary["fast@0.5"] == pytest.approx(n_vendor / 58)
    assert rows["alpha"].summary["fast@1.5"] == 0.0
    # The vendor row is the reference now (1× on its tasks); tvm-default is 0.5× vendor.
    assert rows["vendor"].summary["geomean_correct"] == pytest.approx(1.0)
    assert rows["tvm-default"].summary["geomean_correct"] == pytest.approx(0.5)
    assert rows["tvm-default"].summary["correct@1"] == 1.0
    # Fast@1.5 against tvm-default: beta's 29 tasks at 2x.
    r = board(BACKEND, p=1.5)
    b = {x.name: x for x in r.rows}["beta"]
    assert b.summary["fast@1.5"] == pytest.approx(seeded.n_beta_correct / 58)
    assert b.domains["vision"] == pytest.approx(
        sum(1 for w in tasks if "vision" in w.domains and w.id in seeded.outcomes["beta"]
            and seeded.outcomes["beta"][w.id][0]) / sum(1 for w in tasks if "vision" in w.domains))


def test_tvm_tuned_is_said_to_be_absent_until_a_result_times_it():
    from leaderboard.aggregates import rebuild
    from leaderboard.ranking import board
    from portal.models import Result

    seed_leaderboard()
    r = board(BACKEND, baseline="tvm-tuned")
    assert not r.baseline_available
    assert any("no tvm-tuned results" in n for n in r.notices)
    assert [x.name for x in r.rows if x.kind == "baseline"] == ["tvm-default", "vendor"]
    for x in r.rows:
        assert x.summary["fast@1.0"] is None and x.summary["geomean_correct"] is None
        assert x.summary["correct@1"] is not None
    # Once one run timed tvm-tuned, the baseline exists: its row and the speedups against it.
    res = Result.objects.filter(submission__name="alpha", status="correct").first()
    res.record["speedup"]["tvm-tuned"] = 0.8
    res.save()
    rebuild()
    r = board(BACKEND, baseline="tvm-tuned")
    assert r.baseline_available and "tvm-tuned" in [x.name for x in r.rows if x.kind == "baseline"]
    alpha = {x.name: x for x in r.rows}["alpha"]
    assert alpha.summary["correct"] == 58 and alpha.summary["geomean_correct"] == pytest.approx(0.8)


@pytest.mark.parametrize("f", [{"family": "matmul"}, {"family": "model"}, {"dtype": "float32"}, {"level": "L2"},
                               {"domain": "recommendation"}])
def test_family_dtype_level_domain_filters(f):
    from leaderboard.ranking import board

    seeded = seed_leaderboard()
    tasks = _tasks(**f)
    r = board(BACKEND, **f)
    assert r.tasks == len(tasks) > 0
    for x in r.rows:
        want = _expected(seeded.outcomes[x.name], tasks)
        assert {k: x.summary[k] for k in want} == pytest.approx(want), (f, x.name)


def test_bad_filters_are_named():
    from leaderboard.ranking import parse_query

    q, errors = parse_query({"family": "nope", "dtype": "int3", "p": "1.1", "baseline": "numpy", "view": "x",
                             "track": "secret", "sort": "speed", "order": "up"})
    assert set(errors) == {"family", "dtype", "p", "baseline", "view", "track", "sort", "order"}
    assert "unknown family 'nope'" in errors["family"] and "0.5, 0.8, 1, 1.5, 2" in errors["p"]
    assert q.family is None and q.p == 1.0 and q.baseline == "tvm-default"


def test_sorting_keeps_ranks_and_puts_missing_values_last():
    from leaderboard.ranking import board

    seed_leaderboard()
    ranked = board(BACKEND).rows
    by_rank = [x.name for x in ranked]
    r = board(BACKEND, sort="correct", order="asc")
    assert [x.summary["correct@1"] for x in r.rows] == sorted(x.summary["correct@1"] for x in r.rows)
    assert {x.name: x.rank for x in r.rows} == {x.name: x.rank for x in ranked}  # rank is the ranking's
    r = board(BACKEND, sort="name")
    assert [x.name for x in r.rows] == sorted(by_rank)
    r = board(BACKEND, sort="roofline")  # seeded results carry no roofline: all None → rank order
    assert [x.name for x in r.rows] == by_rank


def test_best_and_latest_per_team():
    from django.utils import timezone

    from leaderboard.aggregates import rebuild
    from leaderboard.ranking import board
    from portal.models import Submission

    seeded = seed_leaderboard()
    alice = seeded.subs["alpha"].owner
    newer = make_submission(alice, "alpha-v2", created_at=timezone.now())
    for w in track_tasks("public"):
        add_result(newer, w, "correct", 1.1)
    rebuild()
    rows = board(BACKEND, view="all").rows
    assert {"alpha", "alpha-v2"} <= {x.name for x in rows}
    best = board(BACKEND, view="best").rows
    latest = board(BACKEND, view="latest").rows
    assert "alpha" in {x.name for x in best} and "alpha-v2" not in {x.name for x in best}
    assert "alpha-v2" in {x.name for x in latest} and "alpha" not in {x.name for x in latest}
    for view in (best, latest):
        owners = [x.owner for x in view if x.kind == "submission"]
        assert len(owners) == len(set(owners))
        assert [x.rank for x in view] == list(range(1, len(view) + 1))
        assert {x.name for x in view if x.kind == "baseline"} == {"tvm-default", "vendor"}
    assert Submission.objects.filter(owner=alice).count() == 2


# ----------------------------------------------------------------------------- public vs verified


def _verify(sub, outcome_of, hidden_ok: bool):

    for w in track_tasks("verified"):
        ok, s = outcome_of(w)
        if w.hidden:
            ok, s = hidden_ok, (s if hidden_ok else None)
        add_result(sub, w, "correct" if ok else "wrong_result", s if ok else None, track="verified")


def test_verified_board_ranks_verified_runs_over_every_workload():
    from leaderboard.aggregates import rebuild
    from leaderboard.ranking import board
    from portal.models import Submission

    seeded = seed_leaderboard()
    alpha, gamma = seeded.subs["alpha"], seeded.subs["gamma"]
    # alpha was shape-specialised: it fails every held-out workload; gamma holds up.
    _verify(alpha, lambda w: (True, 1.25), hidden_ok=False)
    _verify(gamma, lambda w: (True, 0.9), hidden_ok=True)
    Submission.objects.filter(pk__in=[alpha.pk, gamma.pk]).update(verification="finished")
    rebuild()
    n_all = len(track_tasks("verified"))
    r = board(BACKEND, track="verified")
    assert r.tasks == n_all > 58
    rows = {x.name: x for x in r.rows if x.kind == "submission"}
    assert set(rows) == {"alpha", "gamma"} and all(x.verified for x in rows.values())
    assert rows["alpha"].summary["correct"] == 58 and rows["gamma"].summary["correct"] == n_all
    # The public board is unchanged and marks them verified.
    pub = {x.name: x for x in board(BACKEND).rows}
    assert pub["alpha"].summary["tasks"] == 58 and pub["alpha"].verified and not pub["beta"].verified
    # A verification that has not finished ranks nothing.
    Submission.objects.filter(pk=gamma.pk).update(verification="running")
    assert {x.name for x in board(BACKEND, track="verified").rows if x.kind == "submission"} == {"alpha"}


def test_hidden_workloads_and_secret_seeds_never_appear(client, django_capture_on_commit_callbacks):
    from leaderboard.aggregates import rebuild
    from portal.evaluation import verification_seeds
    from portal.models import Submission

    seeded = seed_leaderboard()
    alpha = seeded.subs["alpha"]
    _verify(alpha, lambda w: (True, 1.25), hidden_ok=True)
    Submission.objects.filter(pk=alpha.pk).update(verification="finished")
    rebuild()
    held = [w for w in track_tasks("verified") if w.hidden]
    hidden = [w.id for w in held]
    # a held-out shape written as a public id would be (its tag is opaque, its parameters are not)
    shapes = [f"{w.pattern.id}@{tag_of(w.params)}" for w in held]
    seeds = [str(s) for s in verification_seeds(alpha.pk, BACKEND, 3)]
    pages = []
    for track in ("public", "verified"):
        for url in ("/", "/api/v1/leaderboard/", "/api/v1/leaderboard/export.csv", "/api/v1/leaderboard/export.json",
                    "/matrix/", f"/matrix/?submission={alpha.pk}", "/api/v1/leaderboard/matrix/"):
            resp = client.get(url, {"track": track})
            assert resp.status_code == 200, url
            pages.append((url, resp.content.decode()))
    for url in (f"/submissions/{alpha.pk}/", f"/api/v1/submissions/{alpha.pk}/",
                f"/submissions/{alpha.pk}/compare/?against=vendor", "/api/v1/tasks/", "/boards/"):
        pages.append((url, client.get(url).content.decode()))
    for url, body in pages:
        for h in hidden:
            for form in (h, h.split("@")[1]):
                assert form not in body, (url, h)
        for shape in shapes:
            assert shape not in body, (url, "a held-out shape")
        for s in seeds:
            assert not re.search(rf"\b{s}\b", body), (url, "a secret seed")
    assert client.get(f"/workloads/{hidden[0]}/").status_code == 404
    assert client.get(f"/submissions/{alpha.pk}/trace/{BACKEND}/{hidden[0]}/").status_code == 404


def test_staff_start_the_verified_run(django_capture_on_commit_callbacks):
    from rest_framework.test import APIClient

    from portal.models import Submission

    seeded = seed_leaderboard()
    api = APIClient()
    url = f"/api/v1/submissions/{seeded.subs['alpha'].pk}/verify/"
    api.force_authenticate(seeded.subs["alpha"].owner)
    assert api.post(url).status_code == 403  # not staff
    staff = make_user("staff")
    staff.is_staff = True
    staff.save()
    api.force_authenticate(staff)
    with django_capture_on_commit_callbacks() as callbacks:
        resp = api.post(url)
    assert resp.status_code == 202 and resp.json()["verification"] == "queued"
    assert len(callbacks) == 1
    assert Submission.objects.get(pk=seeded.subs["alpha"].pk).verification == "queued"
    assert api.post(url).status_code == 409  # already queued
    running = f"/api/v1/submissions/{seeded.subs['running'].pk}/verify/"
    resp = api.post(running)
    assert resp.status_code == 409 and "only a finished one" in resp.json()["detail"]


# ----------------------------------------------------------------------------- page = API = ranking


def _page_rows(body: str) -> list[list[str]]:
    table = body.split('<table class="board">', 1)[1].split("</table>", 1)[0]
    rows = []
    for tr in re.findall(r'<tr class="(?:submission|baseline)">(.*?)</tr>', table, re.S):
        cells = [html.unescape(re.sub(r"<[^>]+>", " ", c)).split() for c in re.findall(r"<td>(.*?)</td>", tr, re.S)]
        rows.append([" ".join(c) for c in cells])
    return rows


def _fmt(v, digits=3) -> str:
    return "–" if v is None else f"{v:.{digits}f}"


@pytest.mark.parametrize("query", [{}, {"level": "L1", "domain": "vision"}, {"baseline": "vendor", "p": "2"},
                                   {"family": "fused", "view": "best", "sort": "geomean_correct"},
                                   {"baseline": "tvm-tuned"}])
def test_page_api_and_exports_show_the_ranking_functions_numbers(client, query):
    from leaderboard.ranking import board, parse_query

    seed_leaderboard()
    q, errors = parse_query(query)
    assert not errors
    ranking = board(query=q)
    want = _rows_json(ranking)

    api = client.get("/api/v1/leaderboard/", query).json()
    assert api["rows"] == want and api["count"] == 3
    assert api["board"]["tasks"] == ranking.tasks and api["board"]["baseline"] == q.baseline

    exported = json.loads(client.get("/api/v1/leaderboard/export.json", query).content)
    assert exported["rows"] == want

    resp = client.get("/api/v1/leaderboard/export.csv", query)
    assert resp["Content-Type"].startswith("text/csv") and "attachment" in resp["Content-Disposition"]
    lines = list(csv.DictReader(io.StringIO(resp.content.decode())))
    assert [x["name"] for x in lines] == [x["name"] for x in want]
    for line, row in zip(lines, want):
        for k in ("correct@1", q.fast_key, "geomean_deployable"):
            v = row["summary"][k]
            assert (line[k] == "" if v is None else float(line[k]) == pytest.approx(v)), (k, line, row)

    page = _page_rows(client.get("/", query).content.decode())
    assert len(page) == len(want)
    for cells, row in zip(page, want):
        s = row["summary"]
        assert cells[0] == str(row["rank"]) and row["name"] in cells[1]
        assert cells[2:7] == [_fmt(s["correct@1"]), _fmt(s[q.fast_key]), _fmt(s["geomean_correct"]),
                              _fmt(s["geomean_deployable"]), _fmt(s["roofline_median"])]
        assert cells[7] == f"{s['attempted']}/{s['tasks']}"
        assert cells[8:] == [_fmt(row["domains"][d], 2) for d in sorted(row["domains"])]


def test_api_pages_and_bad_paging(client):
    from django.utils import timezone

    from leaderboard.aggregates import rebuild

    seed_leaderboard()
    owner = make_user("many")
    for i in range(4):
        make_submission(owner, f"empty-{i}", created_at=timezone.now() - timedelta(minutes=i))
        # a submission with no result has no entry: give each one result
    from portal.models import Submission

    for s in Submission.objects.filter(name__startswith="empty-"):
        add_result(s, track_tasks("public")[0], "compile_error")
    rebuild()
    full = client.get("/api/v1/leaderboard/", {"limit": 1000}).json()
    assert full["count"] == 7
    page = client.get("/api/v1/leaderboard/", {"offset": 2, "limit": 2}).json()
    subs = [r for r in full["rows"] if r["kind"] == "submission"]
    assert [r["name"] for r in page["rows"] if r["kind"] == "submission"] == [r["name"] for r in subs[2:4]]
    assert {r["name"] for r in page["rows"] if r["kind"] == "baseline"} == {"tvm-default", "vendor"}
    bad = client.get("/api/v1/leaderboard/", {"limit": 0})
    assert bad.status_code == 400 and "limit" in bad.json()
    bad = client.get("/api/v1/leaderboard/", {"family": "nope", "p": "3"})
    assert bad.status_code == 400 and set(bad.json()) == {"family", "p"}


def test_csv_export_defuses_spreadsheet_formulas(client):
    from leaderboard.aggregates import rebuild
    from portal.models import Submission

    seeded = seed_leaderboard()
    Submission.objects.filter(pk=seeded.subs["beta"].pk).update(name="=HYPERLINK(\"http://x\")")
    rebuild()
    body = client.get("/api/v1/leaderboard/export.csv").content.decode()
    assert "'=HYPERLINK" in body and "\n=HYPERLINK" not in body and ",=HYPERLINK" not in body


# ----------------------------------------------------------------------------- pages and plots


def test_board_page_controls_plots_and_links(client):
    seed_leaderboard()
    body = client.get("/", {"p": "1.5", "sort": "correct"}).content.decode()
    for plot in ("plot-speedups", "plot-correct-fast", "plot-domains"):
        assert f'id="{plot}"' in body
    assert '<script src="/static/vendor/plotly.min.js"></script>' in body
    assert "cdn" not in body.lower()
    assert "Fast@1.5" in body and 'class="better"' in body
    assert '<span class="sorted">▼</span>' in body  # sorted by Correct@1, best first
    # Every filter is offered, and baseline rows are marked.
    for name in ("level", "domain", "family", "dtype", "baseline", "p", "view"):
        assert f'name="{name}"' in body
    assert body.count('<span class="tag">baseline</span>') == 2
    assert "export.csv?" in body and "export.json?" in body
    # The scatter carries each row's Correct@1 and Fast@p.
    data = json.loads(re.search(r'Plotly.newPlot\(\s*"plot-correct-fast",\s*(\[.*?\]),\s*\{', body, re.S)[1])
    assert sorted(data[0]["x"]) == sorted([1.0, 0.5, 1.0])
    assert sorted(data[0]["y"]) == pytest.approx(sorted([0.0, 29 / 58, 0.0]))
    # Speedup distribution: alpha's 58 at 1.25, beta's 29 at 2, gamma's 58 at 0.9.
    hist = json.loads(re.search(r'Plotly.newPlot\(\s*"plot-speedups",\s*(\[.*?\]),\s*\{', body, re.S)[1])
    assert sum(hist[0]["y"]) == 58 + 29 + 58


def test_plotly_is_served_from_our_static_files():
    from django.contrib.staticfiles import finders

    found = finders.find("vendor/plotly.min.js")
    assert found and open(found, encoding="utf-8", errors="replace").read(200).lstrip().startswith("/**")


def test_matrix_for_a_submission_and_across_the_top(client):
    from leaderboard import matrix
    from leaderboard.ranking import board

    seeded = seed_leaderboard()
    beta = seeded.subs["beta"]
    data = matrix.for_submission(beta.pk)
    row = {x.name: x for x in board(BACKEND).rows}["beta"]
    assert [b["backend"] for b in data["boards"]] == [BACKEND]
    assert data["domains"][-1] == "all"
    assert data["z"][0] == pytest.approx([row.domains[d] for d in data["domains"][:-1]] + [row.summary["fast@1.0"]])
    top = matrix.across_top(2)
    best2 = [x for x in board(BACKEND).rows if x.kind == "submission"][:2]
    i = [b["backend"] for b in top["boards"]].index(BACKEND)
    assert top["z"][i][-1] == pytest.approx(sum(x.summary["fast@1.0"] for x in best2) / 2)
    assert "opencl" in [b["backend"] for b in top["boards"]]  # the other board has its own row
    page = client.get("/matrix/", {"submission": beta.pk}).content.decode()
    assert 'id="plot-matrix"' in page
    assert client.get("/api/v1/leaderboard/matrix/", {"submission": beta.pk}).json()["z"] == data["z"]
    assert client.get("/api/v1/leaderboard/matrix/", {"top": 2}).json()["z"] == top["z"]
    assert client.get("/matrix/", {"submission": seeded.subs["private"].pk}).status_code == 404


def test_workload_roofline_page(client):
    from leaderboard.aggregates import record_peak

    seeded = seed_leaderboard()
    w = next(w for w in track_tasks("public") if w.family == "matmul")
    n_correct = sum(1 for name in ("alpha", "beta", "gamma") if seeded.outcomes[name].get(w.id, (False,))[0])
    page = client.get(f"/workloads/{w.id}/").content.decode()
    assert "No measured peak" in page and "measure_peaks" in page
    record_peak(BACKEND, "", {"flops_per_s": 1e11, "bytes_per_s": 2e10, "method": "test"})
    page = client.get(f"/workloads/{w.id}/").content.decode()
    assert 'id="plot-roofline"' in page
    fig = json.loads(re.search(r'Plotly.newPlot\(\s*"plot-roofline",\s*(\[.*?\]),\s*\{', page, re.S)[1])
    roof = fig[0]
    assert max(roof["y"]) == pytest.approx(100.0)  # the compute roof in GFLOP/s
    subs = next(t for t in fig if t["name"] == "submissions")
    # Every seeded result ran in 1 ms: achieved = FLOP / 1 ms.
    assert subs["y"] == pytest.approx([w.flops / 1e-3 / 1e9] * n_correct)
    assert client.get("/workloads/nope/nope@x/").status_code == 404


def test_measure_peaks_command_stores_the_backends_peak():
    from django.core.management import call_command

    from leaderboard.models import BackendPeak

    out = io.StringIO()
    call_command("measure_peaks", "--backend", "cpu-llvm", stdout=out)
    p = BackendPeak.objects.get(backend="cpu-llvm")
    assert p.flops_per_s > 1e8 and p.bytes_per_s > 1e8 and p.device
    assert "GFLOP/s" in out.getvalue()
    with pytest.raises(Exception, match="unavailable|no peak"):
        call_command("measure_peaks", "--backend", "cuda")


def test_seed_boards_command_fills_several_boards(client):
    from django.core.management import call_command

    from leaderboard.ranking import boards

    call_command("seed_boards", "--submissions", "4", "--boards", "2", stdout=io.StringIO())
    got = boards()
    assert len(got) == 2 and all(b["submissions"]["public"] == 4 and b["peak"] for b in got)
    assert client.get("/boards/").status_code == 200


# ----------------------------------------------------------------------------- submission page


def test_submission_page_breakdowns_failures_and_comparison(client):
    from leaderboard.ranking import board

    seeded = seed_leaderboard()
    beta = seeded.subs["beta"]
    body = html.unescape(client.get(f"/submissions/{beta.pk}/").content.decode())
    rows = board(BACKEND).rows
    row = {x.name: x for x in rows}["beta"]
    assert f"Summary on {BACKEND}" in re.sub(r"<[^>]+>", "", body)
    # its place on the board, as the ranking function gives it
    assert f"Rank <strong>{row.rank}</strong> of {len(rows)}" in body and row.rank > 1
    assert f"<td>{row.summary['correct@1']:.3f}</td>" in body
    assert "level L3" in body and "domain vision" in body
    assert "Failures: 3 wrong_result" in body
    assert 'class="reason-kind"' in body
    # alpha vs gamma: 1.25 / 0.9 on every task
    alpha, gamma = seeded.subs["alpha"], seeded.subs["gamma"]
    page = client.get(f"/submissions/{alpha.pk}/compare/", {"against": gamma.pk}).content.decode()
    assert "<strong>58</strong> tasks compared" in page and f"<strong>{1.25 / 0.9:.3f}</strong>" in page
    page = client.get(f"/submissions/{alpha.pk}/compare/", {"against": "vendor"}).content.decode()
    n_vendor = sum(1 for w in _tasks() if w.has_vendor)
    assert f"<strong>{n_vendor}</strong> tasks compared" in page and "<strong>0.625</strong>" in page
    assert client.get(f"/submissions/{alpha.pk}/compare/", {"against": seeded.subs["private"].pk}).status_code == 200
    assert "no submission" in client.get(f"/submissions/{alpha.pk}/compare/",
                                         {"against": seeded.subs["private"].pk}).content.decode()



def test_an_emulated_boards_compare_page_shows_no_time_and_no_ratio(client):
    """Its results are real, its times the emulator's: the page says so and compares nothing."""
    from evaluator.backends import rpc
    from portal.models import Result

    owner = make_user("emu")
    sub = make_submission(owner, "on-qemu", backends=("rpc:qemu-a64",))
    for w in _tasks()[:3]:
        add_result(sub, w, "correct", 3.0, backend="rpc:qemu-a64")
    Result.objects.filter(submission=sub).update(device=rpc.emulated_device("aarch64"))
    page = client.get(f"/submissions/{sub.pk}/compare/", {"backend": "rpc:qemu-a64"}).content.decode()
    assert "times emulated" in page and "<strong>0</strong> tasks compared" in page
    assert "<td>3.00</td>" not in page and "<td>1.000</td>" not in page  # neither the ratio nor the time
    # the same results on a board that is not emulated are compared
    Result.objects.filter(submission=sub).update(device="a real board")
    page = client.get(f"/submissions/{sub.pk}/compare/", {"backend": "rpc:qemu-a64"}).content.decode()
    assert "times emulated" not in page and "<strong>3</strong> tasks compared" in page
    assert "<td>3.00</td>" in page and "<td>1.000</td>" in page

def test_failure_reasons_group_alike_failures():
    from portal.views import failure_groups

    class R:
        def __init__(self, status, reason):
            self.status, self.reason = status, reason

    groups = failure_groups([R("compile_error", "schedule error: loop i_1 is not found"),
                             R("compile_error", "schedule error: block C has no loop j"),
                             R("compile_error", "build error: x"), R("timeout", "build exceeded the 60 s limit"),
                             R("correct", "")])
    assert groups[0] == {"status": "compile_error", "count": 3, "reasons": [("schedule error", 2), ("build error", 1)]}
    assert groups[1]["reasons"] == [("build exceeded the N s limit", 1)]


def test_escape_submission_names_everywhere(client):
    from leaderboard.aggregates import rebuild
    from portal.models import Submission

    seeded = seed_leaderboard()
    evil = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    Submission.objects.filter(pk=seeded.subs["beta"].pk).update(name=evil[:64])
    rebuild()
    for url in ("/", "/matrix/", f"/submissions/{seeded.subs['beta'].pk}/",
                f"/submissions/{seeded.subs['alpha'].pk}/compare/?against={seeded.subs['beta'].pk}"):
        body = client.get(url).content.decode()
        assert "<script>alert" not in body and "<img src=x" not in body, url
    body = client.get("/").content.decode()
    assert "&lt;script&gt;alert" in body  # the table shows it as text
    # Plot labels are HTML-escaped too (plotly draws a subset of HTML in labels), inside JSON
    # that escapes < and > itself.
    scatter = re.search(r'Plotly.newPlot\(\s*"plot-correct-fast",\s*(\[.*?\]),\s*\{', body, re.S)[1]
    assert "<" not in scatter and any("&lt;script&gt;" in t for t in json.loads(scatter)[0]["text"])
