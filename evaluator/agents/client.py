"""The chat-completions client for submitted endpoints.

One call = ``POST {url}`` with ``{"model", "messages", "temperature", "max_tokens", "seed"}``
(the OpenAI chat-completions request); the reply's ``choices[0].message.content`` is the text.
``url`` is the full chat-completions URL: :func:`chat_completions_url` makes it from the base URL
the OpenAI SDKs take (``https://host/v1``), once, when an endpoint is submitted.

* Network: the :mod:`~evaluator.agents.netguard` check before every attempt, the connection to
  the checked address, no proxy, no redirects (a 3xx is refused and its target named), a total
  deadline per attempt (connect + send + every read), the response body capped.
* Retries with exponential backoff and jitter for what may pass (unreachable, timeout, 429,
  5xx; ``Retry-After`` honoured up to the cap); none for what will not (auth refused, other 4xx,
  refused address, malformed reply).
* Every attempt is taken from the submission's :class:`~evaluator.agents.budget.Meter` first.
* :meth:`ChatClient.send`: a call's first attempt on its way from a thread while the caller
  measures an earlier candidate; only the HTTP wait leaves the caller's thread (the meter, a
  database row in the portal, is charged and credited in it, never in the sending one).
* :meth:`ChatClient.check`: one bounded, unmetered 1-token call through the same guard, at
  submission, that says whether the URL answers as a chat-completions endpoint.
* Failures are :class:`EndpointError` with a ``kind`` from :data:`KINDS` and a message in words;
  the API key is redacted from every message (an endpoint may echo request headers back), and
  the client's ``repr`` never shows it.
"""

from __future__ import annotations

import http.client
import json
import random
import socket
import ssl
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Callable
from urllib.parse import urlsplit, urlunsplit

from evaluator.agents import netguard
from evaluator.agents.budget import BudgetExhausted, Meter

UNREACHABLE = "unreachable"
AUTH_REFUSED = "auth_refused"
MALFORMED_REPLY = "malformed_reply"
BUDGET_EXHAUSTED = "budget_exhausted"
TIMEOUT = "timeout"
ADDRESS_REFUSED = "address_refused"
HTTP_ERROR = "http_error"
KINDS = (UNREACHABLE, AUTH_REFUSED, MALFORMED_REPLY, BUDGET_EXHAUSTED, TIMEOUT, ADDRESS_REFUSED, HTTP_ERROR)
# Kinds after which calling again cannot help: the rest of the submission is not attempted.
FATAL = (AUTH_REFUSED, ADDRESS_REFUSED, BUDGET_EXHAUSTED)

MAX_MESSAGE_CHARS = 200_000
USER_AGENT = "EdgeKernelBench-endpoint-client/1"

CHAT_COMPLETIONS = "/chat/completions"
# Last path segments that name another operation of the OpenAI API: such a URL is neither a base
# URL nor the chat-completions one, and appending to it would call nothing.
OTHER_OPERATIONS = ("/completions", "/responses")

# The submission-time check: one 1-token call, answered within seconds, its reply capped.
ANSWERED = "answered"
CHECK_TIMEOUT_S = 5.0
CHECK_MAX_BYTES = 64 << 10
CHECK_PROMPT = "Reply with the single word OK."


class EndpointError(Exception):
    def __init__(self, kind: str, message: str, attempts: int = 0, timed_out: bool = False):
        assert kind in KINDS, kind
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.attempts = attempts
        self.timed_out = timed_out  # no connection within the limit (an UNREACHABLE that may be slowness)

    @property
    def fatal(self) -> bool:
        return self.kind in FATAL

    def __str__(self) -> str:
        return f"{self.kind.replace('_', ' ')}: {self.message}"


@dataclass(frozen=True)
class NetPolicy:
    """Network limits of one endpoint call (and the loopback switch of the SSRF guard)."""

    allow_loopback: bool = False
    connect_timeout_s: float = 10.0
    timeout_s: float = 180.0  # whole attempt: connect, send, wait, read
    max_response_bytes: int = 4 << 20
    retries: int = 3  # attempts after the first
    backoff_s: float = 1.0
    backoff_max_s: float = 30.0


@dataclass
class Reply:
    content: str
    usage: dict  # prompt_tokens / completion_tokens / total_tokens (estimated when not reported)
    latency_s: float
    attempts: int
    model: str = ""
    finish_reason: str = ""
    usage_estimated: bool = False


@dataclass(frozen=True)
class Check:
    """What one call of the endpoint at submission found: whether ``url`` answered a chat
    completion, and, when not, whether calling it can work at all (``broken``: a refused address,
    nothing listening, the key refused, no chat-completions API there, a redirect) or may work
    later (a timeout, 429, 5xx, a request it refused)."""

    url: str
    outcome: str  # ANSWERED, or the kind of failure (one of KINDS)
    message: str  # in words, the key redacted
    broken: bool
    http_status: int | None = None
    latency_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.outcome == ANSWERED

    def to_json(self) -> dict:
        return {"url": self.url, "ok": self.ok, "outcome": self.outcome, "message": self.message,
                "http_status": self.http_status, "latency_s": self.latency_s}


def chat_completions_url(url: str) -> str:
    """The URL to post to, from either form a researcher has at hand: the base URL the OpenAI SDKs
    take (``https://host/v1`` → ``https://host/v1/chat/completions``, as the SDKs append it) or the
    full chat-completions URL (kept). Trailing slashes go; a query (``?api-version=…``) stays after
    the path. A URL that is not http(s) with a host is returned as given, for the guard to name
    what is wrong; ValueError for one naming another API operation or grown past the URL limit.
    The result still has to pass :func:`netguard.check_url`."""
    if not isinstance(url, str):
        return url
    url = url.strip()
    try:
        parts = urlsplit(url)
    except ValueError as e:
        raise ValueError(f"the endpoint URL cannot be parsed ({e})") from None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return url
    path = parts.path.rstrip("/")
    if not path.lower().endswith(CHAT_COMPLETIONS):
        other = next((op for op in OTHER_OPERATIONS if path.lower().endswith(op)), None)
        if other:
            raise ValueError(f"the endpoint URL ends in {other}, another operation of the API; give the base URL "
                             f"the OpenAI SDKs take (e.g. https://host/v1) or the full …{CHAT_COMPLETIONS} URL")
        path += CHAT_COMPLETIONS
    called = urlunsplit(parts._replace(path=path))
    if len(called) > netguard.MAX_URL_CHARS >= len(url):
        raise ValueError(f"with {CHAT_COMPLETIONS} appended the endpoint URL has {len(called)} characters; "
                         f"the limit is {netguard.MAX_URL_CHARS}")
    return called


def redact(text: str, secret: str | None) -> str:
    if secret and len(secret) >= 4 and text:
        text = text.replace(secret, "[redacted]")
    return text


def estimate_tokens(text: str) -> int:
    return max(1, len(text) // 4)


@dataclass
class ChatClient:
    url: str
    model: str
    api_key: str = field(default="", repr=False)
    policy: NetPolicy = field(default_factory=NetPolicy)
    meter: Meter | None = None
    resolve: netguard.Resolver = netguard.system_resolver
    sleep: Callable[[float], None] = time.sleep

    def __repr__(self) -> str:  # never the key
        return f"ChatClient(url={self.url!r}, model={self.model!r}, api_key={'[set]' if self.api_key else '[none]'})"

    # --- one call with retries -----------------------------------------------------------
    def complete(self, messages: list[dict], *, temperature: float = 0.2, max_tokens: int = 4096,
                 seed: int | None = None) -> Reply:
        payload, prompt_chars = self._payload(messages, temperature, max_tokens, seed)
        return self._complete(payload, prompt_chars, time.monotonic())

    def send(self, messages: list[dict], *, temperature: float = 0.2, max_tokens: int = 4096,
             seed: int | None = None) -> "InFlight":
        """As :meth:`complete`, with its first attempt sent now from a thread: :meth:`InFlight.reply`
        waits for it and goes on (retries, parsing, tokens) in the caller's thread."""
        payload, prompt_chars = self._payload(messages, temperature, max_tokens, seed)
        t0 = time.monotonic()
        try:
            self._charge(0)
        except EndpointError as e:
            return InFlight(self, payload, prompt_chars, t0, error=e)
        return InFlight(self, payload, prompt_chars, t0, sent=_SENDER.submit(self._post, payload))

    def _payload(self, messages: list[dict], temperature: float, max_tokens: int,
                 seed: int | None) -> tuple[bytes, int]:
        body = {"model": self.model, "messages": messages, "temperature": temperature,
                "max_tokens": max_tokens}
        if seed is not None:
            body["seed"] = seed
        return json.dumps(body).encode(), sum(len(m.get("content", "")) for m in messages)

    def _charge(self, attempts: int) -> None:
        """One attempt taken from the meter (the submission's budget), or the error that ends the call."""
        if self.meter is not None:
            try:
                self.meter.take_request()
            except BudgetExhausted as e:
                raise EndpointError(BUDGET_EXHAUSTED, str(e).removeprefix("budget exhausted: "),
                                    attempts) from None

    def _complete(self, payload: bytes, prompt_chars: int, t0: float, sent: Future | None = None) -> Reply:
        """The attempts of one call; ``sent``: the first one, already charged and on its way."""
        attempts = 0
        last: EndpointError | None = None
        for attempt in range(self.policy.retries + 1):
            if attempt > 0 or sent is None:
                self._charge(attempts)
            attempts += 1
            try:
                status, headers, raw = sent.result() if attempt == 0 and sent is not None else self._post(payload)
            except EndpointError as e:
                e.attempts = attempts
                if e.kind not in (UNREACHABLE, TIMEOUT):
                    raise
                last = e
                self._backoff(attempt, None)
                continue
            if 200 <= status < 300:
                reply = self._parse(raw, attempts, time.monotonic() - t0, prompt_chars)
                if self.meter is not None:
                    self.meter.add_tokens(reply.usage.get("total_tokens", 0))
                return reply
            snippet = self._snippet(raw)
            if 300 <= status < 400:
                raise EndpointError(HTTP_ERROR, self._redirect_message(status, headers.get("location", "")),
                                    attempts)
            if status in (401, 403):
                raise EndpointError(AUTH_REFUSED, f"HTTP {status} from the endpoint{snippet}", attempts)
            if status == 429 or status >= 500 or status == 408:
                last = EndpointError(UNREACHABLE if status >= 500 else HTTP_ERROR,
                                     f"HTTP {status} from the endpoint{snippet}", attempts)
                self._backoff(attempt, headers.get("retry-after"))
                continue
            raise EndpointError(HTTP_ERROR, f"HTTP {status} from the endpoint{snippet}", attempts)
        assert last is not None
        last.message += f" (gave up after {attempts} attempts)"
        raise last

    def _backoff(self, attempt: int, retry_after: str | None) -> None:
        if attempt >= self.policy.retries:
            return
        delay = self.policy.backoff_s * (2 ** attempt) * (0.5 + random.random() / 2)
        if retry_after:
            try:
                delay = max(delay, float(retry_after))
            except ValueError:
                pass  # an HTTP date: keep the computed delay
        self.sleep(min(delay, self.policy.backoff_max_s))

    # --- the submission-time check -------------------------------------------------------
    def check(self, timeout_s: float = CHECK_TIMEOUT_S) -> Check:
        """One chat completion of ``max_tokens`` 1, through the same guard as every call, with
        no retry, not taken from any budget, answered within ``timeout_s`` (connect included),
        its reply capped at :data:`CHECK_MAX_BYTES`. Never raises for what the endpoint does."""
        pol = replace(self.policy, timeout_s=timeout_s, connect_timeout_s=min(self.policy.connect_timeout_s, timeout_s),
                      max_response_bytes=CHECK_MAX_BYTES, retries=0)
        payload = json.dumps({"model": self.model, "messages": [{"role": "user", "content": CHECK_PROMPT}],
                              "temperature": 0, "max_tokens": 1}).encode()
        t0 = time.monotonic()

        def found(outcome: str, message: str, broken: bool, status: int | None = None) -> Check:
            return Check(self.url, outcome, redact(message, self.api_key), broken, status,
                         round(time.monotonic() - t0, 3))

        try:
            status, headers, raw = self._post(payload, pol)
        except EndpointError as e:
            if e.kind == TIMEOUT or e.timed_out:
                return found(TIMEOUT, e.message if e.kind == TIMEOUT else
                             f"no connection within {timeout_s:g} s ({e.message})", False)
            return found(e.kind, e.message, True)
        snippet = self._snippet(raw)
        if 200 <= status < 300:
            try:
                doc = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
                return found(MALFORMED_REPLY, f"HTTP {status}, but the reply is not JSON: this is not a "
                             f"chat-completions API{snippet}", True, status)
            if isinstance(doc, dict) and isinstance(doc.get("choices"), list):
                return found(ANSWERED, f"HTTP {status} with a chat completion", False, status)
            if isinstance(doc, dict) and doc.get("error"):
                return found(HTTP_ERROR, f"HTTP {status} with an error{snippet}", False, status)
            return found(MALFORMED_REPLY, f"HTTP {status}, but the reply is not a chat completion "
                         f"(no choices){snippet}", True, status)
        if 300 <= status < 400:
            return found(HTTP_ERROR, self._redirect_message(status, headers.get("location", "")), True, status)
        if status in (401, 403):
            return found(AUTH_REFUSED, f"HTTP {status}: the endpoint refused the API key{snippet}", True, status)
        if status in (404, 405, 410):
            return found(HTTP_ERROR, f"HTTP {status}{snippet}; either no chat-completions API is served there "
                         f"(give the base URL the OpenAI SDKs take, most end in /v1, or the full "
                         f"…{CHAT_COMPLETIONS} URL) or the model name is not known to it", True, status)
        # 408, 429, 5xx, a request refused (400, 422): the endpoint is there and may answer the run
        return found(HTTP_ERROR, f"HTTP {status}{snippet}", False, status)

    # --- one HTTP attempt ----------------------------------------------------------------
    def _post(self, payload: bytes, policy: NetPolicy | None = None) -> tuple[int, dict[str, str], bytes]:
        pol = policy or self.policy
        try:
            target = netguard.check_url(self.url, pol.allow_loopback, self.resolve)
        except netguard.AddressRefused as e:
            kind = UNREACHABLE if str(e).startswith("cannot resolve") else ADDRESS_REFUSED
            raise EndpointError(kind, str(e)) from None
        deadline = time.monotonic() + pol.timeout_s
        conn = None
        errors = []
        for address in target.addresses:  # every one was checked; first that connects wins
            left = deadline - time.monotonic()
            if left <= 0:  # the attempt's deadline bounds the connects over all addresses too
                errors.append(f"{address}: {TIMED_OUT}")
                break
            try:
                conn = _connection(target, address, min(pol.connect_timeout_s, left))
                conn.connect()
                break
            except (OSError, ssl.SSLError) as e:
                errors.append(f"{address}: {_os_reason(e)}")
                conn = None
        if conn is None:
            raise EndpointError(UNREACHABLE, f"cannot connect to {target.host}:{target.port} "
                                f"({'; '.join(errors)})", timed_out=all(e.endswith(TIMED_OUT) for e in errors))
        headers = {"Content-Type": "application/json", "Accept": "application/json",
                   "User-Agent": USER_AGENT}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        try:
            conn.sock.settimeout(max(0.001, deadline - time.monotonic()))
            conn.request("POST", target.path, body=payload, headers=headers)
            resp = conn.getresponse()
            chunks, size = [], 0
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise socket.timeout()
                conn.sock.settimeout(left)
                chunk = resp.read(64 << 10)
                if not chunk:
                    break
                size += len(chunk)
                if size > pol.max_response_bytes:
                    raise EndpointError(MALFORMED_REPLY, f"the reply is larger than "
                                        f"{_size(pol.max_response_bytes)}")
                chunks.append(chunk)
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, b"".join(chunks)
        except (socket.timeout, TimeoutError):
            raise EndpointError(TIMEOUT, f"no complete reply within {pol.timeout_s:g} s") from None
        except http.client.HTTPException as e:
            raise EndpointError(MALFORMED_REPLY, f"not a valid HTTP response ({type(e).__name__})") from None
        except OSError as e:
            raise EndpointError(UNREACHABLE, f"connection to {target.host}:{target.port} failed "
                                f"({_os_reason(e)})") from None
        finally:
            conn.close()

    def _redirect_message(self, status: int, location: str) -> str:
        where = location[:200] or "(no Location)"
        msg = f"HTTP {status} redirect to {redact(where, self.api_key)} refused: redirects are not followed"
        if location:
            try:
                netguard.check_url(location, self.policy.allow_loopback, self.resolve)
            except netguard.AddressRefused as e:
                msg += f"; the target is not allowed either ({e})"
        return msg

    def _snippet(self, raw: bytes) -> str:
        text = raw[:300].decode("utf-8", "replace").strip()
        return f": {redact(text, self.api_key)}" if text else ""

    def _parse(self, raw: bytes, attempts: int, latency: float, prompt_chars: int) -> Reply:
        def bad(why: str) -> EndpointError:
            return EndpointError(MALFORMED_REPLY, why + self._snippet(raw), attempts)

        try:
            doc = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            raise bad("the reply is not JSON") from None
        if not isinstance(doc, dict):
            raise bad("the reply is not a JSON object")
        if isinstance(doc.get("error"), (dict, str)):
            err = doc["error"]
            message = err.get("message", "") if isinstance(err, dict) else err
            raise bad(f"the endpoint returned an error ({str(message)[:200]})")
        choices = doc.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise bad("the reply has no choices")
        message = choices[0].get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, str):
            raise bad("the reply's choices[0].message.content is not a string")
        if len(content) > MAX_MESSAGE_CHARS:
            raise bad(f"the reply's content has {len(content)} characters; the limit is {MAX_MESSAGE_CHARS}")
        usage = doc.get("usage") if isinstance(doc.get("usage"), dict) else {}
        usage = {k: int(v) for k, v in usage.items()
                 if k in ("prompt_tokens", "completion_tokens", "total_tokens")
                 and isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 10**9}
        estimated = "total_tokens" not in usage
        if estimated:
            usage = {"prompt_tokens": estimate_tokens(" " * prompt_chars),
                     "completion_tokens": estimate_tokens(content)}
            usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        return Reply(content, usage, latency, attempts, model=str(doc.get("model", ""))[:200],
                     finish_reason=str(choices[0].get("finish_reason") or "")[:40],
                     usage_estimated=estimated)


# Threads that only wait on an endpoint's HTTP reply (no database, no measurement): a few, since
# one task has at most one request ahead of the candidate being measured.
_SENDER = ThreadPoolExecutor(max_workers=4, thread_name_prefix="ekb-endpoint-send")


@dataclass
class InFlight:
    """A call whose first attempt :meth:`ChatClient.send` sent (or could not send: ``error``)."""

    client: ChatClient
    payload: bytes
    prompt_chars: int
    t0: float
    sent: Future | None = None
    error: EndpointError | None = None

    def reply(self) -> Reply:
        """The reply, as :meth:`ChatClient.complete` returns it (or its :class:`EndpointError`)."""
        if self.error is not None:
            raise self.error
        return self.client._complete(self.payload, self.prompt_chars, self.t0, self.sent)  # noqa: SLF001


def _connection(target: netguard.Target, address: str, timeout: float) -> http.client.HTTPConnection:
    cls = _GuardedHTTPSConnection if target.scheme == "https" else _GuardedHTTPConnection
    return cls(target.host, target.port, address, timeout)


class _GuardedHTTPConnection(http.client.HTTPConnection):
    """Connects to the address the guard checked, not to whatever the name resolves to now."""

    def __init__(self, host: str, port: int, address: str, timeout: float):
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self):
        self.sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class _GuardedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float):
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self):
        sock = socket.create_connection((self._address, self.port), self.timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


TIMED_OUT = "timed out"


def _os_reason(e: BaseException) -> str:
    if isinstance(e, (socket.timeout, TimeoutError)):
        return TIMED_OUT
    return getattr(e, "strerror", None) or type(e).__name__


def _size(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 and not n % (1 << 20) else f"{n >> 10} KiB"
