"""The workloads a deployment evaluates and ranks on each track: what a submission's jobs run,
what finishes it, and what the boards' slices are made of (``leaderboard.slices``)."""

from __future__ import annotations

from django.conf import settings

from evaluator import suite
from evaluator.vocabulary import Track
from portal.secretfiles import stored_secret


def heldout_secret() -> str:
    """The deployment's held-out secret: EKB_HELDOUT_SECRET, else its own generated one."""
    return settings.EKB_HELDOUT_SECRET or stored_secret(settings.EKB_HELDOUT_SECRET_FILE)


def track_tasks(track: str) -> list:
    """The workloads a track evaluates and ranks: the public ones this deployment serves
    (``EKB_TASKS``), and on the verified track the held-out ones drawn from its secret too."""
    public = suite.served(settings.EKB_TASKS)
    if track != Track.VERIFIED:
        return public
    return public + suite.held_out(heldout_secret())
