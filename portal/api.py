"""REST API v1: submissions, tasks, leaderboard. Thin views; logic lives in the domain modules."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping

from django.conf import settings
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from django.db.models import Q
from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle
from rest_framework.views import APIView

from evaluator.backends import infos
from evaluator.vocabulary import Track
from portal import quotas, starter, workers
from portal.jobs import queue_depth, queue_for
from portal.models import Submission
from portal.serializers import (BackendSerializer, DetailErrorSerializer, EndpointCreateSerializer,
                                 StarterQuerySerializer, SubmissionCreatedSerializer, SubmissionCreateSerializer,
                                 SubmissionSerializer, TaskDetailQuerySerializer, TaskDetailSerializer,
                                 TaskQuerySerializer, TaskSerializer, TraceSerializer)
from portal.submissions import cancel_submission, may_manage, request_verification, rerun_submission
from portal.throttles import QuotaExceeded

# The errors of the operations on one submission (cancel, rerun), as the schema documents them
_NOT_LOGGED_IN = OpenApiResponse(DetailErrorSerializer, description="no valid API token")
_NOT_OWNER = OpenApiResponse(DetailErrorSerializer, description="you see the submission but are not its owner or staff")
_NO_SUCH = OpenApiResponse(DetailErrorSerializer, description="no submission of that id that you can see")


def _detail(e: DjangoValidationError) -> dict[str, str]:
    return {"detail": " ".join(e.messages)}


def _is_conflict(e: DjangoValidationError) -> bool:
    # portal.submissions marks "the submission is in the wrong state for this" with this code
    return getattr(e, "code", None) == "conflict"


IDEMPOTENCY_HEADER = "Idempotency-Key"
_IDEMPOTENCY_KEY = re.compile(r"[A-Za-z0-9._:-]{1,64}")


def _idempotency_key(request: Request) -> str:
    """The request's Idempotency-Key ("" without one), or a 400 naming what is wrong with it."""
    key = request.headers.get(IDEMPOTENCY_HEADER)
    if key is None:
        return ""
    if not _IDEMPOTENCY_KEY.fullmatch(key):
        raise ValidationError({IDEMPOTENCY_HEADER: [
            f"must be 1-64 letters, digits, '.', '_', ':' or '-'; got {len(key)} characters"
            + (f" ({key[:20]!r}…)" if len(key) > 20 else f" ({key!r})")]})
    return key


def _same_request(sub: Submission, validated: dict) -> bool:
    """Whether a repeat asks for what ``sub`` was made from: the same bundle bytes, or an endpoint
    submission of the same model."""
    if "bundle" in validated:
        upload = validated["bundle"]
        digest = hashlib.sha256()
        upload.seek(0)
        for chunk in upload.chunks():
            digest.update(chunk)
        upload.seek(0)
        return sub.kind == Submission.Kind.BUNDLE and digest.hexdigest() == sub.bundle_sha256
    return sub.kind == Submission.Kind.ENDPOINT and sub.endpoint.model == validated.get("model")


class SubmissionViewSet(mixins.CreateModelMixin, mixins.RetrieveModelMixin, mixins.ListModelMixin,
                        viewsets.GenericViewSet):
    """Your submissions and the public ones. Submitting needs an API token: a bundle (multipart
    upload) or a model endpoint (JSON with ``"kind": "endpoint"``)."""

    parser_classes = [MultiPartParser, FormParser, JSONParser]
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    # the methods served; without this the ``trace`` action's name would make TRACE one of them
    http_method_names = ["get", "post", "head", "options"]
    filterset_fields = ["state", "kind"]
    throttle_scope = "submissions"

    def get_throttles(self):
        # every request counts against the user's API rate; a rerun queues as much work as an upload
        return [*super().get_throttles(), *([ScopedRateThrottle()] if self.action in ("create", "rerun") else [])]

    def get_queryset(self):
        user = self.request.user
        visible = Q(public=True)
        if user.is_authenticated:
            visible |= Q(owner=user)
        return Submission.objects.filter(visible).select_related("owner")

    def get_serializer_class(self):
        return SubmissionCreateSerializer if self.action == "create" else SubmissionSerializer

    def get_serializer_context(self):
        # the queue position and estimate read the broker: for one submission, never for a list
        return {**super().get_serializer_context(), "with_results": self.action == "retrieve",
                "with_queue": self.action == "retrieve"}

    @extend_schema(request=None, responses={202: SubmissionSerializer})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAdminUser])
    def verify(self, request: Request, pk=None) -> Response:
        """Staff: evaluate this finished submission on every workload, hidden ones included, with
        secret seeds; its results then rank on the verified boards."""
        sub = self.get_object()
        try:
            request_verification(sub)
        except DjangoValidationError as e:
            return Response({"detail": " ".join(e.messages)}, status=status.HTTP_409_CONFLICT)
        return Response(SubmissionSerializer(sub, context={"with_results": False}).data,
                        status=status.HTTP_202_ACCEPTED)

    @extend_schema(responses={200: TraceSerializer})
    @action(detail=True, methods=["get"], url_path=r"trace/(?P<backend>[^/]+)/(?P<workload>.+)")
    def trace(self, request: Request, pk=None, backend: str = "", workload: str = "") -> Response:
        """One task's optimization trace (public workloads only), as the trace page shows it."""
        sub = self.get_object()
        result = sub.results.filter(backend=backend, workload=workload.rstrip("/"), track=Track.PUBLIC,
                                    hidden=False).first()
        if result is None:
            raise Http404(f"submission {sub.pk} has no public result for {workload!r} on {backend!r}")
        steps = [s for s in (result.record.get("trace") or []) if isinstance(s, dict)]
        return Response(TraceSerializer({"submission": sub.pk, "workload": result.workload, "backend": backend,
                                         "status": result.status, "steps": steps}).data)

    def _managed(self, pk) -> Submission:
        """Submission ``pk`` for its owner or staff: 404 where the user cannot see it, 403 where
        they see it but may not change it."""
        sub = Submission.objects.select_related("owner").filter(pk=pk).first() if str(pk).isdigit() else None
        if sub is None or not sub.visible_to(self.request.user):
            raise Http404(f"no submission {pk} that you can see")
        if not may_manage(sub, self.request.user):
            raise PermissionDenied(f"only the owner of submission {sub.pk} or staff may {self.action} it")
        return sub

    @extend_schema(request=None, responses={
        200: SubmissionSerializer, 401: _NOT_LOGGED_IN, 403: _NOT_OWNER, 404: _NO_SUCH,
        409: OpenApiResponse(DetailErrorSerializer, description="the submission has already ended")})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def cancel(self, request: Request, pk=None) -> Response:
        """Owner or staff: stop a queued or running submission; its jobs stop between tasks."""
        sub = self._managed(pk)
        try:
            cancel_submission(sub)
        except DjangoValidationError as e:
            return Response(_detail(e), status=status.HTTP_409_CONFLICT)
        return Response(SubmissionSerializer(sub, context={"with_results": False, "request": request}).data)

    @extend_schema(request=None, responses={
        201: SubmissionSerializer,
        400: OpenApiResponse(DetailErrorSerializer, description="the bundle no longer passes today's checks, or "
                             "a backend is no longer served"),
        401: _NOT_LOGGED_IN, 403: _NOT_OWNER, 404: _NO_SUCH,
        409: OpenApiResponse(DetailErrorSerializer, description="the submission is still queued or running"),
        429: OpenApiResponse(DetailErrorSerializer, description="over the upload rate or the owner's daily quota "
                             "(reruns count as uploads; the message says when to retry)")})
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def rerun(self, request: Request, pk=None) -> Response:
        """Owner or staff: a new submission of the same bundle or endpoint on the same backends,
        owned by the same user and queued like a new upload. Only for one that has ended."""
        sub = self._managed(pk)
        over = quotas.over_quota(sub.owner, actor=request.user)  # the new submission is the owner's
        if over:
            raise QuotaExceeded(over)
        try:
            new = rerun_submission(sub, actor=request.user)
        except quotas.QuotaExhausted as e:  # another of the owner's took the last slot meanwhile
            raise QuotaExceeded(e.over) from None
        except DjangoValidationError as e:
            code = status.HTTP_409_CONFLICT if _is_conflict(e) else status.HTTP_400_BAD_REQUEST
            return Response(_detail(e), status=code)
        return Response(SubmissionSerializer(new, context={"with_results": False, "with_queue": True,
                                                           "request": request}).data,
                        status=status.HTTP_201_CREATED)

    @extend_schema(request={
        "multipart/form-data": SubmissionCreateSerializer,
        "application/json": EndpointCreateSerializer,
    }, parameters=[OpenApiParameter(
        IDEMPOTENCY_HEADER, {"type": "string", "pattern": f"^{_IDEMPOTENCY_KEY.pattern}$", "minLength": 1,
                             "maxLength": 64}, OpenApiParameter.HEADER, required=False,
        description="a key of the client's (1-64 letters, digits, '.', '_', ':' or '-'), the same on every retry "
                    "of one submission: a request whose key the user already submitted with gets that "
                    "submission back (200, header Idempotent-Replayed: true) and makes no other")],
        responses={201: SubmissionCreatedSerializer,
                   200: OpenApiResponse(SubmissionCreatedSerializer, description="the submission this "
                                        "Idempotency-Key made earlier (nothing new is made)"),
                   409: OpenApiResponse(DetailErrorSerializer, description="the Idempotency-Key made a "
                                        "submission from another request (another bundle or model)")})
    def create(self, request: Request, *args, **kwargs) -> Response:
        key = _idempotency_key(request)
        # a JSON body that is not an object (a list, a number) is refused by the serializer, by name
        kind = request.data.get("kind", "bundle") if isinstance(request.data, Mapping) else "bundle"
        cls = EndpointCreateSerializer if kind == "endpoint" else SubmissionCreateSerializer
        ser = cls(data=request.data, context={"request": request, "idempotency_key": key})
        earlier = self._made_with(key)
        if earlier is not None:  # a repeat: checked as any request, then answered with what it made
            ser.is_valid(raise_exception=True)
            return self._replay(earlier, ser)
        over = quotas.over_quota(request.user)
        if over:
            raise QuotaExceeded(over)
        ser.is_valid(raise_exception=True)
        try:
            sub = ser.save()
        except quotas.QuotaExhausted as e:  # another upload of the user's took the last slot meanwhile
            raise QuotaExceeded(e.over) from None
        except IntegrityError:  # a concurrent request with the same key stored its submission first
            earlier = self._made_with(key)
            if earlier is None:
                raise
            return self._replay(earlier, ser)
        return Response(SubmissionCreatedSerializer(sub, context={"with_results": False, "with_queue": True,
                                                                  "request": request}).data,
                        status=status.HTTP_201_CREATED)

    def _made_with(self, key: str) -> Submission | None:
        """The user's submission an earlier request with this Idempotency-Key made, if any."""
        return Submission.objects.filter(owner=self.request.user, idempotency_key=key).first() if key else None

    def _replay(self, earlier: Submission, ser) -> Response:
        """A repeat's answer: the submission its key made (200), or a 409 where the repeat asks
        for something else (another bundle's bytes, another kind or model)."""
        if not _same_request(earlier, ser.validated_data):
            return Response({"detail": f"this {IDEMPOTENCY_HEADER} was used for submission {earlier.pk}, made "
                             "from another request; a key names one submission: send a new key for a new one"},
                            status=status.HTTP_409_CONFLICT)
        return Response(SubmissionCreatedSerializer(earlier, context={"with_results": False, "with_queue": True,
                                                                      "request": self.request}).data,
                        status=status.HTTP_200_OK, headers={"Idempotent-Replayed": "true"})


class StarterBundleThrottle(SimpleRateThrottle):
    """Starter bundles are made on the request (up to seconds of TVM work): per user or address."""

    scope = "starter-bundle"
    rate = "120/hour"

    def get_cache_key(self, request: Request, view) -> str:
        ident = request.user.pk if request.user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class TaskViewSet(viewsets.ViewSet):
    """The public workloads this deployment serves (hidden ones are never listed nor shown)."""

    permission_classes = [permissions.AllowAny]
    serializer_class = TaskSerializer
    # a workload id is family/name@tag: one slash, so the lookup spans two path segments
    lookup_field = "workload"
    lookup_value_regex = r"[^/]+/[^/]+"

    def get_throttles(self):
        return [*super().get_throttles(), *([StarterBundleThrottle()] if self.action == "starter_bundle" else [])]

    @extend_schema(parameters=[TaskQuerySerializer], responses={
        200: TaskSerializer(many=True),
        400: OpenApiResponse(OpenApiTypes.OBJECT, description="a filter's value is not known: {parameter: [message]}")})
    def list(self, request: Request) -> Response:
        """The tasks, narrowed by every filter given."""
        q = TaskQuerySerializer(data={k: v for k, v in request.query_params.items() if v != ""})
        if not q.is_valid():
            return Response(q.errors, status=status.HTTP_400_BAD_REQUEST)
        filters = {k: v for k, v in q.validated_data.items() if k != "backend"}
        return Response([w.describe() | {"workload": w.id} for w in starter.matching_tasks(**filters)])

    @extend_schema(parameters=[
        TaskDetailQuerySerializer,
        OpenApiParameter("workload", OpenApiTypes.STR, OpenApiParameter.PATH,
                         description="a workload id, e.g. matmul/matmul@m128n512k128")],
        responses={200: TaskDetailSerializer,
                   400: OpenApiResponse(OpenApiTypes.OBJECT, description="a bad backend, mode or prompt version"),
                   404: OpenApiResponse(DetailErrorSerializer, description="no public task of that id is served here")})
    def retrieve(self, request: Request, workload: str = "") -> Response:
        """One task in full: its spec, canonical TVMScript, NumPy reference and the exact prompt an
        endpoint submission's model receives for it (``mode``, ``backend``)."""
        w = starter.served_workload(workload)
        if w is None:  # a held-out id gets this same answer
            raise Http404(f"no public task {workload!r} is served here")
        q = TaskDetailQuerySerializer(data={k: v for k, v in request.query_params.items() if v != ""})
        if not q.is_valid():
            return Response(q.errors, status=status.HTTP_400_BAD_REQUEST)
        v = q.validated_data
        detail = starter.task_detail(w, backend=v.get("backend") or settings.EKB_BACKENDS[0], mode=v["mode"],
                                     prompt_version=v["prompt_version"])
        return Response(TaskDetailSerializer(detail).data)

    @extend_schema(parameters=[StarterQuerySerializer], responses={
        (200, "application/zip"): OpenApiResponse(OpenApiTypes.BINARY, description="the bundle: manifest.json and "
                                                  "one tvm-default schedule per task"),
        400: OpenApiResponse(OpenApiTypes.OBJECT, description="no glob, too many, one matches nothing, more than "
                             f"{starter.MAX_STARTER_TASKS} tasks match, or no tvm-default entries on the backend"),
        429: OpenApiResponse(DetailErrorSerializer, description="over the rate of starter bundles")})
    @action(detail=False, methods=["get"], url_path="starter-bundle")
    def starter_bundle(self, request: Request) -> HttpResponse | Response:
        """A starter bundle (.zip): TVM's default schedule for each task matching the globs, on one
        backend; every task correct, speedups about 1. ``ekb init`` unpacks it."""
        q = StarterQuerySerializer.from_query(request.query_params)
        if not q.is_valid():
            return Response(q.errors, status=status.HTTP_400_BAD_REQUEST)
        try:
            name, data = starter.starter_bundle(q.validated_data["tasks"],
                                                q.validated_data.get("backend") or starter.default_starter_backend())
        except DjangoValidationError as e:
            return Response(e.message_dict, status=status.HTTP_400_BAD_REQUEST)
        resp = HttpResponse(data, content_type="application/zip")
        resp["Content-Disposition"] = f'attachment; filename="{name}"'
        return resp


class BackendsView(APIView):
    """The backends: device, ISA/arch, availability (with the reason when not), the workers that
    serve each one and its queue depth. In Celery mode a backend is available when a live worker
    advertises it, described as that worker's machine sees it."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=BackendSerializer(many=True))
    def get(self, request: Request) -> Response:
        local = {i.name: i.to_json() for i in infos()}
        served_by: dict[str, list[dict]] = {}
        for w in workers.live():
            for info in w.backends:
                served_by.setdefault(info["name"], []).append({**info, "hostname": w.hostname,
                                                               "last_seen": w.last_seen})
        rows = []
        for name in list(local) + [n for n in served_by if n not in local]:
            ads = [a for a in served_by.get(name, []) if a["available"]]
            row = dict(ads[0]) if ads else dict(local.get(name) or served_by[name][0])
            if not settings.EKB_INPROCESS_WORKER and not ads and row["available"]:
                row["available"], row["reason"] = False, "no live worker serves this backend"
            row["workers"] = [{"hostname": a["hostname"], "device": a["device"], "last_seen": a["last_seen"]}
                              for a in ads]
            row["served"] = name in settings.EKB_BACKENDS
            row["queue"] = queue_for(name)
            row["queue_depth"] = queue_depth(name) if row["served"] else None
            rows.append(row)
        return Response(BackendSerializer(rows, many=True).data)
