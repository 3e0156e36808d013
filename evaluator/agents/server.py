"""A small OpenAI-compatible chat server for models that run here: scripted transcripts (the
tests) and the built-in search agent (the demo).

``POST /v1/chat/completions`` (any path ending in ``/chat/completions``) answers with a
``chat.completion`` object; ``GET /v1/models`` lists the models. With an API key set, requests
without ``Authorization: Bearer <key>`` get 401. Usage is counted at 4 characters per token.

Scripted transcripts (JSON)::

    {"tasks": {"<workload glob>": [step, ...]}, "default": [step, ...]}

The step used is the number of assistant messages in the request plus its ``seed`` (so direct
mode's samples walk the list too); past the end the last step repeats. A conversation that names
no task (the portal's 1-token check at submission) gets the default steps, else ``OK``. A step is the reply text,
or an object: ``{"content": …}``, ``{"delay_s": 5, "content": …}`` (answer late),
``{"status": 500, "body": …}`` (an HTTP error), ``{"raw": …}`` (a 200 whose body is not JSON),
``{"redirect": URL, "status": 307}``, ``{"echo_auth": true, "status": 400}`` (an error body that
repeats the request's Authorization header, as some servers do).

``python -m evaluator.agents serve --model ekb-search --port 8765`` (see ``__main__``).
"""

from __future__ import annotations

import fnmatch
import hmac
import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Protocol

from evaluator.agents.search.agent import SearchAgent

MAX_REQUEST_BYTES = 8 << 20
MAX_DELAY_S = 120.0
_TASK = re.compile(r"^Task: (\S+)\s*$", re.M)


class Responder(Protocol):
    name: str

    def reply(self, messages: list[dict], params: dict) -> "str | dict": ...


class ScriptedModel:
    """Replies from transcripts, by workload and turn."""

    name = "scripted"

    def __init__(self, transcripts: dict, name: str = "scripted"):
        if not isinstance(transcripts, dict) or not (transcripts.get("tasks") or transcripts.get("default")):
            raise ValueError('transcripts must be {"tasks": {glob: [steps]}, "default": [steps]}')
        self.name = name
        self.tasks = dict(transcripts.get("tasks") or {})
        self.default = list(transcripts.get("default") or [])

    def reply(self, messages: list[dict], params: dict):
        text = "\n".join(m.get("content", "") for m in messages if m.get("role") == "user")
        m = _TASK.search(text)
        if m is None and not self.default:
            return "OK"  # not a task (the portal's check at submission): answered, as any model would
        workload = m.group(1) if m else ""
        steps = next((v for g, v in self.tasks.items() if fnmatch.fnmatchcase(workload, g)), self.default)
        if not steps:
            return {"status": 404, "body": json.dumps({"error": {"message": f"no transcript for {workload!r}"}})}
        turn = sum(1 for msg in messages if msg.get("role") == "assistant")
        seed = params.get("seed") if isinstance(params.get("seed"), int) else 0
        return steps[min(turn + seed, len(steps) - 1)]


def search_model():
    return SearchAgent()


class _Handler(BaseHTTPRequestHandler):
    server_version = "ekb-test-endpoint/1"
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # quiet; the server keeps its own request log
        pass

    def _send(self, status: int, body: bytes, ctype: str = "application/json", headers: dict | None = None):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def _error(self, status: int, message: str):
        self._send(status, json.dumps({"error": {"message": message, "type": "invalid_request_error"}}).encode())

    def _authorized(self) -> bool:
        key = self.server.api_key
        if not key:
            return True
        got = self.headers.get("Authorization", "")
        return hmac.compare_digest(got.encode(), f"Bearer {key}".encode())

    def do_GET(self):
        if not self._authorized():
            return self._error(401, "invalid API key")
        if self.path.rstrip("/").endswith("/models"):
            data = [{"id": name, "object": "model", "owned_by": "edgekernelbench"} for name in self.server.models]
            return self._send(200, json.dumps({"object": "list", "data": data}).encode())
        self._error(404, "not found")

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_REQUEST_BYTES:
            return self._error(413, "request too large")
        raw = self.rfile.read(length)
        if not self.path.split("?")[0].rstrip("/").endswith("/chat/completions"):
            return self._error(404, "not found")
        if not self._authorized():
            return self._error(401, "invalid API key")
        try:
            req = json.loads(raw)
            messages = req["messages"]
            model = req["model"]
            assert isinstance(messages, list) and all(isinstance(m, dict) for m in messages)
        except (ValueError, KeyError, TypeError, AssertionError):
            return self._error(400, "expected a JSON body with 'model' and 'messages'")
        responder = self.server.models.get(model)
        if responder is None:
            return self._error(404, f"model {model!r} not found; this server has {sorted(self.server.models)}")
        with self.server.lock:
            self.server.requests.append({"model": model, "turns": len(messages), "max_tokens": req.get("max_tokens"),
                                         "path": self.path, "at": time.time()})
        try:
            out = responder.reply(messages, req)
        except ValueError as e:  # the model cannot answer this conversation
            return self._error(422, str(e))
        except Exception as e:  # noqa: BLE001 - a model's bug is the client's HTTP 500, not a dead socket
            return self._error(500, f"{type(e).__name__}: {str(e)[:300]}")
        step = {"content": out} if isinstance(out, str) else dict(out)
        if step.get("delay_s"):
            time.sleep(min(float(step["delay_s"]), MAX_DELAY_S))
        if "redirect" in step:
            return self._send(int(step.get("status", 307)), b"", headers={"Location": step["redirect"]})
        if step.get("echo_auth"):
            body = json.dumps({"error": {"message": "bad request with Authorization: "
                                         + self.headers.get("Authorization", "")}}).encode()
            return self._send(int(step.get("status", 400)), body)
        if "status" in step:
            return self._send(int(step["status"]), str(step.get("body", "")).encode())
        if "raw" in step:
            return self._send(200, str(step["raw"]).encode())
        content = str(step.get("content", ""))
        prompt_tokens = sum(len(str(m.get("content", ""))) for m in messages) // 4
        completion_tokens = len(content) // 4
        body = {"id": f"chatcmpl-{len(self.server.requests)}", "object": "chat.completion",
                "created": int(time.time()), "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                             "finish_reason": "stop"}],
                "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                          "total_tokens": prompt_tokens + completion_tokens}}
        self._send(200, json.dumps(body).encode())


class ChatServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, models: list, host: str = "127.0.0.1", port: int = 0, api_key: str = ""):
        super().__init__((host, port), _Handler)
        self.models = {m.name: m for m in models}
        self.api_key = api_key
        self.requests: list[dict] = []
        self.lock = threading.Lock()

    def handle_error(self, request, client_address):
        pass  # a client that hung up (timeouts in tests) is not an error of this server

    @property
    def base_url(self) -> str:
        """The URL the OpenAI SDKs take (``base_url``)."""
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/v1"

    @property
    def url(self) -> str:
        return f"{self.base_url}/chat/completions"

    def start(self) -> "ChatServer":
        threading.Thread(target=self.serve_forever, name="ekb-chat-server", daemon=True).start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
