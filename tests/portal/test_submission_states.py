"""A submission's state transitions (``Submission.start`` / ``fail`` / ``finish`` / ``cancel`` and
the verified run's): each moves only from the states it names, never over a terminal one, and
says whether it moved."""

from __future__ import annotations

import pytest

from portal_helpers import make_submission, make_user

pytestmark = pytest.mark.django_db

QUEUED, RUNNING, FINISHED, FAILED, CANCELLED = "queued", "running", "finished", "failed", "cancelled"
TERMINAL = (FINISHED, FAILED, CANCELLED)


def submission(state: str, **fields):
    from portal.models import Submission

    sub = make_submission(make_user(f"u-{state}-{Submission.objects.count()}"), "s", state=state)
    if fields:
        Submission.objects.filter(pk=sub.pk).update(**fields)
        sub.refresh_from_db()
    return sub


def stored(sub):
    from portal.models import Submission

    return Submission.objects.get(pk=sub.pk)


def test_start_moves_a_queued_submission_to_running_and_stamps_it_once():
    sub = submission(QUEUED)
    assert sub.start() is True
    row = stored(sub)
    assert row.state == RUNNING and row.started_at is not None
    assert sub.state == RUNNING and sub.started_at == row.started_at
    first = row.started_at
    # a second job of the same submission: no transition, the first start time kept
    assert submission_from(sub).start() is False
    assert stored(sub).started_at == first and stored(sub).state == RUNNING


def submission_from(sub):
    """A fresh instance of the row, as another job would read it."""
    return stored(sub)


@pytest.mark.parametrize("state", TERMINAL)
def test_start_leaves_a_terminal_submission_alone(state):
    sub = submission(state)
    assert sub.start() is False
    assert stored(sub).state == state


def test_start_stamps_a_running_submission_without_a_start_time():
    sub = submission(RUNNING)
    assert sub.start() is False  # already running: no transition
    assert stored(sub).started_at is not None


@pytest.mark.parametrize("state", (QUEUED, RUNNING))
def test_fail_records_the_reason_and_the_time(state):
    sub = submission(state)
    assert sub.fail(RuntimeError("x" * 5000)) is True
    row = stored(sub)
    assert row.state == FAILED and row.error == "x" * 4000 and row.finished_at is not None
    assert sub.state == FAILED and sub.error == row.error


@pytest.mark.parametrize("state", TERMINAL)
def test_fail_does_not_overwrite_a_terminal_state(state):
    sub = submission(state, error="the first reason")
    assert sub.fail("a later reason") is False
    row = stored(sub)
    assert row.state == state and row.error == "the first reason" and row.finished_at is None


@pytest.mark.parametrize("state", (QUEUED, RUNNING))
def test_finish_stores_the_summary(state):
    sub = submission(state)
    assert sub.finish(tasks_done=3, summary={"cpu-llvm": {"tasks": 3}}) is True
    row = stored(sub)
    assert row.state == FINISHED and row.tasks_done == 3 and row.summary == {"cpu-llvm": {"tasks": 3}}
    assert row.finished_at is not None and sub.is_done


@pytest.mark.parametrize("state", TERMINAL)
def test_finish_does_not_overwrite_a_terminal_state(state):
    sub = submission(state)
    assert sub.finish(tasks_done=3, summary={"x": {}}) is False
    row = stored(sub)
    assert row.state == state and row.summary == {} and row.tasks_done == 0


@pytest.mark.parametrize("state", (QUEUED, RUNNING))
def test_cancel_stops_a_live_submission(state):
    sub = submission(state)
    other = submission_from(sub)  # a job's instance, read before the cancel
    assert not other.is_cancelled()
    assert sub.cancel() is True
    assert stored(sub).state == CANCELLED and stored(sub).finished_at is not None
    assert other.is_cancelled()  # what a running job asks between tasks: the row, not its copy
    # and a cancelled submission is neither started, failed nor finished afterwards
    assert other.start() is False and other.fail("late") is False
    assert other.finish(tasks_done=1, summary={}) is False
    assert stored(sub).state == CANCELLED and stored(sub).error == ""


@pytest.mark.parametrize("state", TERMINAL)
def test_cancel_leaves_a_terminal_submission_alone(state):
    sub = submission(state)
    assert sub.cancel() is False
    assert stored(sub).state == state


def test_the_verified_run_queues_starts_and_finishes():
    from portal.models import Submission

    V = Submission.Verification
    sub = submission(FINISHED)
    assert sub.start_verification() is False  # nothing queued
    assert sub.queue_verification() is True
    assert stored(sub).verification == V.QUEUED and stored(sub).verified_at is None
    assert sub.start_verification() is True and stored(sub).verification == V.RUNNING
    assert sub.start_verification() is False  # a second job: already running
    assert sub.finish_verification() is True
    row = stored(sub)
    assert row.verification == V.FINISHED and row.verified_at is not None
    assert sub.finish_verification() is False  # once
    assert stored(sub).verified_at == row.verified_at
    assert sub.state == FINISHED  # the public outcome is untouched


def test_a_failed_verification_never_overwrites_a_finished_one():
    from portal.models import Submission

    V = Submission.Verification
    sub = submission(FINISHED, verification=V.RUNNING)
    assert sub.fail_verification() is True and stored(sub).verification == V.FAILED
    # a failed run may be finished by a redelivered job that completes it, and queued again
    assert sub.finish_verification() is True
    assert sub.fail_verification() is False and stored(sub).verification == V.FINISHED
    assert sub.queue_verification() is True and stored(sub).verification == V.QUEUED


def test_a_job_that_fails_after_the_submission_finished_does_not_undo_it():
    """``evaluation.fail``, what a build or measurement job calls when it cannot go on."""
    from portal import evaluation
    from portal.models import Result

    sub = submission(FINISHED)
    evaluation.fail(sub, Result.PUBLIC, RuntimeError("worker lost"))
    assert stored(sub).state == FINISHED and stored(sub).error == ""
    live = submission(RUNNING)
    evaluation.fail(live, Result.PUBLIC, RuntimeError("worker lost"))
    assert stored(live).state == FAILED and stored(live).error == "worker lost"
