"""``Client.submit`` sends an upload with an Idempotency-Key and sends it again, with the same key,
when no answer came: the portal answers a repeat with the first one's submission
(tests/portal/test_idempotent_submissions.py), so a portal restart mid-upload never makes two.
The portal here is a loopback HTTP server that drops the first connection unanswered, as a
restarted gunicorn does."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from ekb_client import api
from ekb_client.api import ApiError, Client


class _Portal(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, answers: list):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.answers = answers  # per request: None (drop the connection) or (status, body)
        self.seen: list[tuple[str | None, bytes]] = []


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, fmt, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.server.seen.append((self.headers.get("Idempotency-Key"), body))
        answer = self.server.answers[min(len(self.server.seen), len(self.server.answers)) - 1]
        if answer is None:  # read, then gone without a word
            self.close_connection = True
            self.connection.shutdown(2)
            return
        status, payload = answer
        raw = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


@pytest.fixture
def portal(monkeypatch):
    monkeypatch.setattr(api, "SUBMIT_RETRY_S", 0.01)
    servers = []

    def start(*answers):
        s = _Portal(list(answers))
        threading.Thread(target=s.serve_forever, daemon=True).start()
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.shutdown()


def _client(server) -> Client:
    host, port = server.server_address[:2]
    return Client(f"http://{host}:{port}", "token", timeout=5)


def test_an_unanswered_upload_is_sent_again_with_the_same_key(portal):
    server = portal(None, (201, {"id": 7, "state": "queued"}))
    sub = _client(server).submit("b.zip", b"PK-bytes")
    assert sub == {"id": 7, "state": "queued"}
    (k1, body1), (k2, body2) = server.seen
    assert k1 == k2 and k1.startswith("ekb-") and len(k1) <= 64 and body1 == body2


def test_a_given_key_is_sent_and_each_upload_gets_its_own(portal):
    server = portal((201, {"id": 1}))
    client = _client(server)
    client.submit("b.zip", b"x", idempotency_key="my-run-42")
    client.submit("b.zip", b"x")
    client.submit("b.zip", b"x")
    keys = [k for k, _ in server.seen]
    assert keys[0] == "my-run-42" and len(set(keys)) == 3


def test_a_refusal_is_not_sent_again_and_unanswered_uploads_give_up(portal):
    refused = portal((400, {"bundle": ["not a zip"]}))
    with pytest.raises(ApiError) as e:
        _client(refused).submit("b.zip", b"x")
    assert e.value.status == 400 and len(refused.seen) == 1
    down = portal(None)
    with pytest.raises(api.NetworkError):
        _client(down).submit("b.zip", b"x")
    assert len(down.seen) == api.SUBMIT_ATTEMPTS and len({k for k, _ in down.seen}) == 1
    busy = portal((503, {"detail": "restarting"}), (201, {"id": 3}))
    assert _client(busy).submit("b.zip", b"x") == {"id": 3} and len(busy.seen) == 2
