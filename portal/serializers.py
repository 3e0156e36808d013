"""One schema per request: what a client may send and what it gets back."""

from __future__ import annotations

from django.conf import settings
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
        fields = ["workload", "backend", "status", "reason", "level", "domains", "speedup", "time_s",
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
                  "results"]
        read_only_fields = fields

    def get_progress(self, s: Submission) -> dict[str, int]:
        return {"done": s.tasks_done, "total": s.tasks_total}

    def get_results(self, s: Submission) -> list[dict] | None:
        if not self.context.get("with_results", True):
            return None
        qs = s.results.filter(hidden=False)
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


class BoardQuerySerializer(serializers.Serializer):
    backend = serializers.ChoiceField(choices=[], default="cpu-llvm")
    level = serializers.ChoiceField(choices=["", "L1", "L2", "L3"], required=False, allow_blank=True)
    domain = serializers.CharField(required=False, allow_blank=True, max_length=40)

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.fields["backend"].choices = settings.EKB_BACKENDS

    def validate_domain(self, value: str) -> str:
        from evaluator.suite import DOMAINS

        if value and value not in DOMAINS:
            raise serializers.ValidationError(f"unknown domain {value!r}; known: {list(DOMAINS)}")
        return value


class BoardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["submission", "baseline"])
    name = serializers.CharField()
    submission_id = serializers.IntegerField(allow_null=True)
    owner = serializers.CharField()
    summary = serializers.DictField()
    domains = serializers.DictField(child=serializers.FloatField())


class BackendSerializer(serializers.Serializer):
    name = serializers.CharField()
    available = serializers.BooleanField()
    reason = serializers.CharField(allow_blank=True)
    device = serializers.CharField(allow_blank=True)
    arch = serializers.CharField(allow_blank=True)
    target = serializers.DictField()
    queue = serializers.CharField(allow_blank=True)
    served = serializers.BooleanField(help_text="this deployment evaluates submissions on it")
    queue_depth = serializers.IntegerField(allow_null=True, help_text="jobs waiting (Celery mode)")
