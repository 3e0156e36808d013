"""REST API of the boards: the same ``leaderboard.ranking.board`` the pages call.

* ``GET /api/v1/leaderboard/`` — one page of a board (every baseline row on each page);
* ``GET /api/v1/leaderboard/export.csv`` and ``export.json`` — all rows of a board, as files;
* ``GET /api/v1/leaderboard/boards/`` — every board (backend × device) and its measured peak;
* ``GET /api/v1/leaderboard/matrix/`` — the backend × domain Fast@1.0 matrix.

Query parameters (all optional): ``backend``, ``device``, ``track`` (public | verified), ``level``,
``domain``, ``family``, ``dtype``, ``baseline`` (tvm-default | tvm-tuned | vendor), ``p`` (0.5 … 2),
``view`` (all | best | latest per team), ``sort``, ``order``, and on ``/leaderboard/`` ``offset`` and
``limit`` (the bounds of every paginated list: ``portal.pagination``); a bad one is a 400 naming it, a
device without a board on the backend a 404. Blank means not given. The schema says all of it, and
``tests/portal/test_openapi_conformance.py`` holds the views to it (docs/api.md).
"""

from __future__ import annotations

import csv
import io
import json

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from evaluator.scoring import FAST_P
from leaderboard import matrix
from leaderboard.ranking import NO_GENERALISATION, BoardQuery, BoardQuerySerializer, Ranking, board, boards
from leaderboard.ranking.params import BOARD_FIELDS, BoardPageQuerySerializer
from leaderboard.serializers import (BoardExportSerializer, BoardPageSerializer, BoardSummarySerializer,
                                     MatrixQuerySerializer, MatrixSerializer)
from leaderboard.slices import FILTERS
from portal import provenance
from portal.models import Submission

GENERALISATION_KEYS = list(NO_GENERALISATION)  # generalisation, generalisation_fast, generalisation_patterns
EXPORT_FORMATS = ("csv", "json")
NO_BOARD = OpenApiResponse(description="no board for that device on the backend (the body names the device)")


def _read(cls: type[BoardQuerySerializer], request: Request) -> tuple[dict, Response | None]:
    """The validated board parameters, or the error answer: 400 naming each bad parameter, 404
    when the one problem is a device without a board (a well-formed request for what is not there)."""
    data, errors = cls.read(request.query_params)
    if not errors:
        return data, None
    return data, Response({k: [v] for k, v in errors.items()}, status=404 if set(errors) == {"device"} else 400)


def _board(data: dict) -> Ranking:
    return board(query=BoardQuery(**{k: v for k, v in data.items() if k in BOARD_FIELDS}))


class LeaderboardView(APIView):
    """One page of a board: ranked submission rows (``offset``, ``limit``) and every baseline row,
    in display order, with the board's description."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[BoardPageQuerySerializer], responses={200: BoardPageSerializer, 404: NO_BOARD})
    def get(self, request: Request) -> Response:
        data, error = _read(BoardPageQuerySerializer, request)
        if error:
            return error
        r = _board(data)
        offset, limit = data["offset"], data["limit"]
        return Response({"board": r.meta(), "count": r.submissions, "offset": offset, "limit": limit,
                         "rows": [x.to_json() for x in r.page(offset, limit)]})
# fast_sig@p next to fast@p: the lower bound of the speedup's 95 % CI ≥ p (a tie within noise
# is not counted fast); ties@1.0: correct tasks whose interval contains 1.0; generalisation*:
# shares and a count over patterns from the verified run, never which workloads
CSV_FIELDS = (["rank", "kind", "name", "owner", "submission_id", "created_at", "verified", "tasks", "attempted",
               "correct", "correct@1"] + [k for p in FAST_P for k in (f"fast@{p}", f"fast_sig@{p}")]
              + ["ties@1.0", *GENERALISATION_KEYS, "geomean_correct", "geomean_deployable", "roofline_median"])


# after the domain columns: what produced the row's results (";" between distinct values)
PROVENANCE_FIELDS = ("tvm", "evaluator", "harness_digest", "protocol_digest", "device", "driver", "hostname", "digest")


def _filename(r: Ranking, ext: str) -> str:
    q = r.query
    parts = [q.backend.replace(":", "-"), q.track, *(getattr(q, f) for f in FILTERS if getattr(q, f)),
             f"vs-{q.baseline}"]
    return "ekb-" + "-".join("".join(c if c.isalnum() or c in "-._" else "_" for c in p) for p in parts) + "." + ext


class ExportView(APIView):
    """Every row of a board as a file: ``export.csv`` (one line per row; per-domain Fast@p
    columns) or ``export.json`` (the board's description and its rows)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[BoardQuerySerializer,
                               OpenApiParameter("fmt", str, OpenApiParameter.PATH, enum=list(EXPORT_FORMATS),
                                                description="the file's format (404: another one)")],
                   responses={(200, "text/csv"): OpenApiTypes.STR, (200, "application/json"): BoardExportSerializer,
                              404: NO_BOARD})
    def get(self, request: Request, fmt: str) -> HttpResponse | Response:
        if fmt not in EXPORT_FORMATS:
            raise NotFound(f"no export format {fmt[:20]!r}; known: {', '.join(EXPORT_FORMATS)}")
        data, error = _read(BoardQuerySerializer, request)
        if error:
            return error
        r = _board(data)
        # what produced each submission row's results on this board (portal.provenance)
        made_by = provenance.of_board({x.submission_id for x in r.rows if x.submission_id}, r.query.backend,
                                      r.query.track, r.query.device)
        if fmt == "json":
            body = json.dumps({"board": r.meta(), "rows": [x.to_json() for x in r.rows],
                               "provenance": {str(k): v for k, v in made_by.items()}}, cls=DjangoJSONEncoder,
                              indent=1)
            resp = HttpResponse(body, content_type="application/json")
        else:
            domains = sorted({d for x in r.rows for d in x.domains})
            buf = io.StringIO()
            w = csv.writer(buf)
            w.writerow(CSV_FIELDS + [f"fast@{r.query.p:g}:{d}" for d in domains] + list(PROVENANCE_FIELDS))
            for x in r.rows:
                s = x.summary
                rec = {"rank": x.rank, "kind": x.kind, "name": x.name, "owner": x.owner,
                       "submission_id": x.submission_id, "created_at": x.created_at, "verified": x.verified, **s}
                made = made_by.get(x.submission_id, [])
                w.writerow([_cell(rec.get(k)) for k in CSV_FIELDS] + [_cell(x.domains.get(d)) for d in domains]
                           + [_cell(";".join(sorted({str(m.get(k, "")) for m in made})) or None)
                              for k in PROVENANCE_FIELDS])
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

    @extend_schema(responses=BoardSummarySerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(boards())


class MatrixView(APIView):
    """Fast@1.0 per backend × domain, for one ``submission`` or across each board's ``top`` N."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[MatrixQuerySerializer], responses={
        200: MatrixSerializer, 404: OpenApiResponse(description="no submission of that id visible to you")})
    def get(self, request: Request) -> Response:
        q = MatrixQuerySerializer(data=request.query_params)
        q.is_valid(raise_exception=True)
        track, sid = q.validated_data["track"], q.validated_data.get("submission")
        if sid is not None:
            sub = Submission.objects.filter(pk=sid).first()
            if sub is None or not sub.visible_to(request.user):
                return Response({"submission": [f"no submission {sid}"]}, status=404)
            return Response(matrix.for_submission(sid, track))
        return Response(matrix.across_top(q.validated_data["top"], track))
