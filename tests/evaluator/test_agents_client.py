"""The endpoint client against a real HTTP server on loopback: the SSRF guard, failure reasons,
retries, timeouts, size caps, budget accounting and the API key kept out of every message.

The scripted chat server (``evaluator.agents.server``) runs as a real threaded HTTP server on
127.0.0.1; "loopback allowed" is the development/test setting, "guard on" is the default."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from evaluator.agents import netguard
from evaluator.agents.budget import Meter
from evaluator.agents.client import (ADDRESS_REFUSED, AUTH_REFUSED, BUDGET_EXHAUSTED, HTTP_ERROR, MALFORMED_REPLY,
                                     TIMEOUT, UNREACHABLE, ChatClient, EndpointError, NetPolicy)
from evaluator.agents.server import ChatServer, ScriptedModel

KEY = "sk-test-0123456789abcdef"
MESSAGES = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "Task: x/y@z\nhello"}]


def serve(steps, api_key: str = KEY) -> ChatServer:
    return ChatServer([ScriptedModel({"default": steps})], api_key=api_key).start()


@pytest.fixture
def server(request):
    servers = []

    def start(steps, api_key=KEY):
        s = serve(steps, api_key)
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.stop()


def client(url, key=KEY, **policy) -> ChatClient:
    pol = {"allow_loopback": True, "backoff_s": 0.01, "backoff_max_s": 0.05, **policy}
    return ChatClient(url, "scripted", key, policy=NetPolicy(**pol))


def fail(c: ChatClient) -> EndpointError:
    with pytest.raises(EndpointError) as info:
        c.complete(MESSAGES)
    return info.value


# --- the SSRF guard -------------------------------------------------------------------------

@pytest.mark.parametrize("url, why", [
    ("http://127.0.0.1:9/v1/chat/completions", "loopback"),
    ("http://10.0.0.1/v1/chat/completions", "private"),
    ("http://169.254.169.254/latest/meta-data/", "metadata"),
    ("http://[::ffff:10.0.0.1]/v1", "private"),
    ("http://[fd00:ec2::254]/", "metadata"),
    ("http://100.64.0.1/v1", "not a public address"),
    ("http://0.0.0.0:80/v1", "unspecified"),
])
def test_guard_refuses_non_public_addresses(url, why):
    with pytest.raises(netguard.AddressRefused, match=why):
        netguard.check_url(url)


def test_guard_refuses_a_name_that_resolves_to_a_private_address():
    # 'localhost' really resolves here (to loopback); the private-range name uses a resolver
    # standing in for a DNS answer, since this machine has no DNS of its own to point anywhere.
    with pytest.raises(netguard.AddressRefused, match="'localhost' resolves to .* loopback"):
        netguard.check_url("http://localhost:8000/v1/chat/completions")
    with pytest.raises(netguard.AddressRefused, match="'models.internal.example' resolves to 10.1.2.3, "
                                                      "which is a private address"):
        netguard.check_url("https://models.internal.example/v1", resolve=lambda h, p: ["10.1.2.3"])
    # a name with one public and one private answer (DNS rebinding) is refused too
    with pytest.raises(netguard.AddressRefused, match="192.168.1.1"):
        netguard.check_url("https://mixed.example/", resolve=lambda h, p: ["93.184.216.34", "192.168.1.1"])


def test_guard_accepts_public_addresses_and_rejects_bad_urls():
    t = netguard.check_url("https://api.example.com/v1/chat/completions?x=1", resolve=lambda h, p: ["93.184.216.34"])
    assert (t.scheme, t.host, t.port, t.path, t.addresses) == (
        "https", "api.example.com", 443, "/v1/chat/completions?x=1", ("93.184.216.34",))
    for bad, msg in [("ftp://example.com/", "http:// or https://"), ("http://user:pw@example.com/", "credentials"),
                     ("http:///nohost", "no host"), ("http://exa mple.com/", "whitespace"),
                     ("http://example.com/" + "a" * 600, "limit")]:
        with pytest.raises(netguard.AddressRefused, match=msg):
            netguard.check_url(bad, resolve=lambda h, p: ["93.184.216.34"])


def test_client_with_guard_on_never_contacts_a_loopback_server(server):
    s = server(["never sent"])
    e = fail(client(s.url, allow_loopback=False))
    assert e.kind == ADDRESS_REFUSED and e.fatal and "127.0.0.1 is a loopback address" in e.message
    assert s.requests == []  # refused before any connection


def test_client_connects_to_the_checked_address_not_a_fresh_lookup(server):
    """The name is resolved once, by the guard; the connection goes to that address."""
    s = server(["pong"])
    port = s.server_address[1]
    seen = []

    def resolver(host, p):
        seen.append(host)
        return ["127.0.0.1"]

    c = ChatClient(f"http://model.test:{port}/v1/chat/completions", "scripted", KEY,
                   policy=NetPolicy(allow_loopback=True), resolve=resolver)
    assert c.complete(MESSAGES).content == "pong"  # 'model.test' does not exist in any DNS
    assert seen == ["model.test"]


def test_redirect_to_a_private_address_is_refused(server):
    s = server([{"redirect": "http://10.0.0.1/v1/chat/completions", "status": 307}])
    e = fail(client(s.url))
    assert e.kind == HTTP_ERROR and "redirect to http://10.0.0.1/" in e.message
    assert "10.0.0.1 is a private address" in e.message
    assert len(s.requests) == 1  # not retried, not followed


# --- failure reasons ------------------------------------------------------------------------

def test_auth_refused_is_fatal_and_names_the_status(server):
    s = server(["ok"])
    e = fail(client(s.url, key="sk-wrong-key"))
    assert e.kind == AUTH_REFUSED and e.fatal and "HTTP 401" in str(e) and "auth refused" in str(e)
    assert s.requests == []  # refused at the door, not retried


def test_malformed_replies_are_named(server):
    for step, why in [({"raw": "<html>gateway</html>"}, "not JSON"),
                      ({"raw": json.dumps({"choices": []})}, "no choices"),
                      ({"raw": json.dumps({"choices": [{"message": {"content": 3}}]})}, "not a string")]:
        s = server([step])
        e = fail(client(s.url))
        assert e.kind == MALFORMED_REPLY and why in e.message, e.message


def test_timeouts_are_retried_then_reported(server):
    s = server([{"delay_s": 1.5, "content": "too late"}])
    t0 = time.monotonic()
    e = fail(client(s.url, timeout_s=0.3, retries=1))
    assert e.kind == TIMEOUT and "within 0.3 s" in e.message and e.attempts == 2
    assert "gave up after 2 attempts" in e.message
    assert time.monotonic() - t0 < 3


def test_server_errors_are_retried_with_backoff(server):
    sleeps = []
    s = server([{"status": 503, "body": "busy"}])
    c = client(s.url, retries=2, backoff_s=0.5, backoff_max_s=4)
    c.sleep = sleeps.append
    e = fail(c)
    assert e.kind == UNREACHABLE and "HTTP 503" in e.message and e.attempts == 3
    assert len(sleeps) == 2 and 0.25 <= sleeps[0] <= 0.5 and 0.5 <= sleeps[1] <= 1.0  # doubling, jittered


def test_unreachable_endpoint(server):
    s = server(["x"])
    url = s.url
    s.stop()  # nothing listens there now
    e = fail(client(url, retries=1))
    assert e.kind == UNREACHABLE and "cannot connect" in e.message


def test_response_size_is_capped(server):
    s = server(["x" * 300_000])
    e = fail(client(s.url, max_response_bytes=100_000))
    assert e.kind == MALFORMED_REPLY and "larger than" in e.message


def test_budget_counts_every_attempt(server):
    s = server(["one", "two"])
    meter = Meter(max_requests=2, max_tokens=10**6)
    c = client(s.url)
    c.meter = meter
    r = c.complete(MESSAGES)
    assert r.content == "one" and r.usage["total_tokens"] > 0 and meter.tokens == r.usage["total_tokens"]
    c.complete(MESSAGES)
    e = fail(c)
    assert e.kind == BUDGET_EXHAUSTED and e.fatal and "2 of 2 requests" in e.message
    assert len(s.requests) == 2


def test_the_api_key_never_appears_in_errors_or_reprs(server):
    s = server([{"echo_auth": True, "status": 400}])
    e = fail(client(s.url))
    assert "Authorization: Bearer [redacted]" in e.message  # the server did echo it
    assert KEY not in str(e) and KEY not in repr(e) and KEY not in repr(client(s.url))


def test_the_run_command_takes_either_url_form_and_names_another_operation():
    """`python -m evaluator.agents run` reads an endpoint URL as the portal does: a URL naming
    another operation of the API is refused before anything is evaluated."""
    out = subprocess.run([sys.executable, "-m", "evaluator.agents", "run", "https://api.example.com/v1/completions",
                          "--model", "m"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2, out.stdout + out.stderr
    assert "ends in /completions, another operation of the API" in out.stderr
