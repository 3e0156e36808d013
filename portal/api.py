"""REST API v1: submissions, tasks, leaderboard. Thin views; logic lives in the domain modules."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Q
from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from evaluator import suite
from evaluator.backends import infos
from evaluator.vocabulary import Track
from portal import workers
from portal.jobs import queue_depth, queue_for
from portal.models import Submission
from portal.serializers import (BackendSerializer, EndpointCreateSerializer, SubmissionCreateSerializer,
                                 SubmissionSerializer, TaskSerializer, TraceSerializer)
from portal.submissions import request_verification


class SubmissionViewSet(mixins.CreateModelMixin, mixins.RetrieveModelMixin, mixins.ListModelMixin,
                        viewsets.GenericViewSet):
    """Your submissions and the public ones. Submitting needs an API token: a bundle (multipart
    upload) or a model endpoint (JSON with ``"kind": "endpoint"``)."""

    parser_classes = [MultiPartParser, FormParser, JSONParser]
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    filterset_fields = ["state", "kind"]
    throttle_scope = "submissions"

    def get_throttles(self):
        return [ScopedRateThrottle()] if self.action == "create" else []

    def get_queryset(self):
        user = self.request.user
        visible = Q(public=True)
        if user.is_authenticated:
            visible |= Q(owner=user)
        return Submission.objects.filter(visible).select_related("owner")

    def get_serializer_class(self):
        return SubmissionCreateSerializer if self.action == "create" else SubmissionSerializer

    def get_serializer_context(self):
        return {**super().get_serializer_context(), "with_results": self.action == "retrieve"}

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

    @extend_schema(request={
        "multipart/form-data": SubmissionCreateSerializer,
        "application/json": EndpointCreateSerializer,
    }, responses={201: SubmissionSerializer})
    def create(self, request: Request, *args, **kwargs) -> Response:
        kind = request.data.get("kind", "bundle")
        cls = EndpointCreateSerializer if kind == "endpoint" else SubmissionCreateSerializer
        ser = cls(data=request.data, context={"request": request})
        ser.is_valid(raise_exception=True)
        sub = ser.save()
        return Response(SubmissionSerializer(sub, context={"with_results": False, "request": request}).data,
                        status=status.HTTP_201_CREATED)


class TaskViewSet(viewsets.ViewSet):
    """The public workloads of the suite (hidden ones are never listed)."""

    permission_classes = [permissions.AllowAny]
    serializer_class = TaskSerializer

    @extend_schema(responses=TaskSerializer(many=True))
    def list(self, request: Request) -> Response:
        return Response([w.describe() | {"workload": w.id} for w in suite.served(settings.EKB_TASKS)])


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
