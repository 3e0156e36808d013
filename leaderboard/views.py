from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from evaluator.suite import DOMAINS, LEVELS
from leaderboard.ranking import board


def board_page(request: HttpRequest) -> HttpResponse:
    backend = request.GET.get("backend", "cpu-llvm")
    level = request.GET.get("level") or None
    domain = request.GET.get("domain") or None
    errors = []
    if backend not in settings.EKB_BACKENDS:
        errors.append(f"unknown backend {backend!r}")
        backend = settings.EKB_BACKENDS[0]
    if level and level not in LEVELS:
        errors.append(f"unknown level {level!r}")
        level = None
    if domain and domain not in DOMAINS:
        errors.append(f"unknown domain {domain!r}")
        domain = None
    rows = board(backend, level, domain)
    domains = sorted({d for r in rows for d in r.domains})
    return render(request, "leaderboard/board.html", {
        "rows": rows, "backend": backend, "level": level or "", "domain": domain or "",
        "backends": settings.EKB_BACKENDS, "levels": LEVELS, "all_domains": DOMAINS,
        "domains": domains, "errors": errors,
    })
