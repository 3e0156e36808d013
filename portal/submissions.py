"""Accepting a submission: validate the upload with the evaluator's own bundle loader, store it,
and queue one evaluation job per backend. A rejected upload stores nothing."""

from __future__ import annotations

import hashlib
import os
import tempfile

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction

from evaluator import suite
from evaluator.formats.bundle import Bundle, BundleError, Limits, load_bundle
from evaluator.vocabulary import Track
from portal import jobs, quotas
from portal.models import Blob, Endpoint, Submission

ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz")
LIMITS = Limits()


def _mib(n: int) -> str:
    return f"{n / 2**20:.2f}".rstrip("0").rstrip(".")


def _suffix(filename: str) -> str:
    low = filename.lower()
    for s in ARCHIVE_SUFFIXES:
        if low.endswith(s):
            return s
    raise ValidationError(f"'{filename}': a bundle must be a .zip or .tar.gz archive")


def validate_upload(upload) -> tuple[bytes, str, object]:
    """(bytes, suffix, evaluator Bundle) or ValidationError with every problem found."""
    suffix = _suffix(upload.name or "")
    if upload.size is not None and upload.size > LIMITS.max_archive_bytes:
        raise ValidationError(f"the archive is {_mib(upload.size)} MiB; the limit is "
                              f"{_mib(LIMITS.max_archive_bytes)} MiB")
    data = upload.read(LIMITS.max_archive_bytes + 1)
    return data, suffix, validate_archive(data, suffix)


def validate_archive(data: bytes, suffix: str) -> Bundle:
    """The evaluator Bundle in ``data`` (an archive of kind ``suffix``), or ValidationError."""
    fd, path = tempfile.mkstemp(suffix=suffix, prefix="ekb-upload-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        return load_bundle(path, limits=LIMITS)
    except BundleError as e:
        raise ValidationError(e.errors) from None
    finally:
        os.unlink(path)


def backends_for(bundle, requested: list[str] | None, available: list[str]) -> list[str]:
    named = sorted({e.backend for e in bundle.entries})
    wanted = requested or [b for b in named if b in available] or available[:1]
    unknown = [b for b in wanted if b not in available]
    if unknown:
        raise ValidationError(f"backends {unknown} are not served here; available: {available}")
    return wanted


def create_submission(owner, upload, *, name: str = "", description: str = "", public: bool = True,
                      backends: list[str] | None = None, enqueue: bool = True, idempotency_key: str = "",
                      quota: bool = True) -> Submission:
    """``idempotency_key``: the request's (``Submission.idempotency_key``); a second submission of
    the owner's with the same key raises ``IntegrityError`` and stores nothing. ``quota``: counted
    against the owner's daily quota (``quotas.QuotaExhausted`` when spent, nothing stored)."""
    data, suffix, bundle = validate_upload(upload)
    return _store_bundle(owner, data, suffix, bundle, name=name, description=description, public=public,
                         backends=backends, enqueue=enqueue, idempotency_key=idempotency_key, quota=quota)


def _store_bundle(owner, data: bytes, suffix: str, bundle: Bundle, *, name: str, description: str, public: bool,
                  backends: list[str] | None, enqueue: bool, idempotency_key: str = "",
                  quota: bool = True, actor=None) -> Submission:
    """``quota``: held against the owner's daily quota, as ``actor`` asks (the owner when None;
    see ``quotas.hold``)."""
    chosen = backends_for(bundle, backends, settings.EKB_BACKENDS)
    sha = hashlib.sha256(data).hexdigest()
    sub = Submission(owner=owner, name=(name or bundle.name)[:64],
                     description=description or bundle.description or "", public=public,
                     backends=chosen, bundle_sha256=sha, idempotency_key=idempotency_key,
                     tasks_total=len(suite.served(settings.EKB_TASKS)) * len(chosen))
    try:
        with transaction.atomic():
            if quota:
                quotas.hold(owner, actor)
            sub.bundle.save(f"{sha[:16]}{suffix}", ContentFile(data), save=False)
            sub.save()
            Blob.put(Blob.Kind.BUNDLE, data)  # where every worker reads it, on any machine
            if enqueue:
                transaction.on_commit(lambda: enqueue_jobs(sub))
    except IntegrityError:  # the same Idempotency-Key, stored first by a concurrent request
        sub.bundle.delete(save=False)
        raise
    return sub


def enqueue_jobs(sub: Submission) -> None:
    for backend in sub.backends:
        jobs.dispatch(sub.pk, backend, kind=sub.kind)


def request_verification(sub: Submission) -> Submission:
    """Queue the verified run of a finished submission: every workload, hidden ones included,
    with secret seeds. Its results rank on the verified boards only."""
    if sub.state != Submission.State.FINISHED:
        raise ValidationError(f"submission {sub.pk} is {sub.state}; only a finished one can be verified")
    if sub.verification in (Submission.Verification.QUEUED, Submission.Verification.RUNNING):
        raise ValidationError(f"submission {sub.pk} is already being verified")
    with transaction.atomic():
        sub.queue_verification()

        def enqueue() -> None:
            for backend in sub.backends:
                jobs.dispatch(sub.pk, backend, Track.VERIFIED, kind=sub.kind)

        transaction.on_commit(enqueue)
    return sub


def may_manage(sub: Submission, user) -> bool:
    """Whether ``user`` may cancel or rerun ``sub``: its owner, or staff."""
    return bool(user.is_authenticated and (user.pk == sub.owner_id or user.is_staff))


def cancel_submission(sub: Submission) -> Submission:
    """Cancel a queued or running submission (its jobs stop between tasks); ValidationError
    (code "conflict") naming its state when it has already ended."""
    if not sub.cancel():
        sub.refresh_from_db(fields=["state"])
        raise ValidationError(f"submission {sub.pk} is already {sub.state}; only a queued or running "
                              "submission can be cancelled", code="conflict")
    return sub


def rerun_submission(sub: Submission, *, enqueue: bool = True, actor=None) -> Submission:
    """A new submission of the same bundle or endpoint, owned by the same user, on the same
    backends, queued as a new upload is. The bundle goes through today's checks again (the
    loader may have tightened since); an endpoint starts with a fresh usage count. It counts in
    the owner's daily quota unless ``actor`` (who asks; the owner when None) is exempt."""
    if not sub.is_done:
        raise ValidationError(f"submission {sub.pk} is still {sub.state}; rerun it once it has ended "
                              "(or cancel it first)", code="conflict")
    if sub.kind == Submission.Kind.ENDPOINT:
        return _rerun_endpoint(sub, enqueue, actor)
    try:
        data = Blob.read(sub.bundle_sha256)
    except (LookupError, ValueError) as e:
        raise ValidationError(f"submission {sub.pk}'s bundle cannot be read back: {e}") from None
    suffix = _suffix(sub.bundle.name or f"bundle{ARCHIVE_SUFFIXES[0]}")
    bundle = validate_archive(data, suffix)
    return _store_bundle(sub.owner, data, suffix, bundle, name=sub.name, description=sub.description,
                         public=sub.public, backends=list(sub.backends), enqueue=enqueue, actor=actor)


def _rerun_endpoint(sub: Submission, enqueue: bool, actor=None) -> Submission:
    ep = Endpoint.objects.filter(submission=sub).first()
    if ep is None:
        raise ValidationError(f"submission {sub.pk} has no endpoint to call again")
    unknown = [b for b in sub.backends if b not in settings.EKB_BACKENDS]
    if unknown:
        raise ValidationError(f"backends {unknown} are not served here any more; available: {settings.EKB_BACKENDS}")
    with transaction.atomic():
        quotas.hold(sub.owner, actor)
        new = Submission.objects.create(
            owner=sub.owner, kind=Submission.Kind.ENDPOINT, name=sub.name, description=sub.description,
            public=sub.public, backends=list(sub.backends), tasks_total=sub.tasks_total)
        # the key stays encrypted: copied as stored, never decrypted here
        Endpoint.objects.create(submission=new, url=ep.url, model=ep.model, api_key_encrypted=ep.api_key_encrypted,
                                mode=ep.mode, budget=ep.budget, prompt_version=ep.prompt_version, tasks=ep.tasks)
        if enqueue:
            transaction.on_commit(lambda: enqueue_jobs(new))
    return new
