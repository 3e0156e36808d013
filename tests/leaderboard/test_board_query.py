"""A board's query parameters: one serializer (``leaderboard.ranking.BoardQuerySerializer``) reads
them for the pages and the API, names each bad one, and documents them in the API schema."""

from __future__ import annotations

import html

import pytest
from drf_spectacular.generators import SchemaGenerator

from leaderboard.ranking import BASELINES, FAST_P, SORTS, TRACKS, VIEWS, BoardQuery, BoardQuerySerializer
from portal_helpers import BACKEND, seed_leaderboard

pytestmark = pytest.mark.django_db

BOARD_PARAMETERS = {"backend", "device", "track", "level", "domain", "family", "dtype", "baseline", "p", "view",
                    "sort", "order"}


def test_good_parameters_apply_and_each_bad_one_falls_back_to_its_default():
    q, errors = BoardQuerySerializer.parse({"level": " L1 ", "domain": "nope", "p": "2", "view": "best",
                                            "sort": "name", "order": "sideways"})
    assert q == BoardQuery(backend=BACKEND, level="L1", p=2.0, view="best", sort="name")
    assert errors == {"domain": errors["domain"], "order": "unknown order 'sideways'; known: asc, desc"}
    assert errors["domain"].startswith("unknown domain 'nope'; known: ") and "vision" in errors["domain"]


def test_blank_parameters_are_defaults():
    q, errors = BoardQuerySerializer.parse({"level": "", "domain": "  ", "p": "", "order": "", "device": ""})
    assert errors == {} and q == BoardQuery(backend=BACKEND)


@pytest.mark.parametrize("p", ["1.1", "x", "nan", "1e400"])
def test_p_is_one_of_the_fast_p_thresholds(p):
    q, errors = BoardQuerySerializer.parse({"p": p})
    assert errors == {"p": f"p must be one of 0.5, 0.8, 1, 1.5, 2; got {p!r}"} and q.p == 1.0
    assert BoardQuerySerializer.parse({"p": "0.80"})[0].p == 0.8


def test_a_device_is_checked_on_the_backend_that_applies():
    seed_leaderboard()
    q, errors = BoardQuerySerializer.parse({"backend": BACKEND, "device": ""})
    assert not errors and q.device is None  # the backend's most recent board
    q, errors = BoardQuerySerializer.parse({"backend": "cuda", "device": "jetson"})
    # the backend falls back to the default, and the device is not one of its boards
    assert q.backend == BACKEND and q.device is None
    assert errors["backend"].startswith("unknown backend 'cuda'; known: ") and BACKEND in errors["backend"]
    assert errors["device"] == f"no board for device 'jetson' on {BACKEND}"
    assert list(errors) == ["backend", "device"]  # in the order of the parameters
    assert "device" in BoardQuerySerializer.parse({"device": "x" * 300})[1]


def test_the_api_answers_400_naming_each_bad_parameter(client):
    query = {"track": "secret", "p": "3", "family": "nope"}
    _, errors = BoardQuerySerializer.parse(query)
    for url in ("/api/v1/leaderboard/", "/api/v1/leaderboard/export.csv", "/api/v1/leaderboard/export.json"):
        resp = client.get(url, query)
        assert resp.status_code == 400 and resp.json() == {k: [v] for k, v in errors.items()}
    assert set(errors) == {"track", "p", "family"}


def test_the_page_shows_the_problems_and_the_board_of_the_good_parameters(client):
    seed_leaderboard()
    page = html.unescape(client.get("/", {"level": "L3", "baseline": "numpy", "p": "9"}).content.decode())
    assert "unknown baseline 'numpy'; known: tvm-default, tvm-tuned, vendor" in page
    assert "p must be one of 0.5, 0.8, 1, 1.5, 2; got '9'" in page
    assert "2 tasks on this board" in page  # level L3 still applies


def test_the_schema_documents_the_board_parameters():
    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    for path, extra in (("/api/v1/leaderboard/", {"offset", "limit"}), ("/api/v1/leaderboard/export.{fmt}", set())):
        params = {p["name"]: p["schema"] for p in paths[path]["get"]["parameters"] if p["in"] == "query"}
        assert set(params) == BOARD_PARAMETERS | extra, path
        assert params["track"]["enum"] == list(TRACKS) and params["baseline"]["enum"] == list(BASELINES)
        assert params["p"]["enum"] == list(FAST_P) and params["p"]["type"] == "number"
        assert params["view"]["enum"] == list(VIEWS) and set(params["sort"]["enum"]) == set(SORTS)
        assert params["level"]["enum"] == ["L1", "L2", "L3"] and "vision" in params["domain"]["enum"]
        # the backends known when the schema is read: a backend outside them is a 400
        assert params["backend"]["enum"] == [BACKEND]
