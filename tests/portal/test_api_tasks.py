"""GET /api/v1/tasks/ (the public workloads, never a hidden one) and the OpenAPI schema/docs."""

from __future__ import annotations

import pytest
import yaml


@pytest.fixture
def api():
    from rest_framework.test import APIClient

    return APIClient()


def test_tasks_lists_every_served_workload_and_no_hidden_one(api):
    from django.conf import settings

    from evaluator import suite

    resp = api.get("/api/v1/tasks/")
    assert resp.status_code == 200
    tasks = resp.json()
    listed = [t["workload"] for t in tasks]
    assert len(listed) == len(set(listed))

    everything = suite.workloads(include_hidden=True)
    served = suite.served(settings.EKB_TASKS)  # the deployment's selection (tests: see conftest)
    hidden = {w.id for w in everything if w.hidden}
    assert hidden, "the suite is expected to hold hidden workloads"
    assert set(listed) == {w.id for w in served}
    assert not set(listed) & hidden
    assert all(t["hidden"] is False for t in tasks)

    # Each row describes its workload as the suite does.
    by_id = {t["workload"]: t for t in tasks}
    for w in served:
        row = by_id[w.id]
        assert (row["level"], row["family"], row["dtype"]) == (w.level, w.family, w.dtype)
        assert row["domains"] == list(w.domains)
        assert row["flops"] == w.flops and row["bytes"] == w.bytes
        assert row["vendor"] == w.has_vendor
        assert [i["name"] for i in row["inputs"]] == [t.name for t in w.inputs]


def test_tasks_are_read_only(api):
    assert api.post("/api/v1/tasks/", {}).status_code in (401, 403, 405)


@pytest.mark.django_db  # the schema lists the backends with a board
def test_openapi_schema_documents_the_api(api):
    resp = api.get("/api/v1/schema/")
    assert resp.status_code == 200
    doc = yaml.safe_load(resp.content)
    assert str(doc["openapi"]).startswith("3.")
    assert doc["info"]["title"] == "EdgeKernelBench Portal API"
    paths = doc["paths"]
    for p in ("/api/v1/submissions/", "/api/v1/submissions/{id}/", "/api/v1/tasks/", "/api/v1/leaderboard/"):
        assert p in paths, f"{p} missing from the schema: {sorted(paths)}"
    create = paths["/api/v1/submissions/"]["post"]
    assert "multipart/form-data" in create["requestBody"]["content"]
    assert "201" in create["responses"]
    # Token authentication is documented as a security scheme.
    schemes = doc["components"]["securitySchemes"]
    assert any(s.get("type") == "apiKey" and s.get("name") == "Authorization" for s in schemes.values()), schemes
    params = {p["name"] for p in paths["/api/v1/leaderboard/"]["get"].get("parameters", [])}
    assert {"backend", "level", "domain"} <= params


@pytest.mark.django_db  # the schema lists the backends with a board
def test_openapi_schema_as_json(api):
    resp = api.get("/api/v1/schema/", {"format": "json"})
    assert resp.status_code == 200
    assert resp.json()["openapi"].startswith("3.")


def test_api_docs_page(api):
    resp = api.get("/api/docs/")
    assert resp.status_code == 200
    assert b"swagger" in resp.content.lower()
    assert b"/api/v1/schema/" in resp.content
