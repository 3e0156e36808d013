"""Endpoint submissions: accepting one, and running its jobs.

Accepting: the URL, given as the base URL the OpenAI SDKs take (``…/v1``) or as the full
chat-completions URL, is made once into the URL every call posts to
(``client.chat_completions_url``); that URL is stored and shown. It passes the SSRF guard
(resolved now; the worker checks again before every call), the key is a plausible bearer token
and is stored encrypted, the mode, budget, prompt version and tasks are valid. Submitted through
the API or the form (``probe=True``), the URL is then called once, as :func:`check_endpoint`
says. A rejected submission stores nothing.

Running (one job per backend, in the worker): per task, the evaluator's mode loop
(``evaluator.agents.modes.run_task``) calls the endpoint from the worker — outside the sandbox —
and evaluates what comes back with the pipeline — inside it, as any bundle entry. The
submission's request and token budget is counted in the database, atomically, so jobs on several
backends and a redelivered job share one budget. A fatal endpoint failure (auth refused, address
refused) ends the submission as failed; an exhausted budget records the tasks left as missing.
The decrypted key lives only in the client object; every message stored or logged is redacted.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import logging
import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F

from evaluator import records, suite
from evaluator.agents import netguard
from evaluator.agents.budget import Budget, BudgetExhausted, Meter
from evaluator.agents.client import (BUDGET_EXHAUSTED, CHECK_TIMEOUT_S, ChatClient, Check, NetPolicy,
                                     chat_completions_url, redact)
from evaluator.agents.modes import MODES, run_task
from evaluator.agents.prompts import CURRENT, TEMPLATES, PromptSet
from evaluator.pipeline import Stopped
from evaluator.records import TaskResult
from evaluator.vocabulary import Track
from portal import quotas
from portal.models import Endpoint, Submission
from portal.submissions import enqueue_jobs
from portal.tracks import heldout_secret, track_tasks

log = logging.getLogger(__name__)

API_KEY = re.compile(r"^[\x21-\x7e]{1,500}$")  # printable ASCII, no spaces: safe in a header
MODEL = re.compile(r"^[A-Za-z0-9._:/@+-]{1,200}$")
MAX_GLOBS = 64


def validate(*, url: str, model: str, api_key: str, mode: str, budget: dict | None,
             prompt_version: str, tasks: list[str] | None) -> tuple[Budget, list[str], str]:
    """The budget, the task globs and the URL to call; ValidationError naming every bad field."""
    errors: dict[str, list[str]] = {}
    called = url
    try:
        called = chat_completions_url(url)
        netguard.check_url(called, settings.EKB_ENDPOINT_ALLOW_LOOPBACK)
    except ValueError as e:  # netguard.AddressRefused included
        errors["url"] = [str(e)]
    if not MODEL.match(model or ""):
        errors["model"] = ["the model name must be 1–200 characters of letters, digits and ._:/@+-"]
    if api_key and not API_KEY.match(api_key):
        errors["api_key"] = ["the API key must be 1–500 printable characters without spaces"]
    if mode not in MODES:
        errors["mode"] = [f"mode must be one of {list(MODES)}"]
    if prompt_version not in TEMPLATES:
        errors["prompt_version"] = [f"unknown prompt version; known: {sorted(TEMPLATES)}"]
    b = None
    try:
        b = Budget.from_json(budget)
    except (ValueError, TypeError) as e:
        errors["budget"] = [str(e)]
    globs = [g.strip() for g in (tasks or []) if g.strip()]
    if len(globs) > MAX_GLOBS:
        errors["tasks"] = [f"at most {MAX_GLOBS} task patterns"]
    else:
        empty = [g for g in globs if not suite.select([g])]
        if empty:
            errors["tasks"] = [f"no public workload matches {g!r}" for g in empty]
    if errors:
        raise ValidationError(errors)
    return b, globs, called


def check_endpoint(url: str, model: str, api_key: str) -> Check:
    """Call the endpoint once, as the worker will (the SSRF guard, the key, the model), with one
    1-token chat completion bounded by ``CHECK_TIMEOUT_S``; its outcome. ValidationError naming
    the URL where calling it cannot work: a refused address, a name that does not resolve,
    nothing listening, the key refused, no chat-completions API there (404), a redirect, a reply
    that is no chat completion. A slow or busy endpoint (timeout, 429, 5xx, a request it
    refused) is accepted: the run's calls have longer limits and retries; the outcome says so."""
    policy = NetPolicy(allow_loopback=settings.EKB_ENDPOINT_ALLOW_LOOPBACK)
    found = ChatClient(url, model, api_key, policy=policy).check(min(CHECK_TIMEOUT_S, settings.EKB_ENDPOINT_TIMEOUT_S))
    if found.broken:
        raise ValidationError({"url": [f"calling {url} failed: {found.message}"]})
    return found


def create_endpoint_submission(owner, *, url: str, model: str, api_key: str = "", mode: str = "agent",
                               budget: dict | None = None, prompt_version: str = CURRENT,
                               tasks: list[str] | None = None, name: str = "", description: str = "",
                               public: bool = True, backends: list[str] | None = None,
                               enqueue: bool = True, probe: bool = False, idempotency_key: str = "",
                               quota: bool = True) -> Submission:
    """A new endpoint submission; ``url`` in either form, stored as the URL to call. ``probe``:
    call it first (:func:`check_endpoint`, after every other check passed); the outcome is on the
    returned submission as ``endpoint_check`` (None without a probe), for the answer — not stored.
    ``quota``: counted against the owner's daily quota (``quotas.QuotaExhausted`` when spent)."""
    b, globs, called = validate(url=url, model=model, api_key=api_key, mode=mode, budget=budget,
                                prompt_version=prompt_version, tasks=tasks)
    available = settings.EKB_BACKENDS
    chosen = list(backends or available[:1])
    unknown = [x for x in chosen if x not in available]
    if unknown:
        raise ValidationError({"backends": [f"backends {unknown} are not served here; available: {available}"]})
    found = check_endpoint(called, model, api_key) if probe else None
    n_tasks = len(suite.select(globs or None))
    with transaction.atomic():
        if quota:
            quotas.hold(owner)
        sub = Submission.objects.create(
            owner=owner, kind=Submission.Kind.ENDPOINT, name=(name or f"{model} ({mode})")[:64],
            description=description, public=public, backends=chosen, tasks_total=n_tasks * len(chosen),
            idempotency_key=idempotency_key)
        ep = Endpoint(submission=sub, url=called, model=model, mode=mode, budget=b.to_json(),
                      prompt_version=prompt_version, tasks=globs)
        ep.set_api_key(api_key)
        ep.save()
        if enqueue:
            transaction.on_commit(lambda: enqueue_jobs(sub))
    sub.endpoint_check = found
    return sub


# --- running --------------------------------------------------------------------------------

class DbMeter(Meter):
    """The submission's request/token budget, counted in its Endpoint row (atomic updates)."""

    def __init__(self, endpoint: Endpoint, budget: Budget):
        super().__init__(budget.max_requests, budget.max_tokens)
        self.pk = endpoint.pk

    def take_request(self) -> None:
        took = Endpoint.objects.filter(pk=self.pk, requests_used__lt=self.max_requests,
                                       tokens_used__lt=self.max_tokens).update(requests_used=F("requests_used") + 1)
        if not took:
            used = Endpoint.objects.filter(pk=self.pk).values("requests_used", "tokens_used").first() or {}
            raise BudgetExhausted(f"budget exhausted: {used.get('requests_used')} of {self.max_requests} "
                                  f"requests, {used.get('tokens_used')} of {self.max_tokens} tokens used")
        self.requests += 1

    def add_tokens(self, n: int) -> None:
        n = max(0, int(n))
        Endpoint.objects.filter(pk=self.pk).update(tokens_used=F("tokens_used") + n)
        self.tokens += n


class _Redact(logging.Filter):
    def __init__(self, secret: str):
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.getMessage()
        if self.secret in msg:
            record.msg, record.args = redact(msg, self.secret), None
        return True


@contextlib.contextmanager
def _redacting_logs(secret: str):
    """While a job holds a decrypted key, every log handler drops it from what it writes."""
    if not secret or len(secret) < 4:
        yield
        return
    f = _Redact(secret)
    handlers = list(logging.getLogger().handlers)
    for h in handlers:
        h.addFilter(f)
    try:
        yield
    finally:
        for h in handlers:
            h.removeFilter(f)


def _missing(w, backend: str, reason: str) -> TaskResult:
    return TaskResult(w.id, backend, records.MISSING, reason=reason[:4000], level=w.level, family=w.family,
                      domains=list(w.domains), hidden=w.hidden)


def evaluate_endpoint(sub: Submission, backend: str, pipe, done: set[str], store,
                      workloads: list | None = None, count_progress: bool = True) -> str | None:
    """Run every task of an endpoint submission not yet stored (``workloads``: its selection by
    default); the fatal endpoint failure that ended it, if any (the caller marks the submission
    failed). ``count_progress``: each stored result advances the public run's progress."""
    ep = sub.endpoint
    budget = Budget.from_json(ep.budget)
    prompts = PromptSet(ep.prompt_version)
    key = ep.api_key()
    policy = NetPolicy(allow_loopback=settings.EKB_ENDPOINT_ALLOW_LOOPBACK,
                       timeout_s=settings.EKB_ENDPOINT_TIMEOUT_S)
    client = ChatClient(ep.url, ep.model, key, policy=policy, meter=DbMeter(ep, budget))
    stop: str | None = None  # a fatal failure: the tasks left are not attempted
    fatal: str | None = None
    with _redacting_logs(key):
        try:
            for w in (ep.workloads() if workloads is None else workloads):
                if w.id in done:
                    continue
                if sub.is_cancelled():
                    return None
                if stop:
                    r = _missing(w, backend, f"not attempted: {stop}")
                else:
                    r = run_task(w, ep.mode, client, lambda c, w=w: pipe.evaluate(w, c), budget, pipe.info,
                                 prompts)
                    err = r.detail.get("endpoint", {}).get("error")
                    if err and err["fatal"]:
                        stop = f"endpoint {err['kind'].replace('_', ' ')}: {err['message']}"
                        fatal = None if err["kind"] == BUDGET_EXHAUSTED else stop
                _scrub(r, key)
                if store(sub, r) and count_progress:
                    Submission.objects.filter(pk=sub.pk).update(tasks_done=F("tasks_done") + 1)
        except (Stopped, OperationalError, InterfaceError):  # a cancel, or a dropped database
            raise  # connection (the job is retried); neither carries the key
        except Exception as e:  # noqa: BLE001 - re-raised without the key in its message
            raise RuntimeError(redact(f"{type(e).__name__}: {e}", key)) from None
    return fatal


def _scrub(r: TaskResult, key: str) -> None:
    """The key out of everything stored (an endpoint may echo it in a reply or an error)."""
    if not key:
        return
    r.reason = redact(r.reason, key)
    for t in r.trace or []:
        for k, v in t.items():
            if isinstance(v, str):
                t[k] = redact(v, key)
    err = r.detail.get("endpoint", {}).get("error")
    if err:
        err["message"] = redact(err["message"], key)


def verified_tasks(sub: Submission) -> list:
    """An endpoint's verified run: its selection again (secret seeds), then held-out shapes of the
    same patterns drawn afresh for this submission — never the deployment's standing held-out
    set, which the endpoint's operator would otherwise read in the prompts. The draw is
    deterministic (the deployment's secret and the submission), so a resumed run asks the same."""
    public = sub.endpoint.workloads()
    patterns = {w.pattern.id for w in public}
    secret = hmac.new(heldout_secret().encode(), f"endpoint-verify:{sub.pk}".encode(), hashlib.sha256).hexdigest()
    return public + [w for w in suite.held_out(secret) if w.pattern.id in patterns]


def expected_tasks(sub: Submission) -> list:
    """The workloads a submission is scored on: an endpoint's selection, else every public one."""
    if sub.kind == Submission.Kind.ENDPOINT and hasattr(sub, "endpoint"):
        return sub.endpoint.workloads()
    return track_tasks(Track.PUBLIC)
