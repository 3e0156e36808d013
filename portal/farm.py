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

import contextlib
import logging

from django.conf import settings
from django.db import IntegrityError
from django.db.models import F

from evaluator.backends import get_builder
from evaluator.harness.protocol import Protocol
from evaluator.pipeline import Artifact, Builder, Candidate, Pipeline, Stopped
from evaluator.records import TaskResult
from evaluator.suite.spec import WorkloadSpec
from portal import evaluation, jobs, provenance
from portal.models import Blob, Build, Provenance, Result, Submission
from portal.signals import results_landed
from portal.tracks import track_tasks

log = logging.getLogger(__name__)


def _store_files(artifact: Artifact) -> list[list[str]]:
    return [[name, Blob.put(Blob.Kind.ARTIFACT, data)] for name, data in artifact.files]


def _load_files(files: list[list[str]]) -> Artifact:
    return Artifact(tuple((name, Blob.read(digest)) for name, digest in files))


def _seeds(sub: Submission, backend: str, track: str) -> tuple[int, ...]:
    n = len(Protocol().seeds)
    return tuple(evaluation.verification_seeds(sub.pk, backend, n)) if track == Result.VERIFIED else Protocol().seeds


def _watched(sub: Submission, track: str, builder):
    """A public run stops its running step when the submission is cancelled (a verified run has
    no cancel)."""
    return evaluation.stop_on_cancel(sub, builder) if track == Result.PUBLIC else contextlib.nullcontext()


def build_backend(submission_id: int, backend: str, track: str = Result.PUBLIC) -> None:
    """Build every task of a submission's track on one backend, then queue its measurement.

    Needs TVM's compiler, not the device: the target is the device's where it is here, else the
    one ``EKB_BUILD_TARGETS`` names for the backend (e.g. cuda's arch)."""
    sub = Submission.objects.filter(pk=submission_id).first()
    if sub is None or sub.state in (Submission.State.CANCELLED, Submission.State.FAILED):
        return
    if track == Result.PUBLIC:
        sub.start()
    else:
        sub.start_verification()
    try:
        bundle = evaluation.stored_bundle(sub)
        builder = Builder(get_builder(backend, settings.EKB_BUILD_TARGETS.get(backend)))
        target, seeds = builder.target(), _seeds(sub, backend, track)
        made_by = evaluation.made_by(builder, side="build")
        built = set(Build.objects.filter(submission=sub, backend=backend, track=track)
                    .values_list("workload", flat=True))
        with _watched(sub, track, builder), builder.session():  # this submission's builds share one process
            for w in track_tasks(track):
                if w.id in built:
                    continue
                if sub.is_cancelled():
                    return
                e = bundle.entry_for(w, backend)
                artifact, record = builder.build(w, Candidate.of(e, w))
                baselines, spec, references = {}, {}, ""
                if artifact is not None:
                    baselines = {role: _store_files(a) for role, a in builder.baselines(w, record).items()}
                    ws = WorkloadSpec.of(w, builder.backend, seeds)
                    spec, references = ws.to_json(), Blob.put(Blob.Kind.REFERENCE, ws.references_npz())
                try:
                    Build.objects.create(submission=sub, workload=w.id, backend=backend, track=track,
                                         candidate=_store_files(artifact) if artifact is not None else None,
                                         baselines=baselines, record=record.to_json(), target=target,
                                         workload_spec=spec, references=references, provenance_id=made_by)
                except IntegrityError:  # a concurrent duplicate of this job built it first
                    pass
    except Stopped:  # cancelled while a task was built: the task has no Build
        return
    except evaluation.TRANSIENT:  # retried (portal.tasks): the next delivery skips what is built
        raise
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
        pipe = Pipeline(backend, seeds=_seeds(sub, backend, track))
        here = provenance.collect(pipe, secret_seeds=track == Result.VERIFIED, side="measure")
        made_by: dict[str | None, str] = {}  # a Build's provenance → the results' (this machine's + it)
        done = set(Result.objects.filter(submission=sub, backend=backend, track=track)
                   .values_list("workload", flat=True))
        # this submission's kernels: each role's process kept from task to task
        with _watched(sub, track, pipe), pipe.session():
            for b in Build.objects.filter(submission=sub, backend=backend, track=track).order_by("workload"):
                if b.workload in done:
                    continue
                if sub.is_cancelled():
                    return
                record = TaskResult.from_json(b.record)
                if not b.failed:
                    why = pipe.backend.runs_target(b.target)
                    if why:  # a build worker configured for another device: nothing here can run it
                        raise RuntimeError(f"{b.workload}: the artifacts cannot run on this {backend} device: {why}")
                    # no pattern file is imported here: a measurement machine has TVM's runtime only
                    w = WorkloadSpec.from_json(b.workload_spec, Blob.read(b.references))
                    record = pipe.measure(w, _load_files(b.candidate),
                                          {role: _load_files(f) for role, f in b.baselines.items()}, record=record)
                if b.provenance_id not in made_by:
                    built_by = b.provenance.data if b.provenance_id else None
                    made_by[b.provenance_id] = Provenance.put({**here, "build": built_by})
                if evaluation.store(sub, record, device=pipe.info.device, track=track, announce=False,
                                    made_by=made_by[b.provenance_id]) and track == Result.PUBLIC:
                    Submission.objects.filter(pk=sub.pk).update(tasks_done=F("tasks_done") + 1)
    except Stopped:  # cancelled while a task was measured: the task has no result
        return
    except evaluation.TRANSIENT:  # retried (portal.tasks): the next delivery skips what is stored
        raise
    except Exception as exc:  # noqa: BLE001
        log.exception("measuring submission %s on %s failed", submission_id, backend)
        evaluation.fail(sub, track, exc)
        return
    jobs.dispatch_land(sub.pk, backend, track)


def land_backend(submission_id: int, backend: str, track: str = Result.PUBLIC) -> None:
    """The measured results reach the boards, and the track finishes once every task has one.
    Runs where the suite is (the boards' slices are made of its workloads)."""
    results = Result.objects.filter(submission_id=submission_id, backend=backend, track=track)
    try:
        results_landed.send(sender=Result, results=results)
    except evaluation.TRANSIENT:  # retried (portal.tasks): the refresh is idempotent
        raise
    except Exception:  # noqa: BLE001 - the results are stored; `manage.py rebuild_boards` catches up
        log.exception("refreshing the boards after submission %s on %s failed", submission_id, backend)
    evaluation.finish_track(submission_id, track)
