"""The portal's REST API (``/api/v1/``) over the standard library's urllib.

Every call returns the decoded JSON (or bytes for a download). A response with an error status
raises :class:`ApiError` carrying the server's own message; a portal that cannot be reached
raises :class:`NetworkError` naming the URL that failed.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

API = "/api/v1"
DEFAULT_TIMEOUT_S = 60.0
MAX_RESPONSE_BYTES = 64 * 1024 * 1024  # a starter bundle of 200 tasks is a few MiB
MAX_ERROR_CHARS = 4000
TERMINAL_STATES = ("finished", "failed", "cancelled")

Params = Mapping[str, str | Sequence[str] | None]


class ClientError(Exception):
    """Anything that stops a call; ``str()`` is the message to show."""


# An upload is sent at most this many times, a growing pause apart (the same Idempotency-Key)
SUBMIT_ATTEMPTS = 3
SUBMIT_RETRY_S = 2.0


class ApiError(ClientError):
    """The portal answered with an error status; ``message`` is what it said."""

    def __init__(self, status: int, message: str, url: str, body: Any = None) -> None:
        self.status, self.message, self.url, self.body = status, message, url, body
        super().__init__(f"{status} from {url}: {message}")


class NetworkError(ClientError):
    """The portal could not be reached (or answered something that is not HTTP)."""

    def __init__(self, url: str, reason: str) -> None:
        self.url, self.reason = url, reason
        super().__init__(f"cannot reach {url}: {reason}")


def error_message(body: Any) -> str:
    """The server's message from an error body: DRF's ``{"detail": ...}``, or every
    ``field: message`` of a validation error, one per line."""
    if isinstance(body, dict):
        if isinstance(body.get("detail"), str) and len(body) == 1:
            return str(body["detail"])
        lines = []
        for field, value in body.items():
            items = value if isinstance(value, list) else [value]
            for item in items:
                text = item if isinstance(item, str) else json.dumps(item)
                lines.append(text if field in ("detail", "non_field_errors") else f"{field}: {text}")
        return "\n".join(lines) or "(no message)"
    if isinstance(body, list):
        return "\n".join(str(x) for x in body) or "(no message)"
    return str(body)


def multipart(fields: Mapping[str, str | Sequence[str]], files: Mapping[str, tuple[str, bytes]]) -> tuple[bytes, str]:
    """A multipart/form-data body and its Content-Type. ``files``: name → (file name, bytes)."""
    boundary = uuid.uuid4().hex
    parts: list[bytes] = []
    for name, value in fields.items():
        for v in [value] if isinstance(value, str) else value:
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{v}\r\n'.encode())
    for name, (filename, data) in files.items():
        safe = filename.replace('"', "_").replace("\r", "_").replace("\n", "_")
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{safe}"\r\n'
                     "Content-Type: application/octet-stream\r\n\r\n".encode() + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


class Client:
    """One portal, with or without an API token (reading needs none; submitting does)."""

    def __init__(self, url: str, token: str = "", *, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    # --- transport ------------------------------------------------------------------------
    def endpoint(self, path: str, params: Params | None = None) -> str:
        query = urllib.parse.urlencode(
            [(k, x) for k, v in (params or {}).items() if v is not None
             for x in ([v] if isinstance(v, str) else v) if x != ""])
        return f"{self.url}{API}{path}" + (f"?{query}" if query else "")

    def _send(self, method: str, path: str, *, params: Params | None = None, data: bytes | None = None,
              content_type: str | None = None, accept: str = "application/json",
              headers: Mapping[str, str] | None = None) -> tuple[bytes, str]:
        url = self.endpoint(path, params)
        if method == "POST" and data is None:
            data = b""  # an explicit Content-Length: 0
        req = urllib.request.Request(url, data=data, method=method, headers={"Accept": accept, **(headers or {})})
        if self.token:
            req.add_header("Authorization", f"Token {self.token}")
        if content_type:
            req.add_header("Content-Type", content_type)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                body = resp.read(MAX_RESPONSE_BYTES + 1)
                kind = resp.headers.get("Content-Type", "")
        except urllib.error.HTTPError as e:
            raise self._api_error(e, url) from None
        except urllib.error.URLError as e:
            raise NetworkError(url, str(getattr(e, "reason", e))) from None
        except (OSError, ValueError) as e:  # timeouts, resets, a malformed URL
            raise NetworkError(url, str(e) or type(e).__name__) from None
        if len(body) > MAX_RESPONSE_BYTES:
            raise NetworkError(url, f"the response is over {MAX_RESPONSE_BYTES // 2**20} MiB")
        return body, kind

    @staticmethod
    def _api_error(e: urllib.error.HTTPError, url: str) -> ApiError:
        try:
            raw = e.read(MAX_RESPONSE_BYTES)
        except OSError:
            raw = b""
        text = raw.decode("utf-8", errors="replace")
        try:
            body: Any = json.loads(text)
            message = error_message(body)
        except ValueError:  # an HTML error page (a proxy, DEBUG off): its status line says enough
            body, message = text, (e.reason if isinstance(e.reason, str) else "") or text[:200]
        return ApiError(e.code, message[:MAX_ERROR_CHARS], url, body)

    def call(self, method: str, path: str, *, params: Params | None = None, data: bytes | None = None,
             content_type: str | None = None, headers: Mapping[str, str] | None = None) -> Any:
        """The JSON body of ``method path`` (NetworkError if it is not JSON)."""
        body, _ = self._send(method, path, params=params, data=data, content_type=content_type, headers=headers)
        try:
            return json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise NetworkError(self.endpoint(path, params), "the answer is not JSON: is this an EdgeKernelBench "
                                                            "portal?") from None

    def _object(self, method: str, path: str, **kw: Any) -> dict[str, Any]:
        found = self.call(method, path, **kw)
        if not isinstance(found, dict):
            raise NetworkError(self.endpoint(path, kw.get("params")), "expected a JSON object in the answer")
        return found

    def _list(self, method: str, path: str, **kw: Any) -> list[dict[str, Any]]:
        found = self.call(method, path, **kw)
        if not isinstance(found, list) or not all(isinstance(x, dict) for x in found):
            raise NetworkError(self.endpoint(path, kw.get("params")), "expected a JSON list of objects in the answer")
        return found

    # --- operations -----------------------------------------------------------------------
    def check_token(self) -> None:
        """ApiError (401) unless the token is valid: any call with a bad token is refused."""
        if not self.token:
            raise ClientError("no API token")
        self.call("GET", "/submissions/", params={"limit": "1"})

    def tasks(self, **filters: str | None) -> list[dict[str, Any]]:
        """The public tasks: level, domain, family, dtype, backend, search."""
        return self._list("GET", "/tasks/", params=filters)

    def task(self, workload: str, *, backend: str | None = None, mode: str | None = None) -> dict[str, Any]:
        path = "/tasks/" + urllib.parse.quote(workload, safe="/@") + "/"
        return self._object("GET", path, params={"backend": backend, "mode": mode})

    def starter_bundle(self, globs: Sequence[str], backend: str | None = None) -> bytes:
        """The starter bundle's .zip bytes."""
        body, kind = self._send("GET", "/tasks/starter-bundle/", params={"tasks": list(globs), "backend": backend},
                                accept="application/zip, application/json")
        if "zip" not in kind:
            raise NetworkError(self.endpoint("/tasks/starter-bundle/"), f"expected a .zip, got {kind or 'nothing'}")
        return body

    def submit(self, filename: str, data: bytes, *, name: str | None = None, backends: Sequence[str] = (),
               public: bool = True, description: str | None = None,
               idempotency_key: str | None = None) -> dict[str, Any]:
        """Upload a bundle. Sent with an Idempotency-Key (``idempotency_key``, or one made here) and
        sent again with it when no answer came (a restart, a dropped connection) or the portal
        was briefly unavailable (502-504): the portal answers a repeat with the submission the
        first one made, so a retry never makes a second."""
        fields: dict[str, str | Sequence[str]] = {"public": "true" if public else "false"}
        if name:
            fields["name"] = name
        if description:
            fields["description"] = description
        if backends:
            fields["backends"] = list(backends)
        body, content_type = multipart(fields, {"bundle": (filename, data)})
        headers = {"Idempotency-Key": idempotency_key or f"ekb-{uuid.uuid4().hex}"}
        attempt = 1
        while True:
            try:
                return self._object("POST", "/submissions/", data=body, content_type=content_type, headers=headers)
            except (NetworkError, ApiError) as e:
                unanswered = isinstance(e, NetworkError) or e.status in (502, 503, 504)
                if not unanswered or attempt == SUBMIT_ATTEMPTS:
                    raise
            time.sleep(SUBMIT_RETRY_S * attempt)
            attempt += 1

    def submission(self, sub_id: int) -> dict[str, Any]:
        return self._object("GET", f"/submissions/{int(sub_id)}/")

    def cancel(self, sub_id: int) -> dict[str, Any]:
        return self._object("POST", f"/submissions/{int(sub_id)}/cancel/")

    def rerun(self, sub_id: int) -> dict[str, Any]:
        return self._object("POST", f"/submissions/{int(sub_id)}/rerun/")

    def leaderboard(self, **query: str | None) -> dict[str, Any]:
        """One page of a board: backend, device, track, level, domain, family, dtype, baseline, …"""
        return self._object("GET", "/leaderboard/", params=query)
