"""One schema per request: what a client may send and what it gets back."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from evaluator.agents.client import ANSWERED, HTTP_ERROR, TIMEOUT
from evaluator.agents.modes import MODES
from evaluator.agents.prompts import CURRENT, TEMPLATES
from evaluator.suite import DOMAINS, LEVELS
from evaluator.vocabulary import Baseline
from portal import estimates, starter
from portal.endpoints import create_endpoint_submission
from portal.models import Provenance, Result, Submission
from portal.signals import answers, submission_generalisation
from portal.submissions import create_submission


class KnownChoiceField(serializers.ChoiceField):
    """One of the values ``known()`` gives when the serializer is made (so the schema lists them);
    a bad one is named, with the values known."""

    default_error_messages = {"invalid_choice": "unknown {name} {input!r}; known: {known}"}

    def __init__(self, known, **kwargs):
        super().__init__(choices=list(known()), **kwargs)

    def to_internal_value(self, data):
        if str(data) not in self.choice_strings_to_values:
            self.fail("invalid_choice", name=self.field_name, input=str(data)[:80], known=", ".join(self.choices))
        return super().to_internal_value(data)


class ServedBackendField(KnownChoiceField):
    """A backend this deployment evaluates."""

    default_error_messages = {"invalid_choice": "backend {input!r} is not served here; served: {known}"}

    def __init__(self, **kwargs):
        super().__init__(lambda: settings.EKB_BACKENDS, **kwargs)


class SubmissionCreateSerializer(serializers.Serializer):
    bundle = serializers.FileField(help_text="a .zip or .tar.gz bundle with manifest.json at its root")
    name = serializers.RegexField(r"^[A-Za-z0-9._ -]{1,64}$", required=False,
                                  help_text="defaults to the manifest's name")
    description = serializers.CharField(required=False, max_length=2000, allow_blank=True)
    public = serializers.BooleanField(required=False, default=True)
    backends = serializers.ListField(child=ServedBackendField(), required=False,
                                     max_length=16, help_text="default: the bundle's backends served here")

    def create(self, validated):
        try:
            return create_submission(self.context["request"].user, validated["bundle"],
                                     name=validated.get("name", ""),
                                     description=validated.get("description", ""),
                                     public=validated.get("public", True),
                                     backends=validated.get("backends") or None,
                                     idempotency_key=self.context.get("idempotency_key", ""))
        except DjangoValidationError as e:
            raise serializers.ValidationError({"bundle": e.messages}) from None


class EndpointCreateSerializer(serializers.Serializer):
    """An endpoint submission: the portal prompts the model per task and evaluates its kernels."""

    kind = serializers.ChoiceField(choices=["endpoint"])
    url = serializers.CharField(max_length=500, help_text="an OpenAI-compatible endpoint: the base URL the OpenAI "
                                "SDKs take (https://host/v1) or the full …/chat/completions URL; called once, "
                                "with one 1-token request, before the submission is accepted")
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
    backends = serializers.ListField(child=ServedBackendField(), required=False, max_length=16)

    def create(self, validated):
        try:
            return create_endpoint_submission(
                self.context["request"].user, url=validated["url"], model=validated["model"],
                api_key=validated.get("api_key", ""), mode=validated["mode"],
                budget=validated.get("budget") or {}, prompt_version=validated.get("prompt_version") or CURRENT,
                tasks=validated.get("tasks"), name=validated.get("name", ""),
                description=validated.get("description", ""), public=validated.get("public", True),
                backends=validated.get("backends") or None, probe=True,
                idempotency_key=self.context.get("idempotency_key", ""))
        except DjangoValidationError as e:
            raise serializers.ValidationError(e.message_dict if hasattr(e, "error_dict") else
                                              {"endpoint": e.messages}) from None


class EndpointCheckSerializer(serializers.Serializer):
    """The call made when an endpoint was submitted: one chat completion of max_tokens 1. Where
    calling the URL cannot work (refused address, nothing listening, key refused, HTTP 404, a
    redirect) the submission is refused instead (400, naming the URL)."""

    url = serializers.CharField(help_text="the URL called, as every model call of the run will")
    ok = serializers.BooleanField(help_text="it answered with a chat completion")
    outcome = serializers.ChoiceField(choices=[ANSWERED, TIMEOUT, HTTP_ERROR],
                                      help_text="answered; timeout (no answer within the check's few seconds) or "
                                                "http_error (e.g. 429, 5xx): accepted, the run retries")
    message = serializers.CharField(help_text="what the check saw, in words")
    http_status = serializers.IntegerField(allow_null=True)
    latency_s = serializers.FloatField()


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
    provenance = serializers.CharField(source="provenance_id", allow_null=True,
                                       help_text="digest of what produced it: one of the submission's provenance "
                                                 "entries (null: stored before provenance was kept)")

    class Meta:
        model = Result
        fields = ["workload", "backend", "device", "status", "reason", "level", "domains", "speedup", "time_s",
                  "roofline_fraction", "trace_steps", "provenance"]

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


class ProvenanceSerializer(serializers.Serializer):
    """What produced a submission's results on one backend, as the worker saw it
    (``portal.provenance.collect``; docs/operations.md#where-is-my-job)."""

    digest = serializers.CharField(help_text="sha256 of this description (results name it)")
    backend = serializers.CharField()
    hostname = serializers.CharField(help_text="the machine that evaluated and stored the results")
    worker = serializers.CharField(allow_blank=True, help_text="its Celery node ('' on the embedded worker)")
    evaluator = serializers.CharField(help_text="the evaluator package's version")
    harness_digest = serializers.CharField(help_text="sha256 of the harness's sources (pipeline, harness, "
                                           "sandbox, backends)")
    tvm = serializers.CharField(help_text="tvm.__version__")
    tvm_codegen = serializers.CharField(allow_blank=True, help_text="TVM's LLVM")
    python = serializers.CharField()
    target = serializers.DictField(help_text="the TVM target, as JSON")
    device = serializers.CharField(required=False, allow_blank=True)
    arch = serializers.CharField(required=False, allow_blank=True)
    driver = serializers.CharField(required=False, help_text="GPU driver, OpenCL platform, else the OS kernel")
    platform = serializers.CharField(required=False)
    protocol_digest = serializers.CharField(required=False, help_text="sha256 of the protocol's knobs and limits "
                                            "(seeds excepted)")
    seeds = serializers.JSONField(required=False, help_text='the public input seeds, or "secret" (verified run)')
    sandbox = serializers.DictField(required=False, allow_null=True, help_text="the sandbox's limits (null: none)")
    compiler = serializers.DictField(required=False, child=serializers.CharField(allow_blank=True),
                                     help_text="tvm: TVM and its LLVM; c: the C compiler of c-source entries")
    flags = serializers.DictField(required=False, help_text="a format's compiler flags (c-source)")
    build = serializers.DictField(required=False, allow_null=True,
                                  help_text="compile farm: the build machine's description; null: built here")


class SubmissionSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username", read_only=True)
    progress = serializers.SerializerMethodField()
    queue_position = serializers.SerializerMethodField(
        help_text="jobs a worker takes before this submission's (the most over its backends); null when running, "
                  "ended, in a list, or the queue cannot be read")
    eta_s = serializers.SerializerMethodField(
        help_text="estimated seconds until it finishes: measured seconds per task × (tasks ahead ÷ live workers + "
                  "its tasks left); null when ended, in a list, or with no finished submission to measure from")
    eta_basis = serializers.SerializerMethodField(help_text="how the estimate was made, in words")
    waiting_for = serializers.SerializerMethodField(
        help_text="its backends no live worker serves: its jobs there wait until a worker of the backend starts "
                  "(Celery mode; empty when ended, in a list, or every backend is served)")
    results = serializers.SerializerMethodField()
    endpoint = serializers.SerializerMethodField()
    generalisation = serializers.SerializerMethodField()
    provenance = serializers.SerializerMethodField()

    class Meta:
        model = Submission
        fields = ["id", "name", "owner", "description", "kind", "backends", "public", "state", "error",
                  "bundle_sha256", "progress", "queue_position", "eta_s", "eta_basis", "waiting_for", "summary",
                  "created_at", "started_at", "finished_at", "verification", "verified_at", "generalisation",
                  "endpoint", "provenance", "results"]
        read_only_fields = fields

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._where: dict[int, estimates.Whereabouts] = {}  # one reading of the queues per submission

    def _whereabouts(self, s: Submission) -> estimates.Whereabouts | None:
        if not self.context.get("with_queue"):
            return None
        if s.pk not in self._where:
            self._where[s.pk] = estimates.whereabouts(s)
        return self._where[s.pk]

    def get_queue_position(self, s: Submission) -> int | None:
        w = self._whereabouts(s)
        return w.queue_position if w else None

    def get_eta_s(self, s: Submission) -> int | None:
        w = self._whereabouts(s)
        return w.eta_s if w else None

    def get_eta_basis(self, s: Submission) -> str:
        w = self._whereabouts(s)
        return w.basis if w else ""

    def get_waiting_for(self, s: Submission) -> list[str]:
        w = self._whereabouts(s)
        return list(w.waiting_for) if w else []

    @extend_schema_field(ProvenanceSerializer(many=True, allow_null=True))
    def get_provenance(self, s: Submission) -> list[dict] | None:
        """Every distinct description among its public results (one per backend, unless a job was
        redelivered to another machine); null in a list."""
        if not self.context.get("with_results", True):
            return None
        found = Provenance.objects.filter(results__submission=s, results__track=Result.PUBLIC).distinct()
        return [{"digest": p.digest, **p.data} for p in found.order_by("digest")]

    @extend_schema_field(GeneralisationSerializer(many=True))
    def get_generalisation(self, s: Submission) -> list[dict]:
        if s.verification != Submission.Verification.FINISHED:
            return []
        # per board, from the stored verified rows (the leaderboard's answer)
        return answers(submission_generalisation, Submission, submission=s)

    def get_progress(self, s: Submission) -> dict[str, int]:
        return {"done": s.tasks_done, "total": s.tasks_total}

    @extend_schema_field(EndpointSerializer(allow_null=True, help_text="an endpoint submission's endpoint"))
    def get_endpoint(self, s: Submission) -> dict | None:
        ep = getattr(s, "endpoint", None) if s.kind == Submission.Kind.ENDPOINT else None
        return EndpointSerializer(ep, context=self.context).data if ep else None

    @extend_schema_field(ResultSerializer(many=True, allow_null=True,
                                          help_text="the public results (null in a list of submissions)"))
    def get_results(self, s: Submission) -> list[dict] | None:
        if not self.context.get("with_results", True):
            return None
        qs = s.results.filter(hidden=False, track=Result.PUBLIC)
        return ResultSerializer(qs, many=True).data


class SubmissionCreatedSerializer(SubmissionSerializer):
    """A new submission; for an endpoint, also the URL its calls go to and the check's outcome."""

    endpoint_url_called = serializers.SerializerMethodField(
        help_text="an endpoint submission: the URL every model call posts to (the given URL made into the "
                  "chat-completions one); null for a bundle")
    endpoint_check = serializers.SerializerMethodField()

    class Meta(SubmissionSerializer.Meta):
        fields = [*SubmissionSerializer.Meta.fields, "endpoint_url_called", "endpoint_check"]
        read_only_fields = fields

    def get_endpoint_url_called(self, s: Submission) -> str | None:
        ep = getattr(s, "endpoint", None) if s.kind == Submission.Kind.ENDPOINT else None
        return ep.url if ep else None

    @extend_schema_field(EndpointCheckSerializer(allow_null=True, help_text="an endpoint submission: the check "
                                                 "made on submission; null for a bundle"))
    def get_endpoint_check(self, s: Submission) -> dict | None:
        found = getattr(s, "endpoint_check", None)
        return EndpointCheckSerializer(found.to_json()).data if found else None


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


# --- the operations the ``ekb`` client needs (tasks in full, starter bundles, cancel, rerun) ----


class DetailErrorSerializer(serializers.Serializer):
    """An error the operation explains in one message."""

    detail = serializers.CharField()


class TaskQuerySerializer(serializers.Serializer):
    """Filters of ``GET /api/v1/tasks/``: each one given must hold for a task to be listed."""

    level = serializers.ChoiceField(choices=list(LEVELS), required=False)
    domain = serializers.ChoiceField(choices=list(DOMAINS), required=False)
    family = KnownChoiceField(starter.families, required=False, help_text="e.g. matmul, conv2d")
    dtype = KnownChoiceField(starter.dtypes, required=False, help_text="e.g. float32, float16, int8")
    backend = ServedBackendField(required=False,
                                 help_text="a backend served here (every served task runs on each one)")
    search = serializers.CharField(required=False, max_length=starter.MAX_SEARCH_CHARS,
                                   help_text="case-insensitive text in the workload id, summary or source")


class TaskDetailQuerySerializer(serializers.Serializer):
    """Which prompt ``GET /api/v1/tasks/{workload}/`` shows."""

    backend = ServedBackendField(required=False,
                                 help_text="the backend the prompt is for (default: the first served here)")
    mode = serializers.ChoiceField(choices=list(MODES), default="agent", help_text="the endpoint mode")
    prompt_version = serializers.ChoiceField(choices=sorted(TEMPLATES), default=CURRENT)


class PromptMessageSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=["system", "user"])
    content = serializers.CharField()


class PromptSerializer(serializers.Serializer):
    version = serializers.CharField()
    digest = serializers.CharField(help_text="of the template set (stored with every endpoint result)")
    mode = serializers.CharField()
    backend = serializers.CharField()
    messages = PromptMessageSerializer(many=True, help_text="the system message and the first user message, "
                                       "as the worker sends them (default budget)")


class TaskDetailSerializer(TaskSerializer):
    """One public task in full: what the list shows, plus what a kernel writer needs."""

    source = serializers.CharField(allow_blank=True, help_text="where the shape comes from, if another benchmark's")
    params = serializers.DictField(help_text="the shape parameters")
    signature = serializers.ListField(child=serializers.DictField(),
                                      help_text="the kernel's arguments in order: inputs, then outputs")
    tvmscript = serializers.CharField(help_text="the canonical TensorIR a schedule applies to")
    reference = serializers.CharField(allow_blank=True, help_text="source of the independent NumPy reference")
    prompt = PromptSerializer()


class StarterQuerySerializer(serializers.Serializer):
    """``GET /api/v1/tasks/starter-bundle/``: which tasks, on which backend."""

    tasks = serializers.ListField(
        child=serializers.CharField(max_length=starter.MAX_GLOB_CHARS), allow_empty=False,
        max_length=starter.MAX_STARTER_GLOBS,
        help_text=f"workload globs (repeat the parameter or separate with commas); at most "
                  f"{starter.MAX_STARTER_TASKS} tasks may match")
    backend = serializers.ChoiceField(choices=list(starter.STARTER_BACKENDS), required=False,
                                      help_text="default: the first served backend with tvm-default entries")

    @classmethod
    def from_query(cls, params) -> "StarterQuerySerializer":
        globs = [g for raw in params.getlist("tasks") for g in raw.split(",") if g.strip()]
        data = {"tasks": globs, **({"backend": params["backend"]} if params.get("backend") else {})}
        return cls(data=data)
