"""Running a submission's job: the evaluator's pipeline, one stored Result per task.

Idempotent by construction — results already stored are skipped, and the unique constraint on
(submission, workload, backend) turns a concurrent duplicate into a no-op — so a job redelivered
after a worker died finishes the submission with exactly one result per task.
"""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from evaluator import scoring, suite
from evaluator.formats.bundle import load_bundle
from evaluator.pipeline import Candidate, Pipeline
from portal import endpoints
from portal.models import Result, Submission

log = logging.getLogger(__name__)


def store(sub: Submission, r) -> bool:
    """Store one TaskResult; False when it was already there."""
    try:
        with transaction.atomic():
            Result.objects.create(
                submission=sub, workload=r.workload, backend=r.backend, status=r.status,
                reason=r.reason[:4000], level=r.level, domains=r.domains, hidden=r.hidden,
                speedup_tvm_default=r.speedup.get("tvm-default"), speedup_vendor=r.speedup.get("vendor"),
                time_s=r.times["candidate"].median_s if "candidate" in r.times else None,
                roofline_fraction=r.roofline_fraction, record=r.to_json(),
            )
    except IntegrityError:
        return False
    return True


def evaluate_backend(submission_id: int, backend: str) -> None:
    sub = Submission.objects.filter(pk=submission_id).first()
    if sub is None or sub.state in (Submission.State.CANCELLED, Submission.State.FAILED):
        return
    Submission.objects.filter(pk=sub.pk, started_at__isnull=True).update(started_at=timezone.now())
    Submission.objects.filter(pk=sub.pk, state=Submission.State.QUEUED).update(state=Submission.State.RUNNING)
    try:
        pipe = Pipeline(backend)
        done = set(Result.objects.filter(submission=sub, backend=backend).values_list("workload", flat=True))
        if sub.kind == Submission.Kind.ENDPOINT:
            fatal = endpoints.evaluate_endpoint(sub, backend, pipe, done, store)
            if fatal:
                endpoints.fail(sub, fatal)
                return
            finish_if_complete(sub.pk)
            return
        bundle = load_bundle(sub.bundle.path)
        entries = {e.workload: e for e in bundle.entries if e.backend == backend}
        for w in suite.workloads():
            if w.id in done:
                continue
            if Submission.objects.filter(pk=sub.pk, state=Submission.State.CANCELLED).exists():
                return
            e = entries.get(w.id)
            r = pipe.evaluate(w, Candidate(e.format, e.source, e.trace, e.launch) if e else None)
            if store(sub, r):
                Submission.objects.filter(pk=sub.pk).update(tasks_done=F("tasks_done") + 1)
    except Exception as exc:  # noqa: BLE001 - the submitter sees the reason; the worker lives on
        log.exception("evaluation of submission %s on %s failed", submission_id, backend)
        Submission.objects.filter(pk=sub.pk).update(state=Submission.State.FAILED, error=str(exc)[:4000],
                                                    finished_at=timezone.now())
        return
    finish_if_complete(sub.pk)


def finish_if_complete(submission_id: int) -> None:
    with transaction.atomic():
        sub = Submission.objects.select_for_update().get(pk=submission_id)
        if sub.is_done:
            return
        results = list(Result.objects.filter(submission=sub))
        expected = {(w.id, b) for w in endpoints.expected_tasks(sub) for b in sub.backends}
        have = {(r.workload, r.backend) for r in results}
        if not expected <= have:
            return
        sub.tasks_done = len(have & expected)
        sub.summary = {b: scoring.breakdown([r.record for r in results if r.backend == b]) for b in sub.backends}
        sub.state = Submission.State.FINISHED
        sub.finished_at = timezone.now()
        sub.save()
