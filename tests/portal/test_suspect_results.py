"""Suspect results in the portal: stored with their reason, never ranked, shown on the
submission page, and reviewed by staff through the Django admin (cleared back to ``correct`` or
marked ``hacked``), each review rescoring the board rows the result is in."""

from __future__ import annotations

import html

import pytest

from portal_helpers import BACKEND, add_result, make_submission, make_user, served_tasks

pytestmark = pytest.mark.django_db

REASON = "timing: wall clock 2.1 ms but device events 0.4 ms (work outside the timed window)"
N_SUSPECT = 3


@pytest.fixture
def seeded():
    """One finished public submission: every task correct at 1.25x but the first three, which
    look 3x faster with a timing the harness does not trust (suspect)."""
    from evaluator import scoring
    from leaderboard.aggregates import rebuild
    from portal.models import Result

    sub = make_submission(make_user("mallory"), "too-good")
    tasks = served_tasks()
    for i, w in enumerate(tasks):
        if i < N_SUSPECT:
            r = add_result(sub, w, "suspect", 3.0)
            Result.objects.filter(pk=r.pk).update(reason=REASON)
        else:
            add_result(sub, w, "correct", 1.25)
    # what finishing the submission stores (portal.evaluation.finish_if_complete)
    sub.summary = {BACKEND: scoring.breakdown(list(sub.results.values_list("record", flat=True)))}
    sub.save(update_fields=["summary"])
    rebuild()
    return sub, tasks


def _row(sub):
    from leaderboard.ranking import board

    return next(r for r in board(BACKEND).rows if r.submission_id == sub.pk).summary


def _suspects(sub):
    return list(sub.results.filter(status="suspect").order_by("workload"))


@pytest.fixture
def staff_client(client):
    u = make_user("reviewer", "pw-reviewer")
    u.is_staff = u.is_superuser = True
    u.save()
    client.force_login(u)
    return client


def _act(client, action: str, results):
    return client.post("/admin/portal/result/", {"action": action, "_selected_action": [r.pk for r in results]},
                       follow=True)


def test_status_choices_are_the_evaluators_statuses():
    from evaluator import records
    from portal.models import Result

    assert [c for c, _ in Result._meta.get_field("status").choices] == list(records.STATUSES)
    assert "suspect" in records.STATUSES and "hacked" in records.STATUSES


def test_a_suspect_result_is_not_ranked_correct(seeded):
    sub, tasks = seeded
    s = _row(sub)
    n = len(tasks)
    assert s["correct"] == n - N_SUSPECT and s["correct@1"] == pytest.approx((n - N_SUSPECT) / n)
    assert s["fast@2.0"] == 0.0  # the suspect 3x never counts
    assert s["attempted"] == n  # it is an entry, just not a correct one


def test_submission_page_shows_suspects_with_their_reason_and_counts(client, seeded):
    sub, tasks = seeded
    body = html.unescape(client.get(f"/submissions/{sub.pk}/").content.decode())
    assert f"Failures: {N_SUSPECT} suspect (under review: not ranked)" in body
    assert f"Suspect results: {N_SUSPECT}, under review" in body
    assert body.count(REASON) >= N_SUSPECT  # in the review list and in the task table
    for w in tasks[:N_SUSPECT]:
        assert f"<code>{w.id}</code> on {BACKEND}: <span class=\"reason\">{REASON}</span>" in body


def test_staff_clear_a_suspect_result_through_the_admin(staff_client, seeded):
    sub, tasks = seeded
    n = len(tasks)
    first = _suspects(sub)[0]
    resp = _act(staff_client, "clear_suspect", [first])
    assert resp.status_code == 200
    assert "cleared, now correct" in resp.content.decode()
    first.refresh_from_db()
    assert first.status == "correct" and first.record["status"] == "correct"
    assert first.record["review"]["verdict"] == "cleared" and first.record["review"]["by"] == "reviewer"
    # The board row moved: one more correct task, and its 3x now counts.
    s = _row(sub)
    assert s["correct"] == n - N_SUSPECT + 1
    assert s["fast@2.0"] == pytest.approx(1 / n)
    # So did the stored summary of the submission.
    sub.refresh_from_db()
    assert sub.summary[BACKEND]["correct"] == n - N_SUSPECT + 1


def test_staff_mark_a_suspect_result_hacked(staff_client, client, seeded):
    sub, tasks = seeded
    n = len(tasks)
    hacked = _suspects(sub)[:2]
    resp = _act(staff_client, "mark_hacked", hacked)
    assert resp.content.decode().count("marked hacked, ranked as wrong") == 2
    assert sorted(sub.results.filter(status="hacked").values_list("pk", flat=True)) == sorted(r.pk for r in hacked)
    s = _row(sub)
    assert s["correct"] == n - N_SUSPECT and s["fast@2.0"] == 0.0  # still wrong, now for good
    body = html.unescape(staff_client.get(f"/submissions/{sub.pk}/").content.decode())
    assert "2 hacked (staff's verdict: ranked as wrong)" in body and "1 suspect (under review" in body
    assert "Hacked results: 2" in body and REASON in body  # shown with the reason
    # Clearing the last suspect moves Correct@1; the hacked ones stay wrong.
    _act(staff_client, "clear_suspect", _suspects(sub))
    assert _row(sub)["correct@1"] == pytest.approx((n - 2) / n)


def test_only_a_suspect_result_can_be_reviewed(staff_client, seeded):
    from django.core.exceptions import ValidationError

    from portal.models import Result

    sub, _ = seeded
    before = _row(sub)
    correct = sub.results.filter(status="correct").first()
    with pytest.raises(ValidationError, match="only a suspect result can be reviewed"):
        correct.clear_suspect()
    with pytest.raises(ValidationError, match="only a suspect result can be reviewed"):
        correct.mark_hacked()
    correct.refresh_from_db()
    assert correct.status == "correct"
    # Through the admin: a clear error for the one refused, the suspect in the same batch reviewed.
    suspect = _suspects(sub)[0]
    resp = _act(staff_client, "mark_hacked", [correct, suspect])
    text = html.unescape(resp.content.decode())
    assert "only a suspect result can be reviewed; this one is 'correct'" in text
    assert Result.objects.get(pk=correct.pk).status == "correct"
    assert Result.objects.get(pk=suspect.pk).status == "hacked"
    # A reviewed result cannot be reviewed again (a stale copy still thinks it is suspect).
    with pytest.raises(ValidationError, match="this one is 'hacked'"):
        suspect.clear_suspect()
    assert Result.objects.get(pk=suspect.pk).status == "hacked"
    assert _row(sub)["correct"] == before["correct"]


def test_non_staff_cannot_review(client, seeded):
    sub, _ = seeded
    client.force_login(make_user("someone", "pw-someone"))
    _act(client, "clear_suspect", _suspects(sub))
    assert sub.results.filter(status="suspect").count() == N_SUSPECT
