"""The compile farm: a bundle's tasks are built by one job and measured by another.

``build`` runs on a ``build.<backend>`` queue (any machine with TVM and the compilers): for each
task it builds the candidate in the sandbox and the baselines from our own code, stores their
files as :class:`~portal.models.Blob` rows (content-addressed, in the database every worker
shares) and a :class:`~portal.models.Build` per task, then queues ``measure``. ``measure`` runs
on ``eval.<backend>`` (the machines with the device): it reads the artifacts back from the
database and checks and times them with the same runner as a one-job evaluation
(``Pipeline.measure``), storing one Result per task. Neither job reads a file of the portal's:
the bundle comes from its Blob too.

Both are idempotent: a redelivered build skips the tasks it has built, a redelivered measure the
tasks with a result (the unique constraints turn a concurrent duplicate into a no-op).
"""

from __future__ import annotations

import logging

from django.db import IntegrityError
from django.db.models import F
from django.utils import timezone

from evaluator import suite
from evaluator.harness.protocol import Protocol
from evaluator.pipeline import Artifact, Candidate, Pipeline
from evaluator.records import TaskResult
from leaderboard.slices import heldout_secret, track_tasks
from portal import evaluation, jobs
from portal.models import Blob, Build, Result, Submission

log = logging.getLogger(__name__)


def _store_files(artifact: Artifact) -> list[list[str]]:
    return [[name, Blob.put(Blob.Kind.ARTIFACT, data)] for name, data in artifact.files]


def _load_files(files: list[list[str]]) -> Artifact:
    return Artifact(tuple((name, Blob.read(digest)) for name, digest in files))


def build_backend(submission_id: int, backend: str, track: str = Result.PUBLIC) -> None:
    """Build every task of a submission's track on one backend, then queue its measurement."""
    sub = Submission.objects.filter(pk=submission_id).first()
    if sub is None or sub.state in (Submission.State.CANCELLED, Submission.State.FAILED):
        return
    if track == Result.PUBLIC:
        Submission.objects.filter(pk=sub.pk, started_at__isnull=True).update(started_at=timezone.now())
        Submission.objects.filter(pk=sub.pk, state=Submission.State.QUEUED).update(state=Submission.State.RUNNING)
    else:
        V = Submission.Verification
        Submission.objects.filter(pk=sub.pk, verification=V.QUEUED).update(verification=V.RUNNING)
    try:
        bundle = evaluation.stored_bundle(sub)
        pipe = Pipeline(backend)
        built = set(Build.objects.filter(submission=sub, backend=backend, track=track)
                    .values_list("workload", flat=True))
        for w in track_tasks(track):
            if w.id in built:
                continue
            if Submission.objects.filter(pk=sub.pk, state=Submission.State.CANCELLED).exists():
                return
            e = bundle.entry_for(w, backend)
            artifact, record = pipe.build(w, Candidate.of(e, w))
            baselines = {}
            if artifact is not None:
                baselines = {role: _store_files(a) for role, a in pipe.baselines(w, record).items()}
            try:
                Build.objects.create(submission=sub, workload=w.id, backend=backend, track=track,
                                     candidate=_store_files(artifact) if artifact is not None else None,
                                     baselines=baselines, record=record.to_json())
            except IntegrityError:  # a concurrent duplicate of this job built it first
                pass
    except Exception as exc:  # noqa: BLE001 - the submitter sees the reason; the worker lives on
        log.exception("building submission %s on %s failed", submission_id, backend)
        evaluation.fail(sub, track, exc)
        return
    jobs.dispatch_measure(sub.pk, backend, track)


def measure_backend(submission_id: int, backend: str, track: str = Result.PUBLIC) -> None:
    """Check and time every built task of a submission's track on this machine's device."""
    sub = Submission.objects.filter(pk=submission_id).first()
    if sub is None or sub.state in (Submission.State.CANCELLED, Submission.State.FAILED):
        return
    try:
        seeds = evaluation.verification_seeds(sub.pk, backend, len(Protocol().seeds)) \
            if track == Result.VERIFIED else None
        pipe = Pipeline(backend, seeds=seeds)
        done = set(Result.objects.filter(submission=sub, backend=backend, track=track)
                   .values_list("workload", flat=True))
        for b in Build.objects.filter(submission=sub, backend=backend, track=track).order_by("workload"):
            if b.workload in done:
                continue
            if Submission.objects.filter(pk=sub.pk, state=Submission.State.CANCELLED).exists():
                return
            record = TaskResult.from_json(b.record)
            if not b.failed:
                w = suite.get_workload(b.workload, secret=heldout_secret())
                record = pipe.measure(w, _load_files(b.candidate),
                                      {role: _load_files(f) for role, f in b.baselines.items()}, record=record)
            if evaluation.store(sub, record, device=pipe.info.device, track=track) and track == Result.PUBLIC:
                Submission.objects.filter(pk=sub.pk).update(tasks_done=F("tasks_done") + 1)
    except Exception as exc:  # noqa: BLE001
        log.exception("measuring submission %s on %s failed", submission_id, backend)
        evaluation.fail(sub, track, exc)
        return
    evaluation.finish_track(sub.pk, track)
