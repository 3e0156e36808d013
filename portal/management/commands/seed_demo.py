"""Prepare the demo: a demo account and the example bundles evaluated through the real pipeline.

Idempotent: an example already evaluated (same name and bundle hash) is left as it is.
"""

from __future__ import annotations

import hashlib
import io
import os
import zipfile
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import BaseCommand
from rest_framework.authtoken.models import Token

from evaluator.agents.search.agent import NAME
from evaluator.agents.server import ChatServer, search_model
from evaluator.sandbox import UNSAFE_ENV, probe
from evaluator.vocabulary import BackendKind
from portal.endpoints import create_endpoint_submission
from portal.evaluation import evaluate_backend
from portal.models import Submission
from portal.submissions import create_submission

EXAMPLES = ("tvm-default", "hand-tuned", "broken")


def zip_dir(path: Path) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(p for p in path.rglob("*") if p.is_file()):
            z.write(f, f.relative_to(path).as_posix())
    return buf.getvalue()


class Command(BaseCommand):
    help = "Create the demo user and evaluate the example bundles (in this process)."

    def add_arguments(self, parser):
        parser.add_argument("--only", nargs="*", default=list(EXAMPLES), help="example bundles to load")
        parser.add_argument("--no-endpoints", action="store_true",
                            help="skip the endpoint demo (the search agent in three modes)")

    def handle(self, *args, only, no_endpoints=False, **opts):
        why = probe()
        if why:
            # The shipped examples are ours and trusted; uploads to the running server are not,
            # and that process never gets this switch.
            self.stdout.write(f"no sandbox here ({why}): evaluating the shipped examples unsandboxed")
            os.environ[UNSAFE_ENV] = "1"
        User = get_user_model()
        user, created = User.objects.get_or_create(username="demo")
        if created:
            user.set_password("demo-password")
            user.save()
        token, _ = Token.objects.get_or_create(user=user)
        self.stdout.write(f"demo account: demo / demo-password · API token {token.key}")
        root = Path(settings.BASE_DIR) / "examples" / "bundles"
        for name in only:
            data = zip_dir(root / name)
            sha = hashlib.sha256(data).hexdigest()
            if Submission.objects.filter(name=name, bundle_sha256=sha, state=Submission.State.FINISHED).exists():
                self.stdout.write(f"{name}: already evaluated")
                continue
            sub = create_submission(user, SimpleUploadedFile(f"{name}.zip", data), name=name, enqueue=False)
            self.stdout.write(f"{name}: evaluating {sub.tasks_total} tasks …")
            for backend in sub.backends:
                evaluate_backend(sub.pk, backend)
            sub.refresh_from_db()
            s = sub.summary.get(BackendKind.CPU_LLVM, {})
            self.stdout.write(f"{name}: {sub.state}; Correct@1 {s.get('correct@1', 0):.3f}, "
                              f"Fast@1.0 {s.get('fast@1.0', 0):.3f}")
        if not no_endpoints:
            seed_endpoints(user, self.stdout)


ENDPOINT_TASKS = ["matmul/matmul@m128n512k128", "conv2d/conv2d-nchw@n1c32h28w28k32r3s1",
                  "softmax/softmax@m256n512", "reduction/sum-lastaxis@m512n1024", "activation/relu@m128n768"]
ENDPOINT_BUDGET = {"candidates": 4}


def seed_endpoints(user, out) -> None:
    """The built-in search agent entered as a model endpoint in each mode, same tasks and budget,
    served over the chat API on loopback by this process and evaluated like any endpoint."""
    server = ChatServer([search_model()]).start()
    allow = settings.EKB_ENDPOINT_ALLOW_LOOPBACK
    settings.EKB_ENDPOINT_ALLOW_LOOPBACK = True  # our own server, for this command only
    try:
        for mode in ("direct", "agent", "layered"):
            name = f"{NAME} ({mode})"
            if Submission.objects.filter(name=name, kind=Submission.Kind.ENDPOINT,
                                         state=Submission.State.FINISHED).exists():
                out.write(f"{name}: already evaluated")
                continue
            sub = create_endpoint_submission(
                user, url=server.url, model=NAME, mode=mode, budget=ENDPOINT_BUDGET, tasks=ENDPOINT_TASKS,
                name=name, enqueue=False,
                description="The built-in search agent (no LLM) behind the OpenAI-compatible API: "
                            f"{mode} mode, {ENDPOINT_BUDGET['candidates']} measured candidates per task.")
            out.write(f"{name}: evaluating {sub.tasks_total} tasks …")
            for backend in sub.backends:
                evaluate_backend(sub.pk, backend)
            sub.refresh_from_db()
            s = sub.summary.get(BackendKind.CPU_LLVM, {})
            out.write(f"{name}: {sub.state}; Correct@1 {s.get('correct@1', 0):.3f}, "
                      f"Fast@1.0 {s.get('fast@1.0', 0):.3f}")
    finally:
        settings.EKB_ENDPOINT_ALLOW_LOOPBACK = allow
        server.stop()
