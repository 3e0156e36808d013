"""The verified track scores generalisation, end to end: a pattern-level layered-trace bundle is
uploaded through the API, evaluated by a real ``celery worker`` through the real Redis broker,
then verified (staff) on the public and the held-out shapes drawn from the deployment's secret;
its held-out results are correct and its generalisation shows on the board, the API and the
exports — as a share, never with a held-out id."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from portal_helpers import BACKEND, make_user, token_client, upload, wait_for, zip_bytes

pytestmark = pytest.mark.usefixtures("isolated_media", "fresh_throttle_cache")

ROOT = Path(__file__).resolve().parents[2]
SCHEDULE = ROOT / "examples" / "bundles" / "hand-tuned" / "schedules" / "matmul__matmul--m256n256k256.json"
PATTERN = "matmul/matmul"


def _pattern_bundle() -> bytes:
    manifest = {"schema": "edgekernelbench/bundle@1", "name": "matmul-for-every-shape",
                "entries": [{"pattern": PATTERN, "backend": BACKEND, "format": "layered-trace",
                             "file": "matmul.json"}]}
    return zip_bytes({"manifest.json": json.dumps(manifest), "matmul.json": SCHEDULE.read_text()})


@pytest.mark.django_db(transaction=True)
def test_a_pattern_level_bundle_is_verified_on_held_out_shapes_by_a_real_worker(workers, broker, client):
    from rest_framework.test import APIClient

    from leaderboard.slices import track_tasks
    from portal.models import Result, Submission

    workers.start()
    resp = token_client(make_user("alice")).post("/api/v1/submissions/", {"bundle": upload(_pattern_bundle())},
                                                 format="multipart")
    assert resp.status_code == 201, resp.content
    sub_id = resp.json()["id"]
    sub = wait_for(lambda: Submission.objects.filter(pk=sub_id, state__in=Submission.TERMINAL).first(),
                   timeout=300, what=f"submission {sub_id} to finish", logs=workers.logs)
    assert sub.state == Submission.State.FINISHED, f"{sub.state}: {sub.error}\n{workers.logs()}"
    public = {r.workload: r for r in Result.objects.filter(submission=sub, track=Result.PUBLIC)
              if r.workload.startswith(PATTERN + "@")}
    assert public and all(r.status == "correct" for r in public.values()), {w: r.reason for w, r in public.items()}

    staff = make_user("staff")
    staff.is_staff = True
    staff.save()
    api = APIClient()
    api.force_authenticate(staff)
    assert api.post(f"/api/v1/submissions/{sub_id}/verify/").status_code == 202
    sub = wait_for(lambda: Submission.objects.filter(pk=sub_id, verification__in=("finished", "failed")).first(),
                   timeout=600, what=f"submission {sub_id}'s verified run", logs=workers.logs)
    assert sub.verification == "finished", workers.logs()

    held = [w for w in track_tasks(Result.VERIFIED) if w.hidden and w.pattern.id == PATTERN]
    assert held, "the tests' secret draws at least one held-out matmul"
    verified = {r.workload: r for r in Result.objects.filter(submission=sub, track=Result.VERIFIED)}
    for w in held:
        r = verified[w.id]
        assert r.hidden and r.status == "correct", (r.status, r.reason)
    # every other pattern has no entry: missing, and not counted in generalisation
    assert {r.status for wid, r in verified.items() if not wid.startswith(PATTERN + "@")} == {"missing"}

    # the generalisation share (1 pattern of 1) on the verified board, the API and both exports
    rows = client.get("/api/v1/leaderboard/", {"track": "verified"}).json()["rows"]
    mine = [r for r in rows if r["kind"] == "submission" and r["submission_id"] == sub_id]
    assert mine and mine[0]["summary"]["generalisation"] == 1.0, mine
    assert mine[0]["summary"]["generalisation_patterns"] == 1
    page = client.get("/", {"track": "verified"}).content.decode()
    assert "generalisation" in page.lower()
    csv_text = client.get("/api/v1/leaderboard/export.csv", {"track": "verified"}).content.decode()
    assert "generalisation" in csv_text.splitlines()[0]
    exported = client.get("/api/v1/leaderboard/export.json", {"track": "verified"}).content.decode()
    assert '"generalisation": 1.0' in exported
    for body in (page, csv_text, exported, json.dumps(rows)):
        for w in held:
            assert w.id not in body and w.id.split("@")[1] not in body

