"""Browser pages of the submission side: submit, follow a submission, get an API token."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods
from rest_framework.authtoken.models import Token

from evaluator import records
from portal.forms import EndpointSubmissionForm, SubmissionForm
from portal.models import Submission
from portal.submissions import create_submission


@login_required
@require_http_methods(["GET", "POST"])
def submit(request: HttpRequest) -> HttpResponse:
    form = SubmissionForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            sub = create_submission(request.user, form.cleaned_data["bundle"],
                                    name=form.cleaned_data["name"], description=form.cleaned_data["description"],
                                    public=form.cleaned_data["public"], backends=form.cleaned_data["backends"] or None)
        except ValidationError as e:
            for m in e.messages:
                form.add_error("bundle", m)
        else:
            return redirect("portal:submission", pk=sub.pk)
    return render(request, "portal/submit.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def submit_endpoint(request: HttpRequest) -> HttpResponse:
    from portal.endpoints import create_endpoint_submission

    form = EndpointSubmissionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            sub = create_endpoint_submission(
                request.user, url=d["url"], model=d["model"], api_key=d["api_key"], mode=d["mode"],
                budget=form.budget(), tasks=d["tasks"].split(), name=d["name"], description=d["description"],
                public=d["public"], backends=d["backends"] or None)
        except ValidationError as e:
            for field, msgs in e.message_dict.items():
                form.add_error(field if field in form.fields else None, msgs)
        else:
            return redirect("portal:submission", pk=sub.pk)
    return render(request, "portal/submit_endpoint.html", {"form": form})


def submission(request: HttpRequest, pk: int) -> HttpResponse:
    sub = get_object_or_404(Submission.objects.select_related("owner"), pk=pk)
    if not sub.visible_to(request.user):
        raise Http404("no such submission")
    results = list(sub.results.filter(hidden=False))
    failures: dict[str, int] = {}
    for r in results:
        if r.status != records.CORRECT:
            failures[r.status] = failures.get(r.status, 0) + 1
    endpoint = getattr(sub, "endpoint", None) if sub.kind == Submission.Kind.ENDPOINT else None
    return render(request, "portal/submission.html", {
        "sub": sub, "results": results, "failures": sorted(failures.items()),
        "summaries": sorted(sub.summary.items()), "endpoint": endpoint,
        "is_owner": request.user.is_authenticated and request.user.pk == sub.owner_id,
    })


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
