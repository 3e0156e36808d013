"""Running a submission's job: the evaluator's pipeline, one stored Result per task.

Idempotent by construction — results already stored are skipped, and the unique constraint on
(submission, workload, backend) turns a concurrent duplicate into a no-op — so a job redelivered
after a worker died finishes the submission with exactly one result per task.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import logging
import os
import tempfile
import threading
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError, connection, transaction
from django.db.models import F

from evaluator import scoring
from evaluator.formats.bundle import load_bundle
from evaluator.harness.protocol import Protocol
from evaluator.pipeline import Candidate, Pipeline, Stopped
from evaluator.vocabulary import Baseline
from portal import endpoints, provenance
from portal.models import Blob, Provenance, Result, Submission
from portal.secretfiles import stored_secret
from portal.signals import peak_measured, result_landed, results_landed
from portal.tracks import track_tasks

log = logging.getLogger(__name__)

# A dropped database connection (a server restart, pg_terminate_backend): the job raises it and
# is retried (``portal.tasks``), skipping what is stored; the submission is never failed for it.
TRANSIENT = (OperationalError, InterfaceError)

# What a worker machine can run short of while it runs a job (its scratch space filled by
# something else, its memory or file handles taken): not the submission's doing, so the job is
# retried like a dropped connection, and only its last delivery fails the submission, saying so.
SHORT_OF = {errno.ENOSPC: "scratch space", errno.EDQUOT: "disk quota", errno.ENOMEM: "memory",
            errno.EMFILE: "file handles", errno.ENFILE: "file handles"}


class WorkerShort(Exception):
    """The worker machine ran short of a resource while it ran a job (``SHORT_OF``)."""


def worker_short(exc: BaseException) -> WorkerShort | None:
    """The shortage behind ``exc`` (its causes included), in words without the path it happened
    at (a worker's scratch layout is no submitter's business); None for any other error."""
    seen: set[int] = set()
    e: BaseException | None = exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, OSError) and e.errno in SHORT_OF:
            return WorkerShort(f"the worker machine ran out of {SHORT_OF[e.errno]} ({os.strerror(e.errno)}); "
                               "this is not the submission's doing")
        e = e.__cause__ or e.__context__
    return None


def names_shortage(reason: str) -> bool:
    """Whether a step's reason names a shortage of the machine it ran on (``SHORT_OF``, said by
    the step's own process, e.g. a compiler out of disk): the machine's doing, not the code's."""
    return "MemoryError" in reason or any(os.strerror(e) in reason for e in SHORT_OF)


# What a job retries (portal.tasks): each delivery skips what an earlier one stored.
RETRIED = (*TRANSIENT, WorkerShort)


def store(sub: Submission, r, *, device: str = "", track: str = Result.PUBLIC, announce: bool = True,
          made_by: str | None = None) -> bool:
    """Store one TaskResult and (``announce``) announce it (``signals.result_landed``: the
    leaderboard refreshes the boards it changes); False when it was already there. A measurement
    machine stores without announcing: the boards' slices are the suite's, and it has no pattern
    files (``farm.land_backend``). ``made_by``: the digest of the job's :class:`Provenance`."""
    try:
        with transaction.atomic():
            result = Result.objects.create(
                submission=sub, workload=r.workload, backend=r.backend, device=device, track=track, status=r.status,
                reason=r.reason[:4000], level=r.level, domains=r.domains, hidden=r.hidden,
                speedup_tvm_default=r.speedup.get(Baseline.TVM_DEFAULT),
                speedup_tvm_tuned=r.speedup.get(Baseline.TVM_TUNED), speedup_vendor=r.speedup.get(Baseline.VENDOR),
                time_s=r.times["candidate"].median_s if "candidate" in r.times else None,
                roofline_fraction=r.roofline_fraction, record=r.to_json(), provenance_id=made_by,
            )
    except IntegrityError:
        return False
    # the reaper's clock: a submission whose results keep landing is not stuck (portal.reaper)
    Submission.objects.filter(pk=sub.pk).update(progressed_at=result.created_at)
    if not announce:
        return True
    try:
        result_landed.send(sender=Result, result=result)
    except TRANSIENT:
        # The job is retried and its next delivery announces what is stored (``announce_stored``).
        # Swallowed, a connection lost inside the refresh's transaction would be dropped and
        # silently reopened by the next query: the job would go on with that refresh rolled back.
        raise
    except Exception:  # noqa: BLE001 - the result is stored; `manage.py rebuild_boards` catches up
        log.exception("refreshing the boards after %s failed", result)
    return True


def _verify_secret() -> str:
    """EKB_VERIFY_SECRET, else the deployment's own generated one (a 0600 file in the var dir):
    never SECRET_KEY or anything else another party might know."""
    configured = getattr(settings, "EKB_VERIFY_SECRET", "")
    if configured:
        return configured
    return stored_secret(settings.EKB_VERIFY_SECRET_FILE)


def verification_seeds(submission_id: int, backend: str, n: int) -> list[int]:
    """Secret input seeds of a verified run: derived from the deployment's secret, never stored
    or shown, and different for every submission and backend."""
    secret = _verify_secret().encode()
    out = []
    for i in range(n):
        digest = hmac.new(secret, f"verify:{submission_id}:{backend}:{i}".encode(), hashlib.sha256).digest()
        out.append(int.from_bytes(digest[:4], "little"))
    return out


@contextlib.contextmanager
def stop_on_cancel(sub: Submission, builder):
    """While the body runs, a thread asks every ``EKB_CANCEL_POLL_S`` seconds whether ``sub`` has
    been cancelled; once it has, it stops ``builder`` (a Pipeline or Builder): the step running
    now is killed, and the body's evaluate/build/measure raises ``Stopped``. A cancel then frees
    the worker within about that interval, not when the task's step would have ended. The thread
    runs one indexed query per interval, so it barely touches the process's timing."""
    done = threading.Event()

    def watch() -> None:
        try:
            while not done.wait(settings.EKB_CANCEL_POLL_S):
                if sub.is_cancelled():
                    log.info("submission %s was cancelled: stopping its running step", sub.pk)
                    builder.stop()
                    return
        except Exception:  # noqa: BLE001 - without a watcher the job still stops between tasks
            log.exception("watching submission %s for a cancel failed", sub.pk)
        finally:
            connection.close()  # this thread's own connection

    watcher = threading.Thread(target=watch, name=f"ekb-cancel-watch-{sub.pk}", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join(timeout=30)


def made_by(builder, *, secret_seeds: bool = False, side: str = "job") -> str:
    """The digest of this job's stored :class:`Provenance` (``portal.provenance.collect``)."""
    return Provenance.put(provenance.collect(builder, secret_seeds=secret_seeds, side=side))


def evaluate_backend(submission_id: int, backend: str, track: str = Result.PUBLIC) -> None:
    """Evaluate a submission on one backend: the public workloads with the public seeds, or for
    the verified track every workload (hidden ones too) with secret seeds."""
    if track == Result.VERIFIED:
        return _verify_backend(submission_id, backend)
    sub = Submission.objects.filter(pk=submission_id).first()
    if sub is None or sub.state in (Submission.State.CANCELLED, Submission.State.FAILED):
        return
    sub.start()
    try:
        pipe = Pipeline(backend)
        prov = made_by(pipe)
        with stop_on_cancel(sub, pipe):
            if sub.kind == Submission.Kind.ENDPOINT:
                _announce_peak(pipe)
                done = set(Result.objects.filter(submission=sub, backend=backend, track=Result.PUBLIC)
                           .values_list("workload", flat=True))
                announce_stored(sub, backend, Result.PUBLIC, done)
                with pipe.session():  # the model's candidates for this submission share a build process
                    fatal = endpoints.evaluate_endpoint(
                        sub, backend, pipe, done, lambda s, r: store(s, r, device=pipe.info.device, made_by=prov))
                if fatal:
                    sub.fail(fatal)
                    return
            else:
                _run(sub, backend, Result.PUBLIC, track_tasks(Result.PUBLIC), pipe, prov)
    except (_Cancelled, Stopped):  # cancelled: the task it was on has no result
        return
    except TRANSIENT:
        raise
    except Exception as exc:  # noqa: BLE001 - the submitter sees the reason; the worker lives on
        log.exception("evaluation of submission %s on %s failed", submission_id, backend)
        fail(sub, Result.PUBLIC, exc)
        return
    finish_if_complete(sub.pk)


class _Cancelled(Exception):
    pass


def _announce_peak(pipe: Pipeline) -> None:
    """The backend's peak on this device, for whoever keeps it (the leaderboard's roofline roofs)."""
    peak_measured.send(sender=None, backend=pipe.info.name, device=pipe.info.device, peak=pipe.peak)


def stored_bundle(sub: Submission):
    """The submission's bundle, read from the database every worker shares (no file of the
    portal's: a worker on another machine has none). A submission from before bundles were
    stored there is read from its upload once, and stored."""
    try:
        data = Blob.read(sub.bundle_sha256)
    except LookupError:
        with sub.bundle.open("rb") as f:
            data = f.read()
        Blob.put(Blob.Kind.BUNDLE, data)
    suffix = ".zip" if data[:2] == b"PK" else ".tar.gz"
    with tempfile.TemporaryDirectory(prefix="ekb-bundle-") as d:
        path = Path(d) / f"bundle{suffix}"
        path.write_bytes(data)
        return load_bundle(str(path))


def announce_stored(sub: Submission, backend: str, track: str, done: set[str]) -> None:
    """A redelivered or retried job announces the results an earlier delivery stored: that one
    may have died (or lost its database) between storing a result and announcing it, and the
    boards' refresh is idempotent."""
    if done:
        results_landed.send(sender=Result, results=Result.objects.filter(submission=sub, backend=backend,
                                                                         track=track))


def _run(sub: Submission, backend: str, track: str, workloads, pipe: Pipeline, prov: str) -> None:
    bundle = stored_bundle(sub)
    _announce_peak(pipe)
    done = set(Result.objects.filter(submission=sub, backend=backend, track=track)
               .values_list("workload", flat=True))
    announce_stored(sub, backend, track, done)
    def tasks():
        for w in workloads:
            if w.id in done:
                continue
            if sub.is_cancelled():  # asked as each task is read, one ahead of the one evaluated
                raise _Cancelled
            yield w, Candidate.of(bundle.entry_for(w, backend), w)  # workload-level first, then the pattern's

    # this submission's builds share one build process, no one else's; each runs while the task
    # before it is checked
    with pipe.session():
        for r in pipe.evaluate_all(tasks()):
            if store(sub, r, device=pipe.info.device, track=track, made_by=prov) and track == Result.PUBLIC:
                Submission.objects.filter(pk=sub.pk).update(tasks_done=F("tasks_done") + 1)


def _verify_backend(submission_id: int, backend: str) -> None:
    V = Submission.Verification
    sub = Submission.objects.filter(pk=submission_id, state=Submission.State.FINISHED).first()
    if sub is None or sub.verification not in (V.QUEUED, V.RUNNING):
        return
    sub.start_verification()
    try:
        n = len(Protocol().seeds)
        pipe = Pipeline(backend, seeds=verification_seeds(sub.pk, backend, n))
        prov = made_by(pipe, secret_seeds=True)
        if sub.kind == Submission.Kind.ENDPOINT:
            done = set(Result.objects.filter(submission=sub, backend=backend, track=Result.VERIFIED)
                       .values_list("workload", flat=True))
            # a fatal endpoint failure leaves the verification unfinished: staff see the state
            with pipe.session():
                endpoints.evaluate_endpoint(sub, backend, pipe, done,
                                            lambda s, r: store(s, r, device=pipe.info.device, track=Result.VERIFIED,
                                                               made_by=prov),
                                            workloads=_verified_tasks(sub), count_progress=False)
        else:
            _run(sub, backend, Result.VERIFIED, track_tasks(Result.VERIFIED), pipe, prov)
    except _Cancelled:
        return
    except TRANSIENT:
        raise
    except Exception as exc:  # noqa: BLE001 - staff see the state; the reason may name hidden workloads
        log.exception("verified evaluation of submission %s on %s failed", submission_id, backend)
        fail(sub, Result.VERIFIED, exc)
        return
    finish_verification_if_complete(submission_id)


def finish_verification_if_complete(submission_id: int) -> None:
    with transaction.atomic():
        sub = Submission.objects.select_for_update().get(pk=submission_id)
        expected = {(w.id, b) for w in _verified_tasks(sub) for b in sub.backends}
        have = set(Result.objects.filter(submission=sub, track=Result.VERIFIED).values_list("workload", "backend"))
        if expected <= have and sub.verification != Submission.Verification.FINISHED:
            sub.finish_verification()


def finish_track(submission_id: int, track: str) -> None:
    """Finish the submission (public) or its verification once every task has a result."""
    if track == Result.VERIFIED:
        finish_verification_if_complete(submission_id)
    else:
        finish_if_complete(submission_id)


def fail(sub: Submission, track: str, exc: BaseException) -> None:
    """A job that could not go on: the submission fails with the reason (public), or its
    verification does (staff see the state; the reason may name held-out workloads). A worker
    that ran short of a resource raises :class:`WorkerShort` instead: the job is retried."""
    short = worker_short(exc)
    if short is not None:
        raise short from exc
    if track == Result.VERIFIED:
        sub.fail_verification()
    else:
        sub.fail(exc)


def retries_spent(submission_id: int, track: str, exc: BaseException) -> None:
    """A job's last delivery failed with what it retries (``RETRIED``): the submission fails with
    that reason now, rather than waiting for the reaper. A database still unreachable leaves it to
    the reaper (``portal.reaper``), which fails it once its re-queues are spent."""
    try:
        sub = Submission.objects.filter(pk=submission_id).first()
        if sub is not None:
            reason = str(exc) if isinstance(exc, WorkerShort) else "the database could not be reached"
            fail(sub, track, RuntimeError(f"{reason} (the job was retried until its retries were spent)"))
    except TRANSIENT:
        log.exception("failing submission %s after its job's retries failed", submission_id)


def _verified_tasks(sub: Submission) -> list:
    """What a verified run evaluates: every track task (held-out ones too), or for an endpoint its
    own selection and held-out shapes drawn for it (``endpoints.verified_tasks``)."""
    if sub.kind == Submission.Kind.ENDPOINT:
        return endpoints.verified_tasks(sub)
    return track_tasks(Result.VERIFIED)


def finish_if_complete(submission_id: int) -> None:
    with transaction.atomic():
        sub = Submission.objects.select_for_update().get(pk=submission_id)
        if sub.is_done:
            return
        results = list(Result.objects.filter(submission=sub, track=Result.PUBLIC))
        expected = {(w.id, b) for w in endpoints.expected_tasks(sub) for b in sub.backends}
        have = {(r.workload, r.backend) for r in results}
        if not expected <= have:
            return
        sub.finish(tasks_done=len(have & expected),
                   summary={b: scoring.breakdown([r.record for r in results if r.backend == b]) for b in sub.backends})
