"""Prepare the demo: a demo account, the example bundles on every served backend and the search
agent entered as a model endpoint, all queued through the normal job path.

    python manage.py seed_demo --serve 127.0.0.1:8000   # make demo: queue, then serve at once
    python manage.py seed_demo                           # queue, then wait until they are evaluated
    python manage.py seed_demo --no-wait                 # queue and return (Celery workers evaluate)

In the embedded mode the worker is a thread of the process that queues the jobs
(``portal.jobs``), so ``--serve`` runs the site (``runserver --noreload``) in this very process:
the page answers at once and the evaluation goes on behind it, its progress on the pages.

Idempotent: an example already evaluated (same name, bundle and backends) is left as it is; one
left queued or running by an embedded process that stopped is queued again and resumes where it
stopped (an evaluation skips the results it has).
"""

from __future__ import annotations

import hashlib
import io
import os
import sys
import time
import zipfile
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from rest_framework.authtoken.models import Token

from evaluator.agents.search.agent import NAME
from evaluator.agents.server import ChatServer, search_model
from evaluator.sandbox import UNSAFE_ENV, probe
from evaluator.vocabulary import BackendKind
from portal import workers
from portal.endpoints import create_endpoint_submission
from portal.models import Endpoint, Submission
from portal.submissions import backends_for, create_submission, enqueue_jobs, validate_archive

# In this order on the worker: tvm-default first puts both boards (and their baseline rows) up early.
EXAMPLES = ("tvm-default", "hand-tuned", "broken")
WAIT_LIMIT_S = 6 * 3600  # waiting for the whole suite on every example stays well under this
POLL_S = 5.0


def zip_dir(path: Path) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(p for p in path.rglob("*") if p.is_file()):
            z.write(f, f.relative_to(path).as_posix())
    return buf.getvalue()


class Command(BaseCommand):
    help = "Create the demo user and queue the example bundles and endpoints for evaluation."

    def add_arguments(self, parser):
        parser.add_argument("--only", nargs="*", default=list(EXAMPLES), choices=EXAMPLES,
                            help="example bundles to load")
        parser.add_argument("--no-endpoints", action="store_true",
                            help="skip the endpoint demo (the search agent in three modes)")
        how = parser.add_mutually_exclusive_group()
        how.add_argument("--serve", metavar="ADDR:PORT", default="",
                         help="then serve the site from this process (runserver --noreload), whose worker "
                              "thread evaluates the queue in the background")
        how.add_argument("--no-wait", action="store_true",
                         help="queue and return (served mode: the Celery workers evaluate; endpoints are skipped, "
                              "since this process serves their agent)")

    def handle(self, *args, only, no_endpoints=False, serve="", no_wait=False, **opts):
        out = self.stdout
        if settings.EKB_INPROCESS_WORKER:
            settings.EKB_BACKENDS = served_backends(out)
        user = demo_user(out)
        unsafe = probe()
        if unsafe:
            # The shipped examples are ours and trusted; uploads to the server are not, and it never
            # runs with this switch: so the examples are evaluated before it starts, the switch unset.
            out.write(f"no sandbox here ({unsafe}): evaluating the shipped examples unsandboxed first")
            os.environ[UNSAFE_ENV] = "1"
        waits = bool(unsafe) or not (serve or no_wait)
        server = None
        if not no_endpoints:
            # the agent is served by this process: it must outlive their evaluation
            if not (serve or waits):
                out.write("endpoint demo skipped: this process serves its agent and is about to return")
            elif not settings.EKB_ENDPOINT_ALLOW_LOOPBACK:
                out.write("endpoint demo skipped: its agent is served on loopback; set "
                          "EKB_ENDPOINT_ALLOW_LOOPBACK=1 (make demo does)")
            else:
                server = ChatServer([search_model()]).start()
        subs = seed(user, out, only=only, endpoint_url=server.url if server else None)
        try:
            if waits:
                wait(subs, out)
        finally:
            os.environ.pop(UNSAFE_ENV, None)
        if serve:
            serve_forever(serve, out)
        if server is not None:
            server.stop()


def served_backends(out) -> list[str]:
    """The configured backends (EKB_BACKENDS) this machine can evaluate; each one it cannot is
    named with why. In the embedded mode this process is the only worker, so it serves only
    these: an upload is never accepted for a backend nobody runs."""
    configured = list(settings.EKB_BACKENDS)
    infos = workers.describe(configured)
    kept = [i["name"] for i in infos if i["available"]]
    for i in infos:
        if i["available"]:
            out.write(f"{i['name']}: {i['device']}")
            continue
        hint = " (PoCL runs opencl on the CPU: make system installs it)" if i["name"] == BackendKind.OPENCL else ""
        out.write(f"{i['name']}: not available here ({i['reason']}); not served{hint}")
    if not kept:
        raise CommandError(f"none of the backends {configured} (EKB_BACKENDS) is available here")
    return kept


def demo_user(out):
    User = get_user_model()
    user, created = User.objects.get_or_create(username="demo")
    if created:
        user.set_password("demo-password")
        user.save()
    token, _ = Token.objects.get_or_create(user=user)
    out.write(f"demo account: demo / demo-password · API token {token.key}")
    return user


def seed(user, out, *, only=EXAMPLES, endpoint_url: str | None = None) -> list[Submission]:
    """Create the demo submissions that are missing and queue every unfinished one, in the order
    the worker takes them: the example bundles (each on all its backends), then the endpoints
    (``endpoint_url``: the search agent's chat server; None skips them). Returns at once with
    the submissions queued; the finished ones are left out."""
    queued = [s for name in only if (s := _bundle(user, name, out)) is not None]
    if endpoint_url:
        queued += [s for mode in Endpoint.Mode.values if (s := _endpoint(user, mode, endpoint_url, out)) is not None]
    return queued


def _tasks(n: int) -> str:
    return f"{n} task" + ("" if n == 1 else "s")


def _resumable(sub: Submission) -> bool:
    """An unfinished demo submission to queue again: in the embedded mode its jobs died with the
    process that queued them. A served deployment's workers still hold theirs (redelivery)."""
    return settings.EKB_INPROCESS_WORKER and sub.state in (Submission.State.QUEUED, Submission.State.RUNNING)


def _bundle(user, name: str, out) -> Submission | None:
    data = zip_dir(Path(settings.BASE_DIR) / "examples" / "bundles" / name)
    sha = hashlib.sha256(data).hexdigest()
    backends = backends_for(validate_archive(data, ".zip"), None, settings.EKB_BACKENDS)
    same = (Submission.objects.filter(owner=user, name=name, bundle_sha256=sha, kind=Submission.Kind.BUNDLE)
            .exclude(state__in=[Submission.State.FAILED, Submission.State.CANCELLED]))
    earlier = [s for s in same if sorted(s.backends) == sorted(backends)]
    sub = earlier[0] if earlier else None
    if sub is not None and sub.state == Submission.State.FINISHED:
        out.write(f"{name}: already evaluated (submission {sub.pk})")
        return None
    if sub is not None and not _resumable(sub):
        out.write(f"{name}: already {sub.state} (submission {sub.pk})")
        return sub
    if sub is None:
        # the operator's demo data: counted in nobody's daily quota
        sub = create_submission(user, SimpleUploadedFile(f"{name}.zip", data), name=name, backends=backends,
                                enqueue=False, quota=False)
    out.write(f"{name}: queued, {_tasks(sub.tasks_total - sub.tasks_done)} on {', '.join(backends)} "
              f"(submission {sub.pk})")
    enqueue_jobs(sub)
    return sub


ENDPOINT_TASKS = ["matmul/matmul@m128n512k128", "conv2d/conv2d-nchw@n1c32h28w28k32r3s1",
                  "softmax/softmax@m256n512", "reduction/sum-lastaxis@m512n1024", "activation/relu@m128n768"]
ENDPOINT_BUDGET = {"candidates": 4}


def _endpoint(user, mode: str, url: str, out) -> Submission | None:
    """The built-in search agent entered as a model endpoint in ``mode``, same tasks and budget
    in every mode, served over the chat API on loopback by this process (``url``)."""
    name = f"{NAME} ({mode})"
    earlier = (Submission.objects.filter(owner=user, name=name, kind=Submission.Kind.ENDPOINT)
               .exclude(state__in=[Submission.State.FAILED, Submission.State.CANCELLED]).first())
    if earlier is not None and earlier.state == Submission.State.FINISHED:
        out.write(f"{name}: already evaluated (submission {earlier.pk})")
        return None
    if earlier is not None and not _resumable(earlier):
        out.write(f"{name}: already {earlier.state} (submission {earlier.pk})")
        return earlier
    if earlier is not None:
        # the agent is served by this process now, on a port of its own
        Endpoint.objects.filter(submission=earlier).update(url=url)
        sub = earlier
    else:
        sub = create_endpoint_submission(
            user, url=url, model=NAME, mode=mode, budget=ENDPOINT_BUDGET, tasks=ENDPOINT_TASKS, name=name,
            enqueue=False, quota=False,
            description="The built-in search agent (no LLM) behind the OpenAI-compatible API: "
                        f"{mode} mode, {ENDPOINT_BUDGET['candidates']} measured candidates per task.")
    out.write(f"{name}: queued, {_tasks(sub.tasks_total - sub.tasks_done)} on {', '.join(sub.backends)} "
              f"(submission {sub.pk})")
    enqueue_jobs(sub)
    return sub


def wait(subs: list[Submission], out, limit_s: float = WAIT_LIMIT_S) -> None:
    """Until every one of ``subs`` has ended, a line whenever one makes progress."""
    seen: dict[int, tuple] = {}
    deadline = time.monotonic() + limit_s
    while True:
        rows = list(Submission.objects.filter(pk__in=[s.pk for s in subs]).order_by("pk"))
        for s in rows:
            now = (s.state, s.tasks_done)
            if seen.get(s.pk) != now:
                seen[s.pk] = now
                out.write(f"{s.name}: {s.state}, {s.tasks_done} / {s.tasks_total} tasks"
                          + (f" · {s.error}" if s.error else ""))
        if all(s.is_done for s in rows):
            return
        if time.monotonic() > deadline:
            raise CommandError(f"the demo submissions did not end within {limit_s:.0f} s")
        time.sleep(POLL_S)


def serve_forever(addrport: str, out) -> None:
    """The site, from this process: its worker thread evaluates what :func:`seed` queued."""
    out.write(f"Serving on http://{addrport}/ (log in as demo / demo-password); the demo evaluates in the "
              "background: watch / and /matrix/ fill in")
    try:
        call_command("runserver", addrport, use_reloader=False)
    except (KeyboardInterrupt, SystemExit):
        pass
    out.write("stopped; what was not evaluated yet resumes at the next start")
    sys.stdout.flush()
    sys.stderr.flush()
    # Not a normal exit: the interpreter would first drain the worker thread's whole queue.
    os._exit(0)
