"""The API's request rates (DRF throttles), answered with 429, a Retry-After header and a message
saying when to retry. The rates are read from the settings on each request (``EKB_API_RATE``,
``EKB_API_ANON_RATE``; empty: no limit), not once at import as DRF's own classes do. The daily
submission quota (``portal.quotas``) is answered the same way (:class:`QuotaExceeded`)."""

from __future__ import annotations

from django.conf import settings
from rest_framework.exceptions import Throttled
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from portal.quotas import OverQuota


class UserRate(UserRateThrottle):
    """Every API request of a logged-in user, per user: ``EKB_API_RATE``."""

    def get_rate(self) -> str | None:
        return settings.EKB_API_RATE

    def get_cache_key(self, request, view) -> str | None:
        # anonymous clients have their own rate (AnonRate), never this one by address
        return super().get_cache_key(request, view) if request.user and request.user.is_authenticated else None


class AnonRate(AnonRateThrottle):
    """Every API request without credentials, per client address: ``EKB_API_ANON_RATE``."""

    def get_rate(self) -> str | None:
        return settings.EKB_API_ANON_RATE


class QuotaExceeded(Throttled):
    """429 for the daily quota: the message says when, Retry-After how long."""

    extra_detail_singular = "Retry after {wait} second."
    extra_detail_plural = "Retry after {wait} seconds."

    def __init__(self, over: OverQuota):
        super().__init__(wait=over.wait_s, detail=over.message)
