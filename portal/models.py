"""Submissions and their results.

A submission moves queued → running → finished | failed | cancelled. It gets one evaluation job
per backend; each job writes one :class:`Result` per (workload, backend) — the unique constraint
is what makes a redelivered job harmless.
"""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.utils import timezone

from evaluator import records, scoring, suite
from evaluator.vocabulary import Status, Track, choices
from portal.keys import decrypt, encrypt
from portal.signals import result_landed
from portal.tracks import track_tasks


class Submission(models.Model):
    class Kind(models.TextChoices):
        BUNDLE = "bundle"
        ENDPOINT = "endpoint"

    class State(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        FINISHED = "finished"
        FAILED = "failed"
        CANCELLED = "cancelled"

    TERMINAL = (State.FINISHED, State.FAILED, State.CANCELLED)

    class Verification(models.TextChoices):
        """The verified run: every workload, hidden ones included, with secret server-side seeds
        (staff start it; see ``portal.submissions.request_verification``)."""

        NONE = "", "not verified"
        QUEUED = "queued"
        RUNNING = "running"
        FINISHED = "finished"
        FAILED = "failed"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="submissions")
    name = models.CharField(max_length=64)
    description = models.TextField(blank=True, max_length=2000)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.BUNDLE)
    backends = models.JSONField(default=list)  # ["cpu-llvm", …]
    public = models.BooleanField(default=True, help_text="listed on the leaderboards")
    state = models.CharField(max_length=16, choices=State.choices, default=State.QUEUED, db_index=True)
    error = models.TextField(blank=True)
    bundle = models.FileField(upload_to="bundles/%Y/%m/", blank=True)
    bundle_sha256 = models.CharField(max_length=64, blank=True)
    tasks_total = models.PositiveIntegerField(default=0)
    tasks_done = models.PositiveIntegerField(default=0)
    summary = models.JSONField(default=dict, blank=True)  # backend → evaluator summary
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    verification = models.CharField(max_length=16, choices=Verification.choices, default="", blank=True)
    verified_at = models.DateTimeField(null=True, blank=True)
    # the last time a result landed (or the reaper re-queued it): how the reaper tells a stalled
    # submission from a slow one (``portal.reaper``)
    progressed_at = models.DateTimeField(null=True, blank=True)
    requeues = models.PositiveSmallIntegerField(default=0, help_text="times the reaper re-queued its jobs")
    # the client's Idempotency-Key of the request that made it: a retried request (its answer lost
    # to a restart or a network error) gets this submission back instead of making a second
    idempotency_key = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["owner", "idempotency_key"],
                                               condition=~models.Q(idempotency_key=""),
                                               name="one_submission_per_idempotency_key")]

    def __str__(self) -> str:
        return f"{self.name} #{self.pk} ({self.state})"

    @property
    def is_done(self) -> bool:
        return self.state in self.TERMINAL

    def visible_to(self, user) -> bool:
        return self.public or (user.is_authenticated and (user.pk == self.owner_id or user.is_staff))

    # State transitions. Each is one conditional UPDATE, so two workers racing on a submission
    # cannot move it out of a state the other has already left; each returns whether it moved,
    # and mirrors what it wrote onto this instance.

    def _transition(self, allowed, **fields) -> bool:
        """Write ``fields`` where the row is still in one of the ``allowed`` states (None: any)."""
        rows = Submission.objects.filter(pk=self.pk)
        if allowed is not None:
            rows = rows.filter(state__in=allowed)
        moved = bool(rows.update(**fields))
        if moved:
            for name, value in fields.items():
                setattr(self, name, value)
        return moved

    def start(self) -> bool:
        """A job begins: the first one stamps ``started_at``; a queued submission is running."""
        now = timezone.now()
        # started_at is stamped independently of the state: a redelivered job of a running
        # submission that somehow lacks one still gets it, as before
        if Submission.objects.filter(pk=self.pk, started_at__isnull=True).update(started_at=now):
            self.started_at = now
        return self._transition([self.State.QUEUED], state=self.State.RUNNING)

    def fail(self, error: str) -> bool:
        """The evaluation could not go on: failed, with the reason the submitter sees. A
        submission already finished, failed or cancelled keeps its outcome."""
        return self._transition([self.State.QUEUED, self.State.RUNNING], state=self.State.FAILED,
                                error=str(error)[:4000], finished_at=timezone.now())

    def finish(self, *, tasks_done: int, summary: dict) -> bool:
        """Every task has a result: finished, with its per-backend summary. Not over a terminal
        state (a cancelled submission stays cancelled)."""
        return self._transition([self.State.QUEUED, self.State.RUNNING], state=self.State.FINISHED,
                                tasks_done=tasks_done, summary=summary, finished_at=timezone.now())

    def cancel(self) -> bool:
        """Stop a queued or running submission: a queued job does not start, and a running one
        stops its current task's step within ``EKB_CANCEL_POLL_S`` (``evaluation.stop_on_cancel``)."""
        return self._transition([self.State.QUEUED, self.State.RUNNING], state=self.State.CANCELLED,
                                finished_at=timezone.now())

    def is_cancelled(self) -> bool:
        """Whether the submission has been cancelled since this instance was read (the row's state):
        a running job asks between tasks, and its watcher while a task runs."""
        return Submission.objects.filter(pk=self.pk, state=self.State.CANCELLED).exists()

    # The verified run's own transitions (``verification``), independent of ``state``.

    def _verification_transition(self, allowed, **fields) -> bool:
        rows = Submission.objects.filter(pk=self.pk)
        if allowed is not None:
            rows = rows.filter(verification__in=allowed)
        moved = bool(rows.update(**fields))
        if moved:
            for name, value in fields.items():
                setattr(self, name, value)
        return moved

    def queue_verification(self) -> bool:
        """Queue a verified run (whatever an earlier one ended as); its time is cleared."""
        return self._verification_transition(None, verification=self.Verification.QUEUED, verified_at=None)

    def start_verification(self) -> bool:
        """A verified run's job begins: a queued verification is running."""
        V = self.Verification
        return self._verification_transition([V.QUEUED], verification=V.RUNNING)

    def fail_verification(self) -> bool:
        """A verified run's job could not go on. Staff see the state; no reason is stored (it may
        name held-out workloads). A finished verification keeps its outcome."""
        V = self.Verification
        return self._verification_transition([V.QUEUED, V.RUNNING], verification=V.FAILED)

    def finish_verification(self) -> bool:
        """Every verified task has a result: the verification is finished, once."""
        V = self.Verification
        return self._verification_transition([V.NONE, V.QUEUED, V.RUNNING, V.FAILED], verification=V.FINISHED,
                                             verified_at=timezone.now())


class Provenance(models.Model):
    """What produced a result: the TVM and harness versions, the protocol's digest, the compiler
    and its flags, the device and its driver, the worker's host (``portal.provenance.collect``).
    Content-addressed like :class:`Blob`: one row per distinct description, shared by every
    result a job stored, so a submission's results say which machine and software made each."""

    digest = models.CharField(max_length=64, primary_key=True)  # sha256 of the canonical JSON
    data = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"provenance {self.digest[:12]} ({self.data.get('backend', '')} on {self.data.get('hostname', '')})"

    @classmethod
    def put(cls, data: dict) -> str:
        """Store ``data`` (once) and return its digest."""
        canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
        digest = hashlib.sha256(canonical.encode()).hexdigest()
        cls.objects.get_or_create(digest=digest, defaults={"data": json.loads(canonical)})
        return digest


class Result(models.Model):
    """The evaluator's TaskResult for one submission × workload × backend × track.

    ``track`` is "public" (the public workloads, the protocol's public seeds) or "verified" (every
    workload, hidden ones included, with secret seeds); the two are ranked on separate boards.
    ``device`` is the device the backend ran on, as the evaluating machine saw it: each device
    is its own board.

    A ``suspect`` result (correct outputs, a timing the harness cannot stand behind; the why is
    in ``reason``) is never ranked until staff review it: :meth:`clear_suspect` (the timing is
    genuine: ``correct``) or :meth:`mark_hacked` (``hacked``, ranked as wrong). Both announce the
    result again (``signals.result_landed``), so the board rows it is in are refreshed.
    """

    # The vocabulary's words under the names the code has always used
    PUBLIC, VERIFIED = Track.PUBLIC, Track.VERIFIED
    TRACKS = tuple(Track)
    STATUS_CHOICES = choices(Status)

    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="results")
    workload = models.CharField(max_length=200)
    backend = models.CharField(max_length=80)
    device = models.CharField(max_length=200, blank=True)
    track = models.CharField(max_length=10, default=PUBLIC, choices=choices(Track))
    status = models.CharField(max_length=20, db_index=True, choices=STATUS_CHOICES)
    reason = models.TextField(blank=True)
    level = models.CharField(max_length=4)
    domains = models.JSONField(default=list)
    hidden = models.BooleanField(default=False)
    # one column per baseline (``Baseline``): the speedup against it, None where it was not timed
    speedup_tvm_default = models.FloatField(null=True)
    speedup_tvm_tuned = models.FloatField(null=True)
    speedup_vendor = models.FloatField(null=True)
    time_s = models.FloatField(null=True)
    roofline_fraction = models.FloatField(null=True)
    record = models.JSONField(default=dict)  # TaskResult.to_json(), the full typed record
    # what produced it (None: stored before provenance was kept)
    provenance = models.ForeignKey(Provenance, null=True, blank=True, on_delete=models.PROTECT, related_name="results")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["workload"]
        constraints = [models.UniqueConstraint(fields=["submission", "workload", "backend", "track"],
                                               name="one_result_per_task_and_track")]
        indexes = [models.Index(fields=["backend", "device", "track", "workload"], name="result_board_task")]

    def __str__(self) -> str:
        return f"{self.workload} on {self.backend}: {self.status}"

    def clear_suspect(self, by=None) -> None:
        """Staff's review: the suspect timing is genuine, so the result is ``correct`` (and ranks)."""
        self._review(records.CORRECT, "cleared", by)

    def mark_hacked(self, by=None) -> None:
        """Staff's review: the suspect timing is not genuine, so the result is ``hacked`` (wrong)."""
        self._review(records.HACKED, "hacked", by)

    def _review(self, status: str, verdict: str, by) -> None:
        with transaction.atomic():
            # Under the row's lock: two reviewers at once cannot both act on one suspect result.
            locked = Result.objects.select_for_update().get(pk=self.pk)
            if locked.status != records.SUSPECT:
                raise ValidationError(f"{locked}: only a suspect result can be reviewed; this one is "
                                      f"{locked.status!r}")
            # The record is what boards and summaries score: its status must agree with the column.
            record = dict(locked.record or {})
            record["status"] = status
            record["review"] = {"verdict": verdict, "was": records.SUSPECT, "at": timezone.now().isoformat(),
                                "by": getattr(by, "username", "") or ""}
            locked.status, locked.record = status, record
            locked.save(update_fields=["status", "record"])
            self.status, self.record = locked.status, locked.record
            self._refresh_submission_summary()
        # The same announcement a landing result gets: the boards refresh its submission's rows
        # and, once correct, the baseline timings it carries.
        result_landed.send(sender=Result, result=self)

    def _refresh_submission_summary(self) -> None:
        """Rescore the finished submission's stored summary of this backend (public results, as
        the evaluation computed it) so it agrees with the reviewed status."""
        if self.track != self.PUBLIC:
            return
        sub = Submission.objects.select_for_update().get(pk=self.submission_id)
        if self.backend not in (sub.summary or {}):
            return
        results = Result.objects.filter(submission_id=sub.pk, backend=self.backend, track=self.PUBLIC)
        sub.summary = {**sub.summary, self.backend: scoring.breakdown(list(results.values_list("record", flat=True)))}
        sub.save(update_fields=["summary"])


class Endpoint(models.Model):
    """What an endpoint submission calls and how: an OpenAI-compatible chat-completions URL, the
    model, its API key (encrypted, see ``portal.keys``; never shown back), the mode, the budget
    (``evaluator.agents.budget.Budget`` as JSON), the prompt version, the tasks (workload globs;
    empty = every public workload) and what the submission has used of its request/token budget."""

    class Mode(models.TextChoices):
        DIRECT = "direct"
        AGENT = "agent"
        LAYERED = "layered"

    submission = models.OneToOneField(Submission, on_delete=models.CASCADE, related_name="endpoint")
    url = models.CharField(max_length=500)
    model = models.CharField(max_length=200)
    api_key_encrypted = models.TextField(blank=True)
    mode = models.CharField(max_length=16, choices=Mode.choices)
    budget = models.JSONField(default=dict)
    prompt_version = models.CharField(max_length=40)
    tasks = models.JSONField(default=list, blank=True)
    requests_used = models.PositiveIntegerField(default=0)
    tokens_used = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:  # never the key
        return f"{self.model} ({self.mode}) for submission #{self.submission_id}"

    @property
    def has_api_key(self) -> bool:
        return bool(self.api_key_encrypted)

    def set_api_key(self, plain: str) -> None:
        self.api_key_encrypted = encrypt(plain)

    def api_key(self) -> str:
        """The decrypted key: for the worker's endpoint client only."""
        return decrypt(self.api_key_encrypted)

    def workloads(self) -> list:
        """The tasks chosen at submission, else every public task this deployment serves."""
        return suite.select(self.tasks) if self.tasks else track_tasks(Track.PUBLIC)


class Worker(models.Model):
    """A ``celery worker`` that advertises the backends it serves, with each backend's device as
    that worker's machine sees it (the web server may have no GPU; the cuda worker does)."""

    hostname = models.CharField(max_length=200, unique=True)
    backends = models.JSONField(default=list)  # [BackendInfo.to_json(), …]
    started_at = models.DateTimeField(default=timezone.now)
    last_seen = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"{self.hostname}: {', '.join(b['name'] for b in self.backends)}"


class Blob(models.Model):
    """Content-addressed bytes every worker reads from the database they share: uploaded bundles
    and built artifacts. A worker on another machine needs no file of the portal's (no media
    directory, no local path); the same bytes are stored once, however many jobs name them."""

    class Kind(models.TextChoices):
        BUNDLE = "bundle"
        ARTIFACT = "artifact"
        REFERENCE = "reference"  # a workload's reference outputs (evaluator WorkloadSpec)

    digest = models.CharField(max_length=64, primary_key=True)  # sha256 of data
    kind = models.CharField(max_length=16, choices=Kind.choices)
    data = models.BinaryField()
    size = models.PositiveBigIntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    @classmethod
    def put(cls, kind: str, data: bytes) -> str:
        """Store ``data`` (once) and return its digest; ValueError past the size cap."""
        limit = settings.EKB_BLOB_MAX_BYTES
        if len(data) > limit:
            raise ValueError(f"{kind} of {len(data) >> 20} MiB: over the {limit >> 20} MiB a stored blob may hold")
        digest = hashlib.sha256(data).hexdigest()
        cls.objects.get_or_create(digest=digest, defaults={"kind": kind, "data": data, "size": len(data)})
        return digest

    @classmethod
    def read(cls, digest: str) -> bytes:
        """The bytes stored under ``digest``, checked against it (LookupError when absent)."""
        row = cls.objects.filter(digest=digest).first()
        if row is None:
            raise LookupError(f"no stored blob {digest[:16]}…")
        data = bytes(row.data)
        if hashlib.sha256(data).hexdigest() != digest:
            raise ValueError(f"stored blob {digest[:16]}… does not match its digest")
        return data


class Build(models.Model):
    """One task's build, made by a build job for the measurement job that follows it: the
    candidate's and the baselines' artifacts (files by :class:`Blob` digest), or the build's
    failure. ``record`` is the TaskResult so far (the build's steps and detail; for a failure,
    the final result). Unique per task: a redelivered build job skips what is built."""

    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="builds")
    workload = models.CharField(max_length=200)
    backend = models.CharField(max_length=80)
    track = models.CharField(max_length=10, default=Track.PUBLIC, choices=choices(Track))
    candidate = models.JSONField(null=True)  # [[file name, digest], ...]; None: the build failed
    baselines = models.JSONField(default=dict)  # role -> [[file name, digest], ...]
    record = models.JSONField(default=dict)
    target = models.JSONField(default=dict)  # the TVM target the artifacts are for
    # the workload as a machine without the pattern files measures it (evaluator WorkloadSpec)
    # and the Blob of its seeded sets' reference outputs; empty for a failed build
    workload_spec = models.JSONField(default=dict)
    references = models.CharField(max_length=64, blank=True)
    # the build machine's side of the provenance (its host, TVM, compiler and flags)
    provenance = models.ForeignKey(Provenance, null=True, blank=True, on_delete=models.PROTECT, related_name="builds")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["submission", "workload", "backend", "track"],
                                               name="one_build_per_task_and_track")]

    @property
    def failed(self) -> bool:
        return self.candidate is None


class BuiltCandidate(models.Model):
    """A candidate's build kept by what determines it (``farm.build_key``: the entry, the
    workload's IR and tensors, the backend and target, the software and the limits), so the same
    entry for the same target is built once: a bundle many submit, or a resubmission that
    changes one entry. Its files are :class:`Blob` digests, as in :class:`Build`.

    ``owner``: whose session built it. A session's build process runs one submitter's earlier
    builds (submitted code) before this one, and could have been left altered by them: such a
    build is reused for that submitter only. A build in a fresh process is a function of its
    key, so it is shared by every submitter (``owner`` None); byte-identical entries of two
    submitters then share one build, which is no leak: each gets what its own entry gives.
    Only outcomes that follow from the key are kept (built, or a compile error); never a timeout,
    a limit or the machine's shortage."""

    key = models.CharField(max_length=64)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="+")
    candidate = models.JSONField(null=True)  # [[file name, digest], ...]; None: a compile error
    record = models.JSONField(default=dict)  # the build's side of the TaskResult (BUILD_SIDE)
    created_at = models.DateTimeField(default=timezone.now)

    # what of a TaskResult the build made; the rest is the task's (workload, trace) or later steps'
    BUILD_SIDE = ("status", "reason", "detail", "steps_s")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["key"], condition=models.Q(owner__isnull=True),
                                    name="one_shared_build_per_key"),
            models.UniqueConstraint(fields=["key", "owner"], condition=models.Q(owner__isnull=False),
                                    name="one_own_build_per_key_and_owner"),
        ]
        indexes = [models.Index(fields=["key"], name="built_candidate_key")]

    def __str__(self) -> str:
        return f"build {self.key[:12]} ({'shared' if self.owner_id is None else f'owner {self.owner_id}'})"

    @classmethod
    def find(cls, key: str, owner_id: int | None) -> "BuiltCandidate | None":
        """The shared build under ``key``, else the one ``owner_id``'s own sessions made."""
        rows = {b.owner_id: b for b in cls.objects.filter(key=key).filter(
            models.Q(owner__isnull=True) | models.Q(owner_id=owner_id))}
        return rows.get(None) or rows.get(owner_id)

    @classmethod
    def keep(cls, key: str, owner_id: int | None, candidate: list | None, record: dict) -> None:
        """Keep a build under ``key`` (``owner_id`` None: for everyone); a concurrent duplicate
        is a no-op, the first kept stays."""
        try:
            with transaction.atomic():
                cls.objects.create(key=key, owner_id=owner_id, candidate=candidate,
                                   record={k: record[k] for k in cls.BUILD_SIDE if k in record})
        except IntegrityError:
            pass

    @classmethod
    def forget(cls, digests: set[str]) -> int:
        """Drop the kept builds whose files include any of ``digests`` (before those Blobs are
        deleted: a kept build never names a missing Blob). How many were dropped."""
        gone = [b.pk for b in cls.objects.filter(candidate__isnull=False).only("pk", "candidate")
                if digests & {d for _, d in b.candidate}]
        cls.objects.filter(pk__in=gone).delete()
        return len(gone)
