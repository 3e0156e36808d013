"""Per-user daily quota of submissions (``EKB_DAILY_SUBMISSIONS``): uploads, endpoint submissions
and reruns, counted over the last 24 hours against the submission's owner. Staff are exempt, as
owners and when they act (a rerun staff start is never refused). Over the quota the answer says
when the next submission is possible: when the oldest counted one is 24 hours old.

Counted from the submissions themselves (one indexed count), so every web process and API
server agrees. The answer a view gives early (:func:`over_quota`) is checked again where the
submission is stored (:func:`hold`), under a lock on the owner's row: two uploads of one user at
the same instant are counted one after the other, so they cannot both take the last free slot.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone

from portal.models import Submission

WINDOW = timedelta(hours=24)


@dataclass(frozen=True)
class OverQuota:
    wait_s: int  # seconds until one more submission is possible (Retry-After)
    at: datetime
    message: str


class QuotaExhausted(Exception):
    """Raised where a submission is stored: the owner's quota was spent, by another submission
    stored at the same instant if the early check let this one through."""

    def __init__(self, over: OverQuota):
        super().__init__(over.message)
        self.over = over


def duration(seconds: int) -> str:
    h, rest = divmod(max(1, seconds), 3600)
    m, s = divmod(rest, 60)
    if h:
        return f"{h} h {m} min" if m else f"{h} h"
    return f"{m} min {s} s" if m and s else f"{m} min" if m else f"{s} s"


def exempt(user) -> bool:
    return not settings.EKB_DAILY_SUBMISSIONS or bool(getattr(user, "is_staff", False))


def used(owner, now: datetime | None = None) -> int:
    """The owner's submissions in the last 24 hours."""
    return Submission.objects.filter(owner=owner, created_at__gt=(now or timezone.now()) - WINDOW).count()


def over_quota(owner, actor=None) -> OverQuota | None:
    """Why ``owner`` may not make another submission now (``actor``: who asks, the owner when
    None), or None when they may."""
    if exempt(owner) or (actor is not None and exempt(actor)):
        return None
    limit, now = settings.EKB_DAILY_SUBMISSIONS, timezone.now()
    n = used(owner, now)
    if n < limit:
        return None
    # the next slot frees when the (n - limit + 1)-th oldest of the window is 24 hours old
    oldest = (Submission.objects.filter(owner=owner, created_at__gt=now - WINDOW).order_by("created_at")
              .values_list("created_at", flat=True)[n - limit])
    at = oldest + WINDOW
    wait = max(1, int((at - now).total_seconds()) + 1)
    return OverQuota(wait, at, f"daily quota reached: {n} submissions in the last 24 hours, and "
                     f"EKB_DAILY_SUBMISSIONS allows {limit} (reruns count). The next one is possible in "
                     f"{duration(wait)}, at {at:%Y-%m-%d %H:%M:%S} UTC.")


def hold(owner, actor=None) -> None:
    """Inside the transaction that stores a new submission of ``owner``'s: lock the owner's row
    (until that transaction ends), so that the owner's concurrent submissions are counted one
    after another, each seeing those committed before it; then :class:`QuotaExhausted` when over."""
    if exempt(owner) or (actor is not None and exempt(actor)):
        return
    get_user_model().objects.select_for_update().only("pk").get(pk=owner.pk)
    over = over_quota(owner, actor)
    if over is not None:
        raise QuotaExhausted(over)
