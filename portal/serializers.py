"""One schema per request: what a client may send and what it gets back."""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

from portal.models import Result, Submission
from portal.submissions import create_submission


class SubmissionCreateSerializer(serializers.Serializer):
    bundle = serializers.FileField(help_text="a .zip or .tar.gz bundle with manifest.json at its root")
    name = serializers.RegexField(r"^[A-Za-z0-9._ -]{1,64}$", required=False,
                                  help_text="defaults to the manifest's name")
    description = serializers.CharField(required=False, max_length=2000, allow_blank=True)
    public = serializers.BooleanField(required=False, default=True)
    backends = serializers.ListField(child=serializers.CharField(max_length=80), required=False,
                                     max_length=16, help_text="default: the bundle's backends served here")

    def create(self, validated):
        try:
            return create_submission(self.context["request"].user, validated["bundle"],
                                     name=validated.get("name", ""),
                                     description=validated.get("description", ""),
                                     public=validated.get("public", True),
                                     backends=validated.get("backends") or None)
        except DjangoValidationError as e:
            raise serializers.ValidationError({"bundle": e.messages}) from None


class ResultSerializer(serializers.ModelSerializer):
    speedup = serializers.SerializerMethodField()

    class Meta:
        model = Result
        fields = ["workload", "backend", "device", "status", "reason", "level", "domains", "speedup", "time_s",
                  "roofline_fraction"]

    def get_speedup(self, r: Result) -> dict[str, float | None]:
        return {"tvm-default": r.speedup_tvm_default, "vendor": r.speedup_vendor}


class SubmissionSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username", read_only=True)
    progress = serializers.SerializerMethodField()
    results = serializers.SerializerMethodField()

    class Meta:
        model = Submission
        fields = ["id", "name", "owner", "description", "kind", "backends", "public", "state", "error",
                  "bundle_sha256", "progress", "summary", "created_at", "started_at", "finished_at",
                  "verification", "verified_at", "results"]
        read_only_fields = fields

    def get_progress(self, s: Submission) -> dict[str, int]:
        return {"done": s.tasks_done, "total": s.tasks_total}

    def get_results(self, s: Submission) -> list[dict] | None:
        if not self.context.get("with_results", True):
            return None
        qs = s.results.filter(hidden=False, track=Result.PUBLIC)
        return ResultSerializer(qs, many=True).data


class TaskSerializer(serializers.Serializer):
    workload = serializers.CharField()
    pattern = serializers.CharField()
    family = serializers.CharField()
    level = serializers.CharField()
    domains = serializers.ListField(child=serializers.CharField())
    dtype = serializers.CharField()
    inputs = serializers.ListField(child=serializers.DictField())
    outputs = serializers.ListField(child=serializers.DictField())
    flops = serializers.IntegerField()
    bytes = serializers.IntegerField()
    vendor = serializers.BooleanField()
    summary = serializers.CharField()
    layers = serializers.ListField(child=serializers.DictField(), required=False,
                                   help_text="model graphs (L3): the L1/L2 workloads they are made of, with counts")


class BackendWorkerSerializer(serializers.Serializer):
    hostname = serializers.CharField()
    device = serializers.CharField(allow_blank=True)
    last_seen = serializers.DateTimeField()


class BackendSerializer(serializers.Serializer):
    name = serializers.CharField()
    available = serializers.BooleanField()
    reason = serializers.CharField(allow_blank=True)
    device = serializers.CharField(allow_blank=True)
    arch = serializers.CharField(allow_blank=True)
    target = serializers.DictField()
    queue = serializers.CharField(allow_blank=True)
    served = serializers.BooleanField(help_text="this deployment evaluates submissions on it")
    workers = BackendWorkerSerializer(many=True, help_text="live workers advertising this backend")
    queue_depth = serializers.IntegerField(allow_null=True, help_text="jobs waiting (Celery mode)")
