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

A candidate's build is kept by what determines it (:func:`build_key`, a
:class:`~portal.models.BuiltCandidate`): the same entry for the same workload, target, software
and limits is built once and its files reused, whoever submits it again (see that model for who
shares which). Its files come out of the sandbox either way and are checked and measured there.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging

from django.conf import settings
from django.db import IntegrityError
from django.db.models import F

from evaluator import records
from evaluator.backends import get_builder
from evaluator.harness.protocol import Protocol
from evaluator.pipeline import Artifact, Builder, Built, Candidate, Pipeline, Stopped
from evaluator.records import TaskResult
from evaluator.suite.spec import WorkloadSpec
from portal import evaluation, jobs, provenance
from portal.models import Blob, Build, BuiltCandidate, Provenance, Result, Submission
from portal.signals import results_landed
from portal.tracks import track_tasks

log = logging.getLogger(__name__)


def _store_files(artifact: Artifact) -> list[list[str]]:
    return [[name, Blob.put(Blob.Kind.ARTIFACT, data)] for name, data in artifact.files]


def _load_files(files: list[list[str]]) -> Artifact:
    return Artifact(tuple((name, Blob.read(digest)) for name, digest in files))


def build_key(builder: Builder, w, cand: Candidate, software: dict) -> str:
    """sha256 of what determines a candidate's build: what its step reads (``build_inputs``: the
    entry's format, source and launch, the workload's id, IR and tensors, the backend, target,
    environment and limits), the entry's trace (its record carries it) and the software that builds
    it (``software``: this build machine's provenance without its host, i.e. TVM's version, LLVM
    and commit, the harness's digest, Python, a format's compiler and flags). No seed: a build
    reads none (the references, which do, are made per submission and never kept here)."""
    doc = {"build": builder.build_inputs(w, cand), "trace": cand.trace, "software": software}
    return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":"), default=str).encode()).hexdigest()


def _keepable(built: Built) -> bool:
    """A build another with the same key would repeat: built, or a compile error, never what the
    machine caused (a timeout, a limit, a crash; a compiler that ran out of memory or disk)."""
    if not built.pure:
        return False
    return built.artifact is not None or (built.record.status == records.COMPILE_ERROR
                                          and not evaluation.names_shortage(built.record.reason))


def _candidate(builder: Builder, w, cand: Candidate | None, owner_id: int,
               software: dict) -> tuple[list[list[str]] | None, TaskResult]:
    """The candidate's files (None: not built) and its record so far: kept ones when a build
    with the same key was kept for this owner or everyone (``build_reused`` in its detail),
    else built now and kept."""
    if cand is None:
        return None, builder.build(w, None).record
    key = build_key(builder, w, cand, software)
    kept = BuiltCandidate.find(key, owner_id)
    if kept is not None:
        record = builder.task_record(w, cand)
        for name in BuiltCandidate.BUILD_SIDE:
            if name in kept.record:
                setattr(record, name, kept.record[name])
        record.detail = {**record.detail, "build_reused": True}
        return kept.candidate, record
    # kept for another submitter's session only: built again, in a process no earlier build of
    # this session ran in, so that every submitter may share it
    shared = BuiltCandidate.objects.filter(key=key).exists()
    built = builder.build(w, cand, fresh=shared)
    files = _store_files(built.artifact) if built.artifact is not None else None
    if _keepable(built):
        BuiltCandidate.keep(key, None if shared else owner_id, files, built.record.to_json())
    return files, built.record


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
        here = provenance.collect(builder, side="build")
        made_by = Provenance.put(here)
        software = {k: v for k, v in here.items() if k not in ("hostname", "worker")}
        built = set(Build.objects.filter(submission=sub, backend=backend, track=track)
                    .values_list("workload", flat=True))
        with _watched(sub, track, builder), builder.session():  # this submission's builds share one process
            for w in track_tasks(track):
                if w.id in built:
                    continue
                if sub.is_cancelled():
                    return
                e = bundle.entry_for(w, backend)
                files, record = _candidate(builder, w, Candidate.of(e, w), sub.owner_id, software)
                baselines, spec, references = {}, {}, ""
                if files is not None:
                    baselines = {role: _store_files(a) for role, a in builder.baselines(w, record).items()}
                    ws = WorkloadSpec.of(w, builder.backend, seeds)
                    spec, references = ws.to_json(), Blob.put(Blob.Kind.REFERENCE, ws.references_npz())
                try:
                    Build.objects.create(submission=sub, workload=w.id, backend=backend, track=track,
                                         candidate=files,
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
