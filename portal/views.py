"""Browser pages of the submission side: submit, follow a submission, get an API token."""

from __future__ import annotations

import re
from collections import Counter

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods
from rest_framework.authtoken.models import Token

from evaluator import records
from evaluator.vocabulary import Baseline
from portal import estimates, quotas
from portal.endpoints import create_endpoint_submission
from portal.forms import EndpointSubmissionForm, SubmissionForm
from portal.models import Provenance, Result, Submission
from portal.signals import answers, submission_boards
from portal.submissions import cancel_submission, create_submission, may_manage, request_verification, rerun_submission


def _over_quota(request: HttpRequest, form, template: str) -> HttpResponse | None:
    """The form again with the quota's message (429, Retry-After), when the user is over it."""
    over = quotas.over_quota(request.user)
    return None if over is None else _refused(request, form, template, over)


def _refused(request: HttpRequest, form, template: str, over: quotas.OverQuota) -> HttpResponse:
    form.add_error(None, over.message)
    resp = render(request, template, {"form": form, "quota": _quota(request.user)}, status=429)
    resp["Retry-After"] = str(over.wait_s)
    return resp


def _quota(user) -> dict | None:
    """What the submit pages say of the daily quota (None where it does not apply)."""
    if quotas.exempt(user):
        return None
    return {"used": quotas.used(user), "limit": settings.EKB_DAILY_SUBMISSIONS}


@login_required
@require_http_methods(["GET", "POST"])
def submit(request: HttpRequest) -> HttpResponse:
    form = SubmissionForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and (refused := _over_quota(request, form, "portal/submit.html")):
        return refused
    if request.method == "POST" and form.is_valid():
        try:
            sub = create_submission(request.user, form.cleaned_data["bundle"],
                                    name=form.cleaned_data["name"], description=form.cleaned_data["description"],
                                    public=form.cleaned_data["public"], backends=form.cleaned_data["backends"] or None)
        except quotas.QuotaExhausted as e:  # another upload of the user's took the last slot meanwhile
            return _refused(request, form, "portal/submit.html", e.over)
        except ValidationError as e:
            for m in e.messages:
                form.add_error("bundle", m)
        else:
            return redirect("portal:submission", pk=sub.pk)
    return render(request, "portal/submit.html", {"form": form, "quota": _quota(request.user)})


def _reason_kind(reason: str) -> str:
    """A failure reason without its particulars (numbers, the text after the first colon), so
    alike failures group together."""
    head = reason.split(":", 1)[0] if ":" in reason[:80] else reason
    return re.sub(r"\d+(\.\d+)?", "N", head).strip()[:80] or "no reason given"


def failure_groups(results) -> list[dict]:
    """Failures by status, most frequent first, each with its reasons grouped."""
    groups: dict[str, Counter] = {}
    for r in results:
        if r.status != records.CORRECT:
            groups.setdefault(r.status, Counter())[_reason_kind(r.reason)] += 1
    return sorted(({"status": st, "count": sum(c.values()), "reasons": c.most_common(8)} for st, c in groups.items()),
                  key=lambda g: (-g["count"], g["status"]))


@login_required
@require_http_methods(["GET", "POST"])
def submit_endpoint(request: HttpRequest) -> HttpResponse:
    form = EndpointSubmissionForm(request.POST or None)
    if request.method == "POST" and (refused := _over_quota(request, form, "portal/submit_endpoint.html")):
        return refused
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            sub = create_endpoint_submission(
                request.user, url=d["url"], model=d["model"], api_key=d["api_key"], mode=d["mode"],
                budget=form.budget(), tasks=d["tasks"].split(), name=d["name"], description=d["description"],
                public=d["public"], backends=d["backends"] or None, probe=True)
        except quotas.QuotaExhausted as e:
            return _refused(request, form, "portal/submit_endpoint.html", e.over)
        except ValidationError as e:
            for field, msgs in e.message_dict.items():
                form.add_error(field if field in form.fields else None, msgs)
        else:
            found = sub.endpoint_check  # the answer says which URL is called and what the check saw
            if found.ok:
                messages.success(request, f"Every model call goes to {found.url}; it answered the check "
                                          f"({found.message}, {found.latency_s:g} s).")
            else:
                messages.warning(request, f"Every model call goes to {found.url}; it did not answer the check "
                                          f"({found.message}). The submission is queued anyway: the run's calls "
                                          "wait longer and are retried.")
            return redirect("portal:submission", pk=sub.pk)
    return render(request, "portal/submit_endpoint.html", {"form": form, "quota": _quota(request.user)})


def submission(request: HttpRequest, pk: int) -> HttpResponse:
    sub = get_object_or_404(Submission.objects.select_related("owner"), pk=pk)
    if not sub.visible_to(request.user):
        raise Http404("no such submission")
    results = list(sub.results.filter(hidden=False, track=Result.PUBLIC).order_by("backend", "workload"))
    groups = failure_groups(results)
    measured = [b for b in (Baseline.TVM_DEFAULT, Baseline.VENDOR, Baseline.TVM_TUNED)
                if b == Baseline.TVM_DEFAULT or any((r.record.get("speedup") or {}).get(b) for r in results)]
    for r in results:
        spd = r.record.get("speedup") or {}
        r.speedups = [spd.get(b) for b in measured]
        r.has_trace = bool(r.record.get("trace"))
    # per board and track, the submission's board summaries (the leaderboard's answer)
    boards = answers(submission_boards, Submission, submission=sub)
    provenance = Provenance.objects.filter(results__submission=sub, results__track=Result.PUBLIC).distinct()
    where = None if sub.is_done else estimates.whereabouts(sub)
    return render(request, "portal/submission.html", {
        "sub": sub, "results": results, "failure_groups": groups, "measured": measured,
        "failures": [(g["status"], g["count"]) for g in groups],
        "boards": [b for b in boards if b["track"] == Result.PUBLIC],
        "verified_boards": [b for b in boards if b["track"] == Result.VERIFIED],
        "can_verify": request.user.is_staff and sub.state == Submission.State.FINISHED
                      and sub.verification not in (Submission.Verification.QUEUED, Submission.Verification.RUNNING),
        "candidates": Submission.objects.filter(public=True, state=Submission.State.FINISHED).exclude(pk=sub.pk)
                                        .order_by("-created_at").values("pk", "name")[:200],
        "endpoint": getattr(sub, "endpoint", None) if sub.kind == Submission.Kind.ENDPOINT else None,
        "is_owner": request.user.is_authenticated and request.user.pk == sub.owner_id,
        "can_manage": may_manage(sub, request.user),
        "where": where,
        "eta": quotas.duration(where.eta_s) if where and where.eta_s is not None else "",
        "provenance": [{"digest": p.digest, **p.data} for p in provenance.order_by("digest")],
    })


def _managed(request: HttpRequest, pk: int) -> Submission:
    """A submission the user may cancel or run again (its owner, or staff); 404 for any other,
    as for one that does not exist."""
    sub = get_object_or_404(Submission.objects.select_related("owner"), pk=pk)
    if not sub.visible_to(request.user) or not may_manage(sub, request.user):
        raise Http404("no such submission")
    return sub


@login_required
@require_http_methods(["POST"])
def cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """Owner or staff: stop a queued or running submission (its running step is stopped too)."""
    sub = _managed(request, pk)
    try:
        cancel_submission(sub)
    except ValidationError as e:
        messages.error(request, " ".join(e.messages))
    return redirect("portal:submission", pk=sub.pk)


@login_required
@require_http_methods(["POST"])
def rerun(request: HttpRequest, pk: int) -> HttpResponse:
    """Owner or staff: the same bundle or endpoint again, as a new submission of the owner's
    (counted in the owner's daily quota)."""
    sub = _managed(request, pk)
    over = quotas.over_quota(sub.owner, actor=request.user)
    if over is not None:
        messages.error(request, over.message)
        return redirect("portal:submission", pk=sub.pk)
    try:
        new = rerun_submission(sub, actor=request.user)
    except quotas.QuotaExhausted as e:
        messages.error(request, e.over.message)
        return redirect("portal:submission", pk=sub.pk)
    except ValidationError as e:
        messages.error(request, " ".join(e.messages))
        return redirect("portal:submission", pk=sub.pk)
    return redirect("portal:submission", pk=new.pk)


@require_http_methods(["POST"])
def verify(request: HttpRequest, pk: int) -> HttpResponse:
    """Staff: queue the verified run (hidden workloads, secret seeds)."""
    if not request.user.is_staff:
        raise Http404("no such page")
    sub = get_object_or_404(Submission, pk=pk)
    try:
        request_verification(sub)
    except ValidationError as e:
        messages.error(request, " ".join(e.messages))
    return redirect("portal:submission", pk=sub.pk)


@login_required
@require_http_methods(["GET", "POST"])
def token(request: HttpRequest) -> HttpResponse:
    tok = Token.objects.filter(user=request.user).first()
    if request.method == "POST":
        if tok:
            tok.delete()  # rotating: the old token stops working at once
        tok = Token.objects.create(user=request.user)
    return render(request, "portal/token.html", {"token": tok})


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        form.save()
        return redirect("login")
    return render(request, "registration/signup.html", {"form": form})
