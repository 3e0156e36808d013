"""Shared helpers for the portal tests: bundles built in memory from the example schedules, API
clients with real tokens, the Redis broker, and real ``celery worker`` processes.

Nothing here is mocked: uploads go through the evaluator's bundle loader, jobs through Redis,
results into the pytest-django PostgreSQL test database.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import zipfile
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "bundles"
SCHEMA = "edgekernelbench/bundle@1"
BACKEND = "cpu-llvm"
QUEUE = "eval.cpu-llvm"

# The portal tests rank a fixed board: the suite's first 58 public tasks (2 model graphs, 40 with a
# vendor call), served through the deployment's task selection (EKB_TASKS), so the numbers they
# work out by hand hold however the suite grows.
PORTAL_TASKS = (
    "activation/gelu-tanh@m128n768", "activation/hard-swish@n1c96h28w28", "activation/relu@n1c64h56w56",
    "activation/relu@m128n768", "activation/relu6@n1c64h56w56", "activation/relu6@n1c96h28w28",
    "activation/sigmoid@n1c64h56w56", "activation/sigmoid@m128n768",
    "batch-matmul/batch-matmul@b12m128n128k64", "batch-matmul/batch-matmul@b4m64n64k32",
    "conv1d/conv1d-ncw@n1c1w8000k32r80s16", "conv1d/conv1d-ncw@n1c32w2048k32r9s1",
    "conv2d/conv2d-nchw@n1c32h28w28k32r3s1", "conv2d/conv2d-nchw@n1c64h14w14k128r3s1",
    "conv2d/conv2d-nchw@n1c3h112w112k16r3s2", "depthwise-conv2d/depthwise-conv2d-nchw@n1c32h56w56r3s1",
    "depthwise-conv2d/depthwise-conv2d-nchw@n1c128h28w28r3s1",
    "depthwise-conv2d/depthwise-conv2d-nchw@n1c64h56w56r3s2", "elementwise/add-bias@m128n768",
    "elementwise/add-bias@m256n1024", "elementwise/mul-channel@n1c64h56w56",
    "elementwise/mul-channel@n1c256h14w14", "embedding/embedding-bag-sum@r10000d64b32l20",
    "embedding/embedding-bag-sum@r50000d16b128l8", "fused/attention@b12m128n128d64",
    "fused/attention@b4m49n49d32", "fused/conv2d-bias-relu@n1c32h28w28k64r3s1",
    "fused/conv2d-bias-relu@n1c64h14w14k64r3s1", "fused/dense-bias-gelu@m32n1024k256",
    "fused/dense-bias-gelu@m128n512k128", "conv-block/depthwise-separable-bn@n1c32h56w56k64s1p1",
    "conv-block/depthwise-separable-bn@n1c128h28w28k128s1p1", "conv-block/depthwise-separable-bn@n1c64h25w5k64s1p1",
    "fused/residual-layer-norm@m128n768", "fused/residual-layer-norm@m196n384", "gemv/gemv@m1024k1024",
    "gemv/gemv@m3072k768", "matmul/matmul@m256n256k256", "matmul/matmul@m128n512k128",
    "model/anomaly-autoencoder@b1", "model/ds-cnn-kws@n1h49w10", "norm/layer-norm@m128n768",
    "norm/layer-norm@m196n384", "norm/layer-norm@m64n256", "norm/rms-norm@m128n576",
    "norm/rms-norm@m32n2048", "pool/avg-pool2d@n1c64h56w56k2s2", "pool/global-avg-pool@n1c1024h7w7",
    "pool/global-avg-pool@n1c256h14w14", "pool/max-pool2d@n1c64h112w112k3s2",
    "pool/max-pool2d@n1c32h56w56k2s2", "reduction/max-lastaxis@m512n1024",
    "reduction/max-lastaxis@m128n2048", "reduction/sum-lastaxis@m512n1024",
    "reduction/sum-lastaxis@m128n2048", "softmax/softmax@m1536n128", "softmax/softmax@m256n512",
    "softmax/softmax@m32n1000",
)


# --------------------------------------------------------------------------- the test deployment


@pytest.fixture(scope="session", autouse=True)
def deployment():
    """The portal under test, for the whole session (autouse where a conftest imports it): the
    tasks above, the tests' held-out secret, and a var directory of its own, so uploads and
    generated secrets never land in the repository's var/.

    pytest-django loads the settings before any conftest runs, so they are overridden (Django's
    override_settings, undone at the end) rather than set through the environment; the
    environment still carries the values to the `celery worker`s and other subprocesses."""
    from django.conf import settings
    from django.test import override_settings

    var = Path(tempfile.mkdtemp(prefix="ekb-test-var-"))
    env = {"EKB_TASKS": ",".join(PORTAL_TASKS), "EKB_VAR_DIR": str(var)}
    secrets = var / "secrets"
    override = override_settings(
        MEDIA_ROOT=var / "media", STATIC_ROOT=var / "static", EKB_TASKS=env["EKB_TASKS"],
        EKB_SECRETS_DIR=secrets, EKB_VERIFY_SECRET_FILE=secrets / "verify-secret",
        EKB_HELDOUT_SECRET_FILE=secrets / "heldout-secret",
        # the tests' own secret, set in the environment by tests/conftest.py
        EKB_HELDOUT_SECRET=os.environ.get("EKB_HELDOUT_SECRET", settings.EKB_HELDOUT_SECRET))
    with pytest.MonkeyPatch.context() as mp:
        for name, value in env.items():
            mp.setenv(name, value)
        override.enable()
        try:
            yield var
        finally:
            override.disable()
            shutil.rmtree(var, ignore_errors=True)


# --------------------------------------------------------------------------- bundles


@dataclass(frozen=True)
class Spec:
    """One real bundle entry taken from the example bundles."""

    workload: str
    format: str
    source: str  # path under examples/bundles/

    @property
    def member(self) -> str:
        return "kernels/" + Path(self.source).name

    def entry(self) -> dict:
        return {"workload": self.workload, "backend": BACKEND, "format": self.format, "file": self.member}


# A hand-tuned schedule that beats tvm-default by a wide margin (≈ 6×).
MATMUL_HAND_TUNED = Spec("matmul/matmul@m128n512k128", "layered-trace",
                         "hand-tuned/schedules/matmul__matmul--m128n512k128.json")
# The tvm-default rule set itself for a small activation: correct, speedup ≈ 1.
RELU_DEFAULT = Spec("activation/relu@m128n768", "layered-trace",
                    "tvm-default/schedules/activation__relu--m128n768.json")
# A TVMScript kernel that computes only half of its output: wrong_result.
RELU_OFF_BY_HALF = Spec("activation/relu@n1c64h56w56", "tvmscript", "broken/kernels/off-by-half.py")
# More hand-tuned schedules late in the suite's order (the redelivery test needs work left after
# the first real result).
SUM_HAND_TUNED = Spec("reduction/sum-lastaxis@m512n1024", "layered-trace",
                      "hand-tuned/schedules/reduction__sum-lastaxis--m512n1024.json")
SOFTMAX_HAND_TUNED = Spec("softmax/softmax@m256n512", "layered-trace",
                          "hand-tuned/schedules/softmax__softmax--m256n512.json")


def zip_bytes(members: dict[str, bytes | str], *, symlinks: dict[str, str] | None = None,
              compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A .zip holding ``members`` (path → content) and ``symlinks`` (path → link target)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as z:
        for name, data in members.items():
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = compression
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            z.writestr(info, data)
        for name, target in (symlinks or {}).items():
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.create_system = 3  # Unix: external_attr holds st_mode
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            z.writestr(info, target)
    return buf.getvalue()


def manifest(entries: list[dict], name: str = "test-bundle", **extra) -> str:
    return json.dumps({"schema": SCHEMA, "name": name, "entries": entries, **extra}, indent=1)


def bundle_zip(*specs: Spec, name: str = "test-bundle", description: str = "") -> bytes:
    """A valid bundle of real entries from the example bundles."""
    members: dict[str, bytes | str] = {
        "manifest.json": manifest([s.entry() for s in specs], name,
                                  **({"description": description} if description else {}))}
    for s in specs:
        members[s.member] = (EXAMPLES / s.source).read_bytes()
    return zip_bytes(members)


def upload(data: bytes, filename: str = "bundle.zip"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(filename, data, content_type="application/zip")


# --------------------------------------------------------------------------- storage


def media_files() -> list[Path]:
    """Every file under MEDIA_ROOT (where accepted bundles are stored)."""
    from django.conf import settings

    root = Path(settings.MEDIA_ROOT)
    return sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []


def upload_temp_files() -> set[str]:
    """The portal's own spooled copies of uploads (``ekb-upload-*``) in the temp directory."""
    return {p.name for p in Path(tempfile.gettempdir()).glob("ekb-upload-*")}


# --------------------------------------------------------------------------- users and clients


def make_user(username: str, password: str | None = None):
    """A user; without a password (unusable: no slow hashing) unless one is given."""
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username=username, password=password)


def token_client(user):
    """A DRF client that authenticates with the user's real API token (``Authorization: Token``)."""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    token, _ = Token.objects.get_or_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def isolated_media(settings, tmp_path):
    """A MEDIA_ROOT of this test's own (``<tmp>/var/media``), so "nothing stored" is checkable
    and uploads never outlive the test. Workers started by the test get the same EKB_VAR_DIR."""
    settings.MEDIA_ROOT = tmp_path / "var" / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def fresh_throttle_cache():
    """The API's upload throttle counts in the default cache; each test starts from zero."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def chat_server():
    """``chat_server(tasks, default=None, key="")``: a scripted chat server on loopback
    (:class:`~evaluator.agents.server.ScriptedModel` transcripts by workload glob, ``default``
    for any other prompt), requiring ``key``; every one started is stopped after the test."""
    from evaluator.agents.server import ChatServer, ScriptedModel

    servers = []

    def start(tasks: dict | None = None, default: list | None = None, key: str = ""):
        s = ChatServer([ScriptedModel({"tasks": tasks or {}, "default": default or []})], api_key=key).start()
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.stop()


@pytest.fixture
def loopback(settings):
    """Endpoints on loopback allowed (the test's own chat servers)."""
    settings.EKB_ENDPOINT_ALLOW_LOOPBACK = True
    return settings


# --------------------------------------------------------------------------- the broker


def broker_client():
    import redis
    from django.conf import settings

    if not settings.CELERY_BROKER_URL.startswith("redis://"):
        pytest.skip("needs CELERY_BROKER_URL=redis://… (the Makefile's test target sets it)")
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    db = client.connection_pool.connection_kwargs.get("db", 0)
    if int(db) == 0:
        pytest.skip("refusing to flush Redis database 0; point CELERY_BROKER_URL at a test database (/15)")
    return client


@pytest.fixture
def broker():
    """The real Redis broker, emptied before and after the test so no job leaks between tests."""
    client = broker_client()
    client.flushdb()
    yield client
    client.flushdb()


def queued_jobs(client, queue: str = QUEUE) -> list[tuple[str, list]]:
    """(task name, args) of every message waiting on ``queue``."""
    import base64

    out = []
    for raw in client.lrange(queue, 0, -1):
        msg = json.loads(raw)
        body = json.loads(base64.b64decode(msg["body"]))
        out.append((msg["headers"]["task"], body[0]))
    return out


# --------------------------------------------------------------------------- real workers


def _descendants(pid: int) -> list[int]:
    """Every live descendant of ``pid``, children before grandchildren."""
    try:
        return [c.pid for c in psutil.Process(pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


class Worker:
    """One real ``celery worker`` process group consuming the test database's jobs."""

    def __init__(self, log_path: Path, env: dict[str, str], pool: str = "prefork", queues: str = QUEUE):
        self.log_path = log_path
        self._log = open(log_path, "ab")
        self.proc = subprocess.Popen(
            [str(Path(sys.executable).with_name("celery")), "-A", "config", "worker", "-Q", queues,
             "--concurrency", "1", "--pool", pool, "-l", "info", "-n", f"test-{uuid.uuid4().hex[:8]}@%h",
             "--without-mingle", "--without-gossip", "--without-heartbeat"],
            cwd=REPO, env=env, stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True,
        )

    def log(self, tail: int = 6000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-tail:]
        except OSError:
            return ""

    def wait_logged(self, *texts: str, timeout: float = 60, tail: int = 1 << 22) -> str:
        """The log once every text is in it: Celery writes a task's "succeeded" line after the
        task's last database write, so a test that saw the result may be ahead of the log."""
        wait_for(lambda: all(t in self.log(tail) for t in texts), timeout=timeout,
                 what=f"{', '.join(map(repr, texts))} in the worker's log", logs=lambda: self.log())
        return self.log(tail)

    def wait_ready(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"celery worker exited with {self.proc.returncode} before it was ready:\n{self.log()}")
            if " ready." in self.log(tail=1 << 20):
                return
            time.sleep(0.2)
        pytest.fail(f"celery worker not ready after {timeout:.0f} s:\n{self.log()}")

    def kill(self) -> None:
        """SIGKILL the worker's process group and every evaluator child it started (those run
        in sessions of their own, so the group kill alone would orphan them)."""
        if self.proc.poll() is None:
            stray = _descendants(self.proc.pid)
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            for pid in stray:
                for kill in (lambda p: os.killpg(p, signal.SIGKILL), lambda p: os.kill(p, signal.SIGKILL)):
                    try:
                        kill(pid)
                    except (ProcessLookupError, PermissionError):
                        pass
        self.proc.wait(timeout=30)
        self._log.close()


def worker_env(**extra: str) -> dict[str, str]:
    """The environment of a worker: this process's, with DATABASE_URL pointing at the test
    database pytest-django created."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.postgresql":
        pytest.skip("the worker tests need PostgreSQL (DATABASE_URL=postgres://…)")
    auth = db.get("USER") or ""
    if db.get("PASSWORD"):
        auth += ":" + db["PASSWORD"]
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    env = dict(os.environ)
    env.update({
        "DATABASE_URL": f"postgres://{auth + '@' if auth else ''}{host}:{port}/{db['NAME']}",
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "DJANGO_SECRET_KEY": settings.SECRET_KEY,
        "EKB_VAR_DIR": str(Path(settings.MEDIA_ROOT).parent),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONUNBUFFERED": "1",
    })
    env.update(extra)
    return env


@pytest.fixture
def workers(transactional_db, broker, tmp_path):
    """Start real workers with ``workers.start(**env)``; all are killed at teardown (before the
    test database is flushed). The broker is emptied first."""

    class Pool:
        def __init__(self):
            self.started: list[Worker] = []

        def start(self, queues: str = QUEUE, **env: str) -> Worker:
            w = Worker(tmp_path / f"worker-{len(self.started) + 1}.log", worker_env(**env), queues=queues)
            self.started.append(w)
            w.wait_ready()
            return w

        def logs(self) -> str:
            return "\n".join(f"--- {w.log_path.name} ---\n{w.log()}" for w in self.started)

    pool = Pool()
    yield pool
    for w in pool.started:
        w.kill()


def db_thread(fn) -> threading.Thread:
    """``fn`` in a started thread of its own, whose database connection (a session of its own, as
    another web process's) is closed when it ends."""
    from django.db import connection

    def run():
        try:
            fn()
        finally:
            connection.close()
    thread = threading.Thread(target=run)
    thread.start()
    return thread


def wait_for(predicate, *, timeout: float, what: str, logs=lambda: "", interval: float = 0.25):
    """Poll ``predicate`` until it returns a truthy value; fail with ``logs()`` on timeout."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}\n{logs()}")
        time.sleep(interval)


# --------------------------------------------------------------------------- leaderboard data


def add_result(sub, workload, status: str, speedup: float | None = None, *, vendor: float | None = None,
               created_at=None, backend: str = BACKEND, track: str = "public"):
    """One stored Result as the evaluation would write it (the record is the TaskResult JSON
    that the ranking reads)."""
    from django.utils import timezone

    from portal.models import Result

    spd = {} if speedup is None else {"tvm-default": speedup, **({"vendor": vendor} if vendor else {})}
    record = {"workload": workload.id, "backend": backend, "status": status, "reason": "",
              "speedup": spd, "level": workload.level, "family": workload.family,
              "domains": list(workload.domains), "hidden": workload.hidden}
    return Result.objects.create(
        submission=sub, workload=workload.id, backend=backend, status=status, level=workload.level,
        domains=list(workload.domains), hidden=workload.hidden, speedup_tvm_default=speedup,
        speedup_vendor=vendor, time_s=1e-3 if status == "correct" else None, record=record,
        created_at=created_at or timezone.now(), track=track)


def served_tasks() -> list:
    """The public tasks the portal under test serves (settings.EKB_TASKS, see conftest)."""
    from django.conf import settings

    from evaluator import suite

    return suite.served(settings.EKB_TASKS)


def make_submission(owner, name: str, *, state: str = "finished", public: bool = True,
                    backends: tuple[str, ...] = (BACKEND,), created_at=None):
    from django.utils import timezone

    from portal.models import Submission

    return Submission.objects.create(owner=owner, name=name, state=state, public=public, backends=list(backends),
                                     tasks_total=len(served_tasks()) * len(backends),
                                     created_at=created_at or timezone.now())


@dataclass
class Board:
    """What :func:`seed_leaderboard` stored, and the per-task outcome of each ranked row."""

    subs: dict
    outcomes: dict  # row name → {workload id: (correct, speedup vs tvm-default)}; absent = missing
    n_beta_correct: int


def seed_leaderboard() -> Board:
    """Five public finished submissions' worth of known results, plus rows that must never rank.

    * ``alpha``: every public task correct at 1.25× (vendor timed: vendor is 2× tvm-default);
    * ``beta``: the first 29 tasks correct at 2×, three wrong results that carry a speedup (must
      not count), the rest missing, and a result for a hidden workload (must not count);
    * ``gamma``: every task correct at 0.9×, with older vendor timings (vendor 4×) that the
      vendor row must ignore for alpha's newer ones;
    * never ranked: a private submission, a running one, one on another backend.
    """
    from datetime import timedelta

    from django.utils import timezone

    from evaluator import suite

    now = timezone.now()
    tasks = served_tasks()
    hidden = next(w for w in suite.workloads(include_hidden=True) if w.hidden)
    owners = {u: make_user(u) for u in ("alice", "bob", "carol", "dave", "erin", "frank")}

    subs = {
        "alpha": make_submission(owners["alice"], "alpha", created_at=now - timedelta(hours=1)),
        "beta": make_submission(owners["bob"], "beta", created_at=now - timedelta(hours=2)),
        "gamma": make_submission(owners["carol"], "gamma", created_at=now - timedelta(days=2)),
        "private": make_submission(owners["dave"], "private", public=False),
        "running": make_submission(owners["erin"], "running", state="running"),
        "elsewhere": make_submission(owners["frank"], "elsewhere", backends=("opencl",)),
    }
    outcomes: dict[str, dict] = {"alpha": {}, "beta": {}, "gamma": {}}
    for w in tasks:
        add_result(subs["alpha"], w, "correct", 1.25, vendor=0.625 if w.has_vendor else None,
                   created_at=now - timedelta(minutes=30))
        outcomes["alpha"][w.id] = (True, 1.25)
        add_result(subs["gamma"], w, "correct", 0.9, vendor=0.225 if w.has_vendor else None,
                   created_at=now - timedelta(days=1))
        outcomes["gamma"][w.id] = (True, 0.9)
        for other in ("private", "running"):
            add_result(subs[other], w, "correct", 3.0)
        add_result(subs["elsewhere"], w, "correct", 3.0, backend="opencl")
    n_beta = 29
    for w in tasks[:n_beta]:
        add_result(subs["beta"], w, "correct", 2.0)
        outcomes["beta"][w.id] = (True, 2.0)
    for w in tasks[n_beta:n_beta + 3]:
        add_result(subs["beta"], w, "wrong_result", 3.0)
        outcomes["beta"][w.id] = (False, 3.0)
    add_result(subs["beta"], hidden, "correct", 5.0)
    outcomes["tvm-default"] = {w.id: (True, 1.0) for w in tasks}
    outcomes["vendor"] = {w.id: (True, 2.0) for w in tasks if w.has_vendor}
    # Results were stored directly, not through the evaluation: build the precomputed boards.
    from leaderboard.aggregates import rebuild

    rebuild()
    return Board(subs, outcomes, n_beta)


def fast_and_slow_board(backend: str, device: str) -> None:
    """Two submissions on ``backend``'s board for ``device``: one fast (8x) but wrong on half the
    tasks, one slow (0.25x) and always right — what tells a board ranked by speed from one
    ranked by correctness (an emulated board's)."""
    from leaderboard.aggregates import rebuild
    from portal.models import Result

    fast = make_submission(make_user("fast"), "fast-half-wrong", backends=(backend,))
    slow = make_submission(make_user("slow"), "slow-all-right", backends=(backend,))
    for i, w in enumerate(served_tasks()[:4]):
        add_result(fast, w, "correct" if i % 2 else "wrong_result", 8.0, backend=backend)
        add_result(slow, w, "correct", 0.25, backend=backend)
    Result.objects.filter(backend=backend).update(device=device)
    rebuild()
