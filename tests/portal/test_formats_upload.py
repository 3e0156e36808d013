"""The format registry through the API: an upload whose entry names a format its backend cannot
build is refused before anything is stored (the registry itself: tests/evaluator/test_formats.py)."""

from __future__ import annotations

import json

import pytest

from portal_helpers import EXAMPLES, make_user, token_client, upload, zip_bytes


def _cuda_entry(backend: str) -> tuple[dict, dict[str, str]]:
    """The shipped CUDA matmul entry, moved to ``backend``."""
    doc = json.loads((EXAMPLES / "cuda-source" / "manifest.json").read_text())
    entry = dict(next(e for e in doc["entries"] if e["workload"] == "matmul/matmul@m256n256k256"))
    entry["backend"] = backend
    return entry, {entry["file"]: (EXAMPLES / "cuda-source" / entry["file"]).read_text()}


@pytest.mark.django_db
def test_upload_of_a_format_its_backend_cannot_build_is_400(tmp_path, settings):
    """Through the API: the upload names the entry and the format, and nothing is stored."""
    from portal.models import Submission

    settings.MEDIA_ROOT = tmp_path / "media"
    entry, files = _cuda_entry("cpu-llvm")
    data = zip_bytes({"manifest.json": json.dumps({"schema": "edgekernelbench/bundle@1", "name": "x",
                                                   "entries": [entry]}), **files})
    resp = token_client(make_user("alice")).post("/api/v1/submissions/", {"bundle": upload(data)}, format="multipart")
    assert resp.status_code == 400, resp.content
    assert "does not take the 'cuda-source' format" in " ".join(resp.json()["bundle"])
    assert Submission.objects.count() == 0
