"""GET /api/v1/leaderboard/: the same rows, in the same order, as leaderboard.ranking.board()."""

from __future__ import annotations

import json

import pytest

from portal_helpers import BACKEND, seed_leaderboard, served_tasks

pytestmark = pytest.mark.django_db

URL = "/api/v1/leaderboard/"


@pytest.fixture
def api():
    from rest_framework.test import APIClient

    return APIClient()


def _board_json(*args) -> list[dict]:
    from leaderboard.ranking import board

    return json.loads(json.dumps([r.to_json() for r in board(*args).rows]))


def test_leaderboard_matches_board(api):
    seed_leaderboard()
    resp = api.get(URL, {"backend": BACKEND})
    assert resp.status_code == 200
    rows = resp.json()["rows"]
    assert rows == _board_json(BACKEND)
    assert [r["name"] for r in rows] == ["alpha", "tvm-default", "vendor", "beta", "gamma"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5]
    assert {r["name"]: r["kind"] for r in rows}["vendor"] == "baseline"
    beta = next(r for r in rows if r["name"] == "beta")
    assert beta["summary"]["correct@1"] == 0.5 and beta["summary"]["tasks"] == 58
    assert beta["owner"] == "bob" and isinstance(beta["submission_id"], int)
    # The backend defaults to cpu-llvm.
    assert api.get(URL).json()["rows"] == rows


@pytest.mark.parametrize("query,args", [
    ({"level": "L3"}, (BACKEND, "L3", None)),
    ({"domain": "audio"}, (BACKEND, None, "audio")),
    ({"level": "L1", "domain": "vision"}, (BACKEND, "L1", "vision")),
])
def test_leaderboard_narrowed(api, query, args):
    seed_leaderboard()
    resp = api.get(URL, {"backend": BACKEND, **query})
    assert resp.status_code == 200
    rows = resp.json()["rows"]
    assert rows == _board_json(*args)
    level, domain = args[1], args[2]
    sliced = [w for w in served_tasks() if (not level or w.level == level) and (not domain or domain in w.domains)]
    assert 0 < len(sliced) < 58
    assert {r["summary"]["tasks"] for r in rows} == {len(sliced)}
    assert all(set(r["domains"]) == {d for w in sliced for d in w.domains} for r in rows)
    if level == "L3":
        assert next(r for r in rows if r["name"] == "beta")["summary"]["correct"] == 0


@pytest.mark.parametrize("query,field,named", [
    ({"domain": "nope"}, "domain", "nope"),
    ({"level": "L9"}, "level", "L9"),
    ({"backend": "cuda"}, "backend", "cuda"),
])
def test_leaderboard_bad_query_is_400_naming_it(api, query, field, named):
    resp = api.get(URL, query)
    assert resp.status_code == 400
    body = resp.json()
    assert field in body and named in " ".join(body[field]), body


def test_empty_leaderboard_has_the_baselines(api):
    rows = api.get(URL).json()["rows"]
    assert [(r["name"], r["kind"], r["rank"]) for r in rows] == [("tvm-default", "baseline", 1),
                                                                  ("vendor", "baseline", 2)]
