"""REST API of the boards: the same ``leaderboard.ranking.board`` the pages call.

* ``GET /api/v1/leaderboard/`` — one page of a board (every baseline row on each page);
* ``GET /api/v1/leaderboard/export.csv`` and ``export.json`` — all rows of a board, as files;
* ``GET /api/v1/leaderboard/boards/`` — every board (backend × device) and its measured peak;
* ``GET /api/v1/leaderboard/matrix/`` — the backend × domain Fast@1.0 matrix.

Query parameters (all optional): ``backend``, ``device``, ``track`` (public | verified), ``level``,
``domain``, ``family``, ``dtype``, ``baseline`` (tvm-default | tvm-tuned | vendor), ``p`` (0.5 … 2),
``view`` (all | best | latest per team), ``sort``, ``order``; a bad one is a 400 naming it.
"""

from __future__ import annotations

import csv
import io
import json

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from evaluator.scoring import FAST_P
from evaluator.vocabulary import Track
from leaderboard import matrix
from leaderboard.ranking import NO_GENERALISATION, TRACKS, BoardQuerySerializer, Ranking, board, boards
from leaderboard.serializers import BoardPageSerializer
from leaderboard.slices import FILTERS
from portal.models import Submission

MAX_LIMIT = 1000
GENERALISATION_KEYS = list(NO_GENERALISATION)  # generalisation, generalisation_fast, generalisation_patterns


def _ranking(request: Request) -> Ranking | Response:
    q, errors = BoardQuerySerializer.parse(request.query_params)
    if errors:
        return Response({k: [v] for k, v in errors.items()}, status=400)
    return board(query=q)


def _int(request: Request, name: str, default: int, lo: int, hi: int) -> int | Response:
    raw = request.query_params.get(name)
    if raw in (None, ""):
        return default
    try:
        v = int(raw)
    except ValueError:
        v = None
    if v is None or not lo <= v <= hi:
        return Response({name: [f"{name} must be an integer from {lo} to {hi}"]}, status=400)
    return v


class LeaderboardView(APIView):
    """One page of a board: ranked submission rows (``offset``, ``limit``) and every baseline row,
    in display order, with the board's description."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[BoardQuerySerializer, OpenApiParameter("offset", int), OpenApiParameter("limit", int)],
                   responses=BoardPageSerializer)
    def get(self, request: Request) -> Response:
        r = _ranking(request)
        if isinstance(r, Response):
            return r
        offset = _int(request, "offset", 0, 0, 10**6)
        limit = _int(request, "limit", 100, 1, MAX_LIMIT)
        for v in (offset, limit):
            if isinstance(v, Response):
                return v
        return Response({"board": r.meta(), "count": r.submissions, "offset": offset, "limit": limit,
                         "rows": [x.to_json() for x in r.page(offset, limit)]})


# fast_sig@p next to fast@p: the lower bound of the speedup's 95 % CI ≥ p (a tie within noise
# is not counted fast); ties@1.0: correct tasks whose interval contains 1.0; generalisation*:
# shares and a count over patterns from the verified run, never which workloads
CSV_FIELDS = (["rank", "kind", "name", "owner", "submission_id", "created_at", "verified", "tasks", "attempted",
               "correct", "correct@1"] + [k for p in FAST_P for k in (f"fast@{p}", f"fast_sig@{p}")]
              + ["ties@1.0", *GENERALISATION_KEYS, "geomean_correct", "geomean_deployable", "roofline_median"])


def _filename(r: Ranking, ext: str) -> str:
    q = r.query
    parts = [q.backend.replace(":", "-"), q.track, *(getattr(q, f) for f in FILTERS if getattr(q, f)),
             f"vs-{q.baseline}"]
    return "ekb-" + "-".join("".join(c if c.isalnum() or c in "-._" else "_" for c in p) for p in parts) + "." + ext


class ExportView(APIView):
    """Every row of a board as a file: ``export.csv`` (one line per row; per-domain Fast@p
    columns) or ``export.json`` (the board's description and its rows)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[BoardQuerySerializer],
                   responses={(200, "text/csv"): OpenApiTypes.STR, (200, "application/json"): OpenApiTypes.OBJECT})
    def get(self, request: Request, fmt: str) -> HttpResponse | Response:
        r = _ranking(request)
        if isinstance(r, Response):
            return r
        if fmt == "json":
            body = json.dumps({"board": r.meta(), "rows": [x.to_json() for x in r.rows]}, cls=DjangoJSONEncoder,
                              indent=1)
            resp = HttpResponse(body, content_type="application/json")
        else:
            domains = sorted({d for x in r.rows for d in x.domains})
            buf = io.StringIO()
            w = csv.writer(buf)
            w.writerow(CSV_FIELDS + [f"fast@{r.query.p:g}:{d}" for d in domains])
            for x in r.rows:
                s = x.summary
                rec = {"rank": x.rank, "kind": x.kind, "name": x.name, "owner": x.owner,
                       "submission_id": x.submission_id, "created_at": x.created_at, "verified": x.verified, **s}
                w.writerow([_cell(rec.get(k)) for k in CSV_FIELDS] + [_cell(x.domains.get(d)) for d in domains])
            resp = HttpResponse(buf.getvalue(), content_type="text/csv; charset=utf-8")
        resp["Content-Disposition"] = f'attachment; filename="{_filename(r, fmt)}"'
        return resp


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, str) and v[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + v  # a name must never become a spreadsheet formula
    return v


class BoardsView(APIView):
    """Every board (backend × device): ranked submissions per track and the measured peaks."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        return Response(boards())


class MatrixView(APIView):
    """Fast@1.0 per backend × domain, for one ``submission`` or across each board's ``top`` N."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[OpenApiParameter("submission", int), OpenApiParameter("top", int),
                               OpenApiParameter("track", str, enum=list(TRACKS))],
                   responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        track = request.query_params.get("track") or Track.PUBLIC
        if track not in TRACKS:
            return Response({"track": [f"unknown track {track!r}; known: {', '.join(TRACKS)}"]}, status=400)
        if request.query_params.get("submission"):
            sid = _int(request, "submission", 0, 1, 2**62)
            if isinstance(sid, Response):
                return sid
            sub = Submission.objects.filter(pk=sid).first()
            if sub is None or not sub.visible_to(request.user):
                return Response({"submission": [f"no submission {sid}"]}, status=404)
            return Response(matrix.for_submission(sid, track))
        top = _int(request, "top", 10, 1, 100)
        if isinstance(top, Response):
            return top
        return Response(matrix.across_top(top, track))
