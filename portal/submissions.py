"""Accepting a submission: validate the upload with the evaluator's own bundle loader, store it,
and queue one evaluation job per backend. A rejected upload stores nothing."""

from __future__ import annotations

import hashlib
import os
import tempfile

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction

from evaluator import suite
from evaluator.formats.bundle import BundleError, Limits, load_bundle
from evaluator.vocabulary import Track
from portal import jobs
from portal.models import Blob, Submission

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
    fd, path = tempfile.mkstemp(suffix=suffix, prefix="ekb-upload-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        bundle = load_bundle(path, limits=LIMITS)
    except BundleError as e:
        raise ValidationError(e.errors) from None
    finally:
        os.unlink(path)
    return data, suffix, bundle


def backends_for(bundle, requested: list[str] | None, available: list[str]) -> list[str]:
    named = sorted({e.backend for e in bundle.entries})
    wanted = requested or [b for b in named if b in available] or available[:1]
    unknown = [b for b in wanted if b not in available]
    if unknown:
        raise ValidationError(f"backends {unknown} are not served here; available: {available}")
    return wanted


def create_submission(owner, upload, *, name: str = "", description: str = "", public: bool = True,
                      backends: list[str] | None = None, enqueue: bool = True) -> Submission:
    data, suffix, bundle = validate_upload(upload)
    chosen = backends_for(bundle, backends, settings.EKB_BACKENDS)
    sha = hashlib.sha256(data).hexdigest()
    with transaction.atomic():
        sub = Submission(owner=owner, name=(name or bundle.name)[:64],
                         description=description or bundle.description or "", public=public,
                         backends=chosen, bundle_sha256=sha,
                         tasks_total=len(suite.served(settings.EKB_TASKS)) * len(chosen))
        sub.bundle.save(f"{sha[:16]}{suffix}", ContentFile(data), save=False)
        sub.save()
        Blob.put(Blob.Kind.BUNDLE, data)  # where every worker reads it, on any machine
        if enqueue:
            transaction.on_commit(lambda: enqueue_jobs(sub))
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
