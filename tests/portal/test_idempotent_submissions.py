"""POST /api/v1/submissions/ with an Idempotency-Key: a retried request (its answer lost to a
portal restart or a network error: bench/soak.py's portal-restart fault made a second submission
so) gets the first submission back and makes nothing else: no row, no stored archive, no job.
Keys are the owner's; a key reused for another bundle is a 409; a bad one is refused by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from portal_helpers import (QUEUE, RELU_DEFAULT, SOFTMAX_HAND_TUNED, bundle_zip, make_user, media_files, queued_jobs,
                            token_client, upload)

pytestmark = [pytest.mark.usefixtures("isolated_media", "fresh_throttle_cache"), pytest.mark.django_db]

URL = "/api/v1/submissions/"
KEY = "ekb-7f3a9c1e-retry-safe"


def _post(client, data: bytes, key: str | None = KEY, **fields):
    headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
    return client.post(URL, {"bundle": upload(data), **fields}, format="multipart", **headers)


def test_a_retried_upload_gets_the_first_submission_back_and_makes_nothing_else(
        broker, django_capture_on_commit_callbacks):
    from portal.models import Submission

    alice = token_client(make_user("alice"))
    data = bundle_zip(RELU_DEFAULT)
    with django_capture_on_commit_callbacks(execute=True):
        first = _post(alice, data)
    assert first.status_code == 201, first.content
    assert "Idempotent-Replayed" not in first.headers
    with django_capture_on_commit_callbacks(execute=True) as again:
        second = _post(alice, data)
    assert second.status_code == 200 and second.headers["Idempotent-Replayed"] == "true"
    assert second.json()["id"] == first.json()["id"]
    assert Submission.objects.count() == 1 and len(media_files()) == 1
    assert again == [] and queued_jobs(broker) == [("portal.evaluate", [first.json()["id"], "cpu-llvm"])]
    assert broker.llen(QUEUE) == 1
    # a key names one submission: another bundle under it is a conflict, and makes nothing
    other = _post(alice, bundle_zip(SOFTMAX_HAND_TUNED))
    assert other.status_code == 409 and f"used for submission {first.json()['id']}" in other.json()["detail"]
    assert Submission.objects.count() == 1 and len(media_files()) == 1
    # a malformed repeat is refused as any request is, before anything is looked up for it
    bad = alice.post(URL, {}, format="multipart", HTTP_IDEMPOTENCY_KEY=KEY)
    assert bad.status_code == 400 and "bundle" in bad.json()


def test_without_a_key_or_with_another_each_upload_is_a_submission():
    from portal.models import Submission

    alice = token_client(make_user("alice"))
    data = bundle_zip(RELU_DEFAULT)
    assert _post(alice, data, key=None).status_code == 201
    assert _post(alice, data, key=None).status_code == 201
    assert _post(alice, data, key="another-key").status_code == 201
    assert Submission.objects.count() == 3
    assert sorted(Submission.objects.values_list("idempotency_key", flat=True)) == ["", "", "another-key"]


def test_keys_are_the_owners_own():
    from portal.models import Submission

    data = bundle_zip(RELU_DEFAULT)
    a = _post(token_client(make_user("alice")), data)
    b = _post(token_client(make_user("bob")), data)
    assert a.status_code == b.status_code == 201 and a.json()["id"] != b.json()["id"]
    assert Submission.objects.count() == 2


@pytest.mark.parametrize("key, why", [
    ("", "got 0 characters"),
    ("x" * 65, "got 65 characters"),
    ("has space", "'has space'"),
    ("semi;colon", "'semi;colon'"),
])
def test_a_bad_key_is_400_naming_the_header_and_stores_nothing(key, why):
    from portal.models import Submission

    resp = _post(token_client(make_user("alice")), bundle_zip(RELU_DEFAULT), key=key)
    assert resp.status_code == 400
    (message,) = resp.json()["Idempotency-Key"]
    assert "1-64 letters, digits" in message and why in message
    assert Submission.objects.count() == 0 and media_files() == []


def test_a_replay_is_answered_even_over_the_daily_quota(settings):
    """The quota counts submissions made: a replay makes none, so it is never refused for it."""
    settings.EKB_DAILY_SUBMISSIONS = 1
    alice = token_client(make_user("alice"))
    first = _post(alice, bundle_zip(RELU_DEFAULT))
    assert first.status_code == 201
    assert _post(alice, bundle_zip(RELU_DEFAULT), key="a-new-one").status_code == 429
    replay = _post(alice, bundle_zip(RELU_DEFAULT))
    assert replay.status_code == 200 and replay.json()["id"] == first.json()["id"]


def test_a_second_store_under_one_key_is_refused_by_the_database_and_leaves_no_archive():
    """What two concurrent requests with one key meet: the unique constraint, not a check that
    both could pass; the loser's archive is removed with its row."""
    from django.db import IntegrityError, transaction

    from portal.models import Submission
    from portal.submissions import create_submission

    alice = make_user("alice")
    create_submission(alice, upload(bundle_zip(RELU_DEFAULT)), enqueue=False, idempotency_key=KEY)
    kept = media_files()
    with pytest.raises(IntegrityError), transaction.atomic():
        create_submission(alice, upload(bundle_zip(SOFTMAX_HAND_TUNED)), enqueue=False, idempotency_key=KEY)
    assert Submission.objects.count() == 1
    assert media_files() == kept and all(Path(p).exists() for p in kept)
