"""REST API v1: submissions, tasks, leaderboard. Thin views; logic lives in the domain modules."""

from __future__ import annotations

from django.db.models import Q
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from evaluator import suite
from leaderboard.ranking import board
from portal.models import Submission
from portal.serializers import (BackendSerializer, BoardQuerySerializer, BoardRowSerializer,
                                SubmissionCreateSerializer,
                                SubmissionSerializer, TaskSerializer)


class SubmissionViewSet(mixins.CreateModelMixin, mixins.RetrieveModelMixin, mixins.ListModelMixin,
                        viewsets.GenericViewSet):
    """Your submissions and the public ones. Uploading needs an API token."""

    parser_classes = [MultiPartParser, FormParser]
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

    @extend_schema(request=SubmissionCreateSerializer, responses={201: SubmissionSerializer})
    def create(self, request: Request, *args, **kwargs) -> Response:
        ser = SubmissionCreateSerializer(data=request.data, context={"request": request})
        ser.is_valid(raise_exception=True)
        sub = ser.save()
        return Response(SubmissionSerializer(sub, context={"with_results": False}).data,
                        status=status.HTTP_201_CREATED)


class TaskViewSet(viewsets.ViewSet):
    """The public workloads of the suite (hidden ones are never listed)."""

    permission_classes = [permissions.AllowAny]
    serializer_class = TaskSerializer

    @extend_schema(responses=TaskSerializer(many=True))
    def list(self, request: Request) -> Response:
        from django.conf import settings

        return Response([w.describe() | {"workload": w.id} for w in suite.served(settings.EKB_TASKS)])


class LeaderboardView(APIView):
    """The leaderboard rows, from the same ranking function as the page."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[BoardQuerySerializer], responses=BoardRowSerializer(many=True))
    def get(self, request: Request) -> Response:
        q = BoardQuerySerializer(data=request.query_params)
        q.is_valid(raise_exception=True)
        rows = board(q.validated_data["backend"], q.validated_data.get("level") or None,
                     q.validated_data.get("domain") or None)
        return Response([r.to_json() for r in rows])


class BackendsView(APIView):
    """The backends: device, ISA/arch, availability (with the reason when not) and queue depth."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=BackendSerializer(many=True))
    def get(self, request: Request) -> Response:
        from django.conf import settings

        from evaluator.backends import infos
        from portal.jobs import queue_depth

        rows = []
        for info in infos():
            row = info.to_json()
            row["served"] = info.name in settings.EKB_BACKENDS
            row["queue_depth"] = queue_depth(info.name) if row["served"] else None
            rows.append(row)
        return Response(BackendSerializer(rows, many=True).data)
