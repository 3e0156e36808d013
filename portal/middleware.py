"""Answers for what the request did not cause."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse

from portal.evaluation import TRANSIENT

RETRY_AFTER_S = 5
LOST = ("the database connection was lost while this request was answered (the database restarted, or "
        "its session was ended); nothing past what had been committed was kept. Retry in a few seconds "
        "(an upload with the same Idempotency-Key is never stored twice).")


class DatabaseLost:
    """A request whose database connection died under it gets 503 with Retry-After, not a 500:
    the client may retry, and Django opens a fresh connection for the next request."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, TRANSIENT):
            return None
        if request.path.startswith("/api/"):
            response = JsonResponse({"detail": LOST}, status=503)
        else:
            response = HttpResponse(LOST, status=503, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(RETRY_AFTER_S)
        return response
