"""The browser pages: leaderboard, submit form, submission page, API token, sign-up/log-in."""

from __future__ import annotations

import html

import pytest

from portal_helpers import (RELU_DEFAULT, bundle_zip, make_user, manifest, media_files, seed_leaderboard, served_tasks,
                            upload, zip_bytes)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("isolated_media")]


def _text(resp) -> str:
    return html.unescape(resp.content.decode())


def test_board_page_renders_ranked_rows_and_baselines(client):
    seeded = seed_leaderboard()
    resp = client.get("/")
    assert resp.status_code == 200
    page = _text(resp)
    assert page.count('<span class="tag">baseline</span>') == 2
    # Rows in the order the ranking gives, each submission linking to its page.
    marks = ['>alpha</a>', '<span class="tag">baseline</span> tvm-default', '<span class="tag">baseline</span> vendor',
             '>beta</a>', '>gamma</a>']
    positions = [page.index(m) for m in marks]
    assert positions == sorted(positions)
    for name in ("alpha", "beta", "gamma"):
        assert f'href="/submissions/{seeded.subs[name].pk}/"' in page
    ranked = page[page.index('<table class="board">'):]
    for name in ("private", "running", "elsewhere"):
        assert f'href="/submissions/{seeded.subs[name].pk}/"' not in ranked
    # the running one is listed above the board as being evaluated, with its progress per backend
    strip = page[page.index("Being evaluated:"):page.index('<table class="board">')]
    assert f'<a href="/submissions/{seeded.subs["running"].pk}/">running</a> (<code>cpu-llvm</code> 58/58)' in strip
    assert f'href="/submissions/{seeded.subs["private"].pk}/"' not in strip
    assert "58 tasks on this board" in page


def test_board_page_narrowed_and_bad_filters(client):
    seed_leaderboard()
    page = _text(client.get("/", {"level": "L3"}))
    assert "2 tasks on this board" in page
    page = _text(client.get("/", {"level": "L9", "domain": "nope"}))
    assert "unknown level 'L9'" in page and "unknown domain 'nope'" in page
    assert "58 tasks on this board" in page  # bad filters fall back to the whole board


def test_submit_redirects_anonymous_users_to_log_in(client):
    resp = client.get("/submit/")
    assert resp.status_code == 302
    assert resp["Location"] == "/accounts/login/?next=/submit/"
    resp = client.post("/submit/", {"bundle": upload(bundle_zip(RELU_DEFAULT))})
    assert resp.status_code == 302 and resp["Location"].startswith("/accounts/login/")
    assert media_files() == []


def test_upload_through_the_form_creates_a_submission(client, django_capture_on_commit_callbacks):
    from portal.models import Submission

    alice = make_user("alice")
    client.force_login(alice)
    assert client.get("/submit/").status_code == 200
    data = bundle_zip(RELU_DEFAULT, name="from-the-form")
    with django_capture_on_commit_callbacks() as callbacks:
        resp = client.post("/submit/", {"bundle": upload(data), "name": "web upload", "description": "via the page",
                                        "public": "on"})
    sub = Submission.objects.get()
    assert resp.status_code == 302 and resp["Location"] == f"/submissions/{sub.pk}/"
    assert (sub.owner, sub.name, sub.description, sub.public, sub.state) == (alice, "web upload", "via the page",
                                                                             True, "queued")
    assert sub.backends == ["cpu-llvm"] and sub.tasks_total == 58
    assert len(callbacks) == 1  # its job is queued once the row is committed
    assert len(media_files()) == 1 and media_files()[0].read_bytes() == data

    page = _text(client.get(resp["Location"]))
    assert "web upload" in page and "queued" in page and "Progress: 0 / 58 tasks" in page
    assert '<meta http-equiv="refresh"' in page  # follows the evaluation until it is done


def test_malformed_upload_rerenders_the_form_with_the_error(client, django_capture_on_commit_callbacks):
    from portal.models import Submission

    client.force_login(make_user("alice"))
    bad = zip_bytes({"manifest.json": manifest([{"workload": "matmul/matmul@m7n7k7", "backend": "cpu-llvm",
                                                 "format": "layered-trace", "file": "kernels/k.json"}]),
                     "kernels/k.json": "{}"})
    with django_capture_on_commit_callbacks() as callbacks:
        resp = client.post("/submit/", {"bundle": upload(bad), "name": "bad one"})
    assert resp.status_code == 200
    page = _text(resp)
    assert "Submit a bundle" in page and 'class="errorlist' in page
    assert "unknown workload 'matmul/matmul@m7n7k7'" in page
    assert Submission.objects.count() == 0 and media_files() == [] and callbacks == []

    resp = client.post("/submit/", {"bundle": upload(b"plain text", "notes.txt"), "name": "txt"})
    assert resp.status_code == 200
    assert "'notes.txt': a bundle must be a .zip or .tar.gz archive" in _text(resp)
    assert Submission.objects.count() == 0 and media_files() == []


def test_submission_page_shows_results_and_hides_private_ones(client):
    from django.contrib.auth import get_user_model

    from evaluator import suite

    seeded = seed_leaderboard()
    beta = seeded.subs["beta"]
    page = _text(client.get(f"/submissions/{beta.pk}/"))
    assert "beta" in page and "by bob" in page
    assert "Failures: 3 wrong_result" in page
    assert served_tasks()[0].id in page
    hidden = [w.id for w in suite.workloads(include_hidden=True) if w.hidden]
    assert not any(h in page for h in hidden)  # a hidden workload's result is never shown

    private = seeded.subs["private"]
    url = f"/submissions/{private.pk}/"
    assert client.get(url).status_code == 404  # anonymous
    client.force_login(get_user_model().objects.get(username="alice"))
    assert client.get(url).status_code == 404  # another user
    client.force_login(private.owner)
    assert client.get(url).status_code == 200  # its owner
    staff = make_user("staff")
    staff.is_staff = True
    staff.save()
    client.force_login(staff)
    assert client.get(url).status_code == 200
    assert client.get("/submissions/999999999/").status_code == 404


def test_token_page_creates_and_rotates_a_token(client):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    assert client.get("/account/token/").status_code == 302  # log in first
    alice = make_user("alice")
    client.force_login(alice)
    assert "You have no token yet." in _text(client.get("/account/token/"))

    page = _text(client.post("/account/token/"))
    first = Token.objects.get(user=alice).key
    assert f"Your token: <code>{first}</code>" in page
    assert f"Authorization: Token {first}" in page

    client.post("/account/token/")
    second = Token.objects.get(user=alice).key
    assert second != first
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {first}")
    assert api.get("/api/v1/submissions/").status_code == 401  # the old token stops working at once
    api.credentials(HTTP_AUTHORIZATION=f"Token {second}")
    assert api.get("/api/v1/submissions/").status_code == 200


def test_sign_up_then_log_in(client):
    from django.contrib.auth import get_user_model

    resp = client.post("/accounts/signup/", {"username": "newcomer", "password1": "kernel-tuning-42!",
                                             "password2": "kernel-tuning-42!"})
    assert resp.status_code == 302 and resp["Location"] == "/accounts/login/"
    assert get_user_model().objects.filter(username="newcomer").exists()
    resp = client.post("/accounts/login/", {"username": "newcomer", "password": "kernel-tuning-42!"})
    assert resp.status_code == 302 and resp["Location"] == "/"
    assert "Log out newcomer" in _text(client.get("/"))
