"""One schema per request: what a client may send and what it gets back."""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from evaluator.agents.prompts import CURRENT
from evaluator.vocabulary import Baseline
from portal.endpoints import create_endpoint_submission
from portal.models import Result, Submission
from portal.signals import answers, submission_generalisation
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


class EndpointCreateSerializer(serializers.Serializer):
    """An endpoint submission: the portal prompts the model per task and evaluates its kernels."""

    kind = serializers.ChoiceField(choices=["endpoint"])
    url = serializers.CharField(max_length=500, help_text="OpenAI-compatible chat-completions URL")
    model = serializers.CharField(max_length=200)
    api_key = serializers.CharField(max_length=500, required=False, allow_blank=True, write_only=True,
                                    trim_whitespace=False,
                                    help_text="sent as 'Authorization: Bearer …'; stored encrypted, never shown")
    mode = serializers.ChoiceField(choices=["direct", "agent", "layered"], default="agent")
    budget = serializers.JSONField(required=False, help_text="evaluator.agents.budget.Budget fields, e.g. "
                                   '{"candidates": 8}')
    prompt_version = serializers.CharField(max_length=40, required=False)
    tasks = serializers.ListField(child=serializers.CharField(max_length=200), required=False, max_length=64,
                                  help_text="workload globs; default: every public workload")
    name = serializers.RegexField(r"^[A-Za-z0-9._ ()-]{1,64}$", required=False)
    description = serializers.CharField(required=False, max_length=2000, allow_blank=True)
    public = serializers.BooleanField(required=False, default=True)
    backends = serializers.ListField(child=serializers.CharField(max_length=80), required=False, max_length=16)

    def create(self, validated):
        try:
            return create_endpoint_submission(
                self.context["request"].user, url=validated["url"], model=validated["model"],
                api_key=validated.get("api_key", ""), mode=validated["mode"],
                budget=validated.get("budget") or {}, prompt_version=validated.get("prompt_version") or CURRENT,
                tasks=validated.get("tasks"), name=validated.get("name", ""),
                description=validated.get("description", ""), public=validated.get("public", True),
                backends=validated.get("backends") or None)
        except DjangoValidationError as e:
            raise serializers.ValidationError(e.message_dict if hasattr(e, "error_dict") else
                                              {"endpoint": e.messages}) from None


class EndpointSerializer(serializers.Serializer):
    """What is shown of an endpoint: never its key; its URL only to the owner."""

    model = serializers.CharField()
    mode = serializers.CharField()
    budget = serializers.DictField()
    prompt_version = serializers.CharField()
    tasks = serializers.ListField(child=serializers.CharField())
    usage = serializers.SerializerMethodField()
    api_key_set = serializers.BooleanField(source="has_api_key")
    url = serializers.SerializerMethodField()

    def get_usage(self, ep) -> dict[str, int]:
        return {"requests": ep.requests_used, "tokens": ep.tokens_used}

    def get_url(self, ep) -> str | None:
        user = getattr(self.context.get("request"), "user", None)
        return ep.url if user is not None and user.is_authenticated and user.pk == ep.submission.owner_id else None


class ResultSerializer(serializers.ModelSerializer):
    speedup = serializers.SerializerMethodField()
    trace_steps = serializers.SerializerMethodField(help_text="steps in this task's optimization trace "
                                                    "(read them at .../trace/<backend>/<workload>/)")

    class Meta:
        model = Result
        fields = ["workload", "backend", "device", "status", "reason", "level", "domains", "speedup", "time_s",
                  "roofline_fraction", "trace_steps"]

    def get_speedup(self, r: Result) -> dict[str, float | None]:
        # every baseline the run timed (tvm-tuned where a tuning record exists)
        columns = {Baseline.TVM_DEFAULT: r.speedup_tvm_default, Baseline.VENDOR: r.speedup_vendor}
        return {**columns, **{k: v for k, v in (r.record.get("speedup") or {}).items() if k not in columns}}

    def get_trace_steps(self, r: Result) -> int:
        return len(r.record.get("trace") or [])


class TraceSerializer(serializers.Serializer):
    """One task's optimization trace as stored: the steps the bundle's trace file or the
    endpoint's turns recorded (layer, change, IR, measured latency, correct?, prompt, reply)."""

    submission = serializers.IntegerField()
    workload = serializers.CharField()
    backend = serializers.CharField()
    status = serializers.CharField()
    steps = serializers.ListField(child=serializers.DictField())


class GeneralisationSerializer(serializers.Serializer):
    """One board's generalisation from the finished verified run: shares and a count, never
    which workloads."""

    backend = serializers.CharField()
    device = serializers.CharField()
    generalisation = serializers.FloatField(
        allow_null=True, help_text="of the patterns correct on every public workload, the share also correct on every "
                                   "held-out workload of the pattern (null: no pattern to count)")
    generalisation_fast = serializers.FloatField(
        allow_null=True, help_text="the same share with the held-out results also fast (speedup vs tvm-default ≥ 1.0)")
    generalisation_patterns = serializers.IntegerField(help_text="patterns counted (with a held-out result)")


class SubmissionSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username", read_only=True)
    progress = serializers.SerializerMethodField()
    results = serializers.SerializerMethodField()
    endpoint = serializers.SerializerMethodField()
    generalisation = serializers.SerializerMethodField()

    class Meta:
        model = Submission
        fields = ["id", "name", "owner", "description", "kind", "backends", "public", "state", "error",
                  "bundle_sha256", "progress", "summary", "created_at", "started_at", "finished_at",
                  "verification", "verified_at", "generalisation", "endpoint", "results"]
        read_only_fields = fields

    @extend_schema_field(GeneralisationSerializer(many=True))
    def get_generalisation(self, s: Submission) -> list[dict]:
        if s.verification != Submission.Verification.FINISHED:
            return []
        # per board, from the stored verified rows (the leaderboard's answer)
        return answers(submission_generalisation, Submission, submission=s)

    def get_progress(self, s: Submission) -> dict[str, int]:
        return {"done": s.tasks_done, "total": s.tasks_total}

    def get_endpoint(self, s: Submission) -> dict | None:
        ep = getattr(s, "endpoint", None) if s.kind == Submission.Kind.ENDPOINT else None
        return EndpointSerializer(ep, context=self.context).data if ep else None

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
    emulated = serializers.BooleanField(required=False,
                                        help_text="an emulated device: results are real, times are never ranked")
    state = serializers.CharField(required=False, allow_blank=True,
                                  help_text="live state when asked (an rpc board's queue)")
    queue = serializers.CharField(allow_blank=True)
    served = serializers.BooleanField(help_text="this deployment evaluates submissions on it")
    workers = BackendWorkerSerializer(many=True, help_text="live workers advertising this backend")
    queue_depth = serializers.IntegerField(allow_null=True, help_text="jobs waiting (Celery mode)")
