"""Soak: N users submit M bundles each through the REST API at a set rate, against a gunicorn
portal, PostgreSQL, Redis and two real ``celery worker`` processes, optionally with one fault
injected mid-run; then checks that every submission reached a final state, that no result is
duplicated or lost, and that the boards equal a full rebuild from the results.

    .venv/bin/python bench/soak.py                       # the clean run (20 users x 5 bundles)
    .venv/bin/python bench/soak.py --fault redis-restart # one fault, its own run
    .venv/bin/python bench/soak.py --all-faults          # the clean run, then every fault in turn

Everything runs on this machine, in a temporary directory: a private redis-server (its own port,
append-only file on, as a deployment's broker must be), a database of its own (``ekb_soak``,
created and dropped here) on the PostgreSQL of ``--pg-url``, or for ``pg-restart`` a private
PostgreSQL cluster (initdb, its own port), which is the one restarted. The shared services are
never restarted or faulted. Results: ``bench/results/soak-<date>[-<fault>].json`` and ``.md``.

Bounded: ``--users`` x ``--per-user`` submissions (at most 400), ``--rate`` per second, and the
run gives up waiting for final states after ``--timeout`` seconds (the figures then say so).
"""

from __future__ import annotations

import argparse
import glob
import io
import json
import os
import platform
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import zipfile
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results"
EXAMPLES = REPO / "examples" / "bundles"
FAULTS = ("redis-restart", "pg-terminate", "pg-restart", "worker-kill", "scratch-full", "hang", "portal-restart")
BACKEND = "cpu-llvm"
QUEUE = "eval.cpu-llvm"
SCHEMA = "edgekernelbench/bundle@1"
# The served tasks: few and small, so a clean run takes minutes. A task without an entry is
# "missing" at once; gelu-tanh is the hang fault's.
RELU, RELU_NCHW, GELU = "activation/relu@m128n768", "activation/relu@n1c64h56w56", "activation/gelu-tanh@m128n768"
TASKS = (RELU, RELU_NCHW, GELU)
KINDS = ("valid", "broken", "hostile-run", "hostile-upload", "oversized")
MAX_SUBMISSIONS = 400
TERMINAL = ("finished", "failed", "cancelled")
# The soak's clocks: short, so the reaper and redelivery act within a run (see docs/operations.md)
VISIBILITY_TIMEOUT_S = 90  # longer than any soak job (the hang's step is cut at the 20 s check limit)
REAP_AFTER_S = 45
REAP_EVERY_S = 15


# --------------------------------------------------------------------------- bundles

def _zip(members: dict[str, bytes | str], symlinks: dict[str, str] | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o100644 << 16
            z.writestr(info, data)
        for name, target in (symlinks or {}).items():
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.create_system = 3
            info.external_attr = 0o120777 << 16
            z.writestr(info, target)
    return buf.getvalue()


def _manifest(name: str, entries: list[dict]) -> str:
    return json.dumps({"schema": SCHEMA, "name": name, "entries": entries})


def _entry(workload: str, fmt: str, file: str, **extra) -> dict:
    return {"workload": workload, "backend": BACKEND, "format": fmt, "file": file, **extra}


FORK_BOMB = """#include <unistd.h>
void kernel(const float *X, float *T_relu) {
    for (;;) fork();
}
"""


def bundle(kind: str, name: str) -> bytes:
    """One bundle of ``kind``: valid (tvm-default's own schedule), broken (a wrong result),
    hostile-run (a fork bomb: accepted, stopped by the sandbox), hostile-upload (a symlink
    member: refused at upload), oversized (a member past the 2 MiB a file may hold: refused),
    hang (a step that runs past every limit)."""
    if kind == "valid":
        src = "tvm-default/schedules/activation__relu--m128n768.json"
        return _zip({"manifest.json": _manifest(name, [_entry(RELU, "layered-trace", "k/relu.json")]),
                     "k/relu.json": (EXAMPLES / src).read_bytes()})
    if kind == "broken":
        return _zip({"manifest.json": _manifest(name, [_entry(RELU_NCHW, "tvmscript", "k/half.py")]),
                     "k/half.py": (EXAMPLES / "broken/kernels/off-by-half.py").read_bytes()})
    if kind == "hostile-run":
        launch = {"entry": "kernel", "args": ["X", "T_relu"]}
        return _zip({"manifest.json": _manifest(name, [_entry(RELU, "c-source", "k/bomb.c", launch=launch)]),
                     "k/bomb.c": FORK_BOMB})
    if kind == "hostile-upload":
        return _zip({"manifest.json": _manifest(name, [_entry(RELU, "tvmscript", "k/link.py")])},
                    symlinks={"k/link.py": "/etc/passwd"})
    if kind == "oversized":
        src = "tvm-default/schedules/activation__relu--m128n768.json"
        return _zip({"manifest.json": _manifest(name, [_entry(RELU, "layered-trace", "k/relu.json")]),
                     "k/relu.json": (EXAMPLES / src).read_bytes(), "k/padding.bin": os.urandom((2 << 20) + 4096)})
    if kind == "hang":
        return _zip({"manifest.json": _manifest(name, [_entry(GELU, "tvmscript", "k/spin.py")]),
                     "k/spin.py": (EXAMPLES / "broken/kernels/never-ends.py").read_bytes()})
    raise ValueError(f"unknown bundle kind {kind!r}; one of {KINDS + ('hang',)}")


# --------------------------------------------------------------------------- services

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {timeout:.0f} s")


def kill_tree(proc: subprocess.Popen, sig: int = signal.SIGKILL) -> None:
    """Signal a process started in a session of its own, its group and every descendant (the
    evaluator's steps run in sessions of their own)."""
    if proc.poll() is not None:
        return
    stray = _descendants(proc.pid)
    for pid in [proc.pid] + stray:
        for send in (os.killpg, os.kill):
            try:
                send(pid, sig)
            except (ProcessLookupError, PermissionError):
                pass
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


def _descendants(pid: int) -> list[int]:
    """Every live descendant of ``pid``, children before grandchildren."""
    try:
        return [c.pid for c in psutil.Process(pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


class Redis:
    """A private redis-server with its append-only file on: a restart keeps the queues."""

    def __init__(self, root: Path):
        self.dir = root / "redis"
        self.dir.mkdir()
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        log = open(self.dir / "redis.log", "ab")
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.dir),
             "--appendonly", "yes", "--appendfsync", "always", "--save", ""],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        wait_port(self.port)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # a clean shutdown, as a service manager does
            self.proc.wait(timeout=30)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/11"


class PrivatePostgres:
    """A private PostgreSQL cluster in the run's directory, on a port of its own; as root it
    runs as the postgres user."""

    def __init__(self, root: Path):
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[-3]))
        if not bins:
            raise RuntimeError("no PostgreSQL server binaries (initdb) under /usr/lib/postgresql/*/bin")
        self.bin = Path(bins[-1]).parent
        self.dir = root / "pg"
        self.dir.mkdir()
        self.port = free_port()
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run(["initdb", "-D", str(self.dir / "data"), "-A", "trust", "-U", "postgres", "--no-sync"])
        self.start()

    def _run(self, argv: list[str]) -> None:
        subprocess.run(self.as_user + [str(self.bin / argv[0])] + argv[1:], check=True, capture_output=True,
                       cwd=self.dir)

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(["pg_ctl", "-D", str(self.dir / "data"), "-o", opts, "-l", str(self.dir / "pg.log"), "-w", "start"])

    def stop(self) -> None:
        self._run(["pg_ctl", "-D", str(self.dir / "data"), "-m", "fast", "-w", "stop"])

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"


def admin(url: str):
    import psycopg

    return psycopg.connect(url, autocommit=True)


def db_url(server_url: str, name: str) -> str:
    return server_url.rsplit("/", 1)[0] + "/" + name


# --------------------------------------------------------------------------- the run

@dataclass
class Sent:
    user: str
    kind: str
    at: float  # seconds since the run's start
    status: int = 0
    submission: int | None = None
    reason: str = ""
    attempts: int = 0
    errors: list[str] = field(default_factory=list)
    # sent with every attempt: a retry whose first attempt was stored gets that submission back
    key: str = field(default_factory=lambda: f"soak-{uuid.uuid4().hex}")
    replayed: bool = False


@dataclass
class Sample:
    t: float
    queued: int | None  # jobs waiting on the queue
    held: int | None  # jobs workers hold (unacknowledged)
    states: dict


def percentile(xs: list[float], p: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, round(p / 100 * (len(xs) - 1))))
    return round(xs[k], 2)


class Soak:
    def __init__(self, args):
        self.args = args
        self.fault = args.fault
        self.root = Path(tempfile.mkdtemp(prefix="ekb-soak-"))
        self.root.chmod(0o755)  # a private PostgreSQL, run as its own user, keeps its data below
        self.procs: list[subprocess.Popen] = []
        self.workers: list[subprocess.Popen] = []
        self.gunicorn: subprocess.Popen | None = None
        self.events: list[str] = []
        self.t0 = time.monotonic()
        self.sent: list[Sent] = []
        self.samples: list[Sample] = []
        self.stop_monitor = threading.Event()
        self.reaped: list[str] = []
        self.scratch_mounted = False
        self.fault_thread: threading.Thread | None = None

    def log(self, msg: str) -> None:
        line = f"[{time.monotonic() - self.t0:7.1f}s] {msg}"
        self.events.append(line)
        print(line, flush=True)

    # ---------------------------------------------------------------- set-up
    def setup(self) -> None:
        a = self.args
        self.redis = Redis(self.root)
        self.pg = PrivatePostgres(self.root) if self.fault == "pg-restart" else None
        server = self.pg.url if self.pg else a.pg_url
        self.db_name = a.db_name
        with admin(server) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
            c.execute(f'CREATE DATABASE "{self.db_name}"')
        self.server_url = server
        self.database_url = db_url(server, self.db_name)
        var = self.root / "var"
        scratch = self.root / "scratch"
        scratch.mkdir()
        if self.fault == "scratch-full":
            # a small tmpfs, few inodes: the fault fills both (a step's own scratch is a tmpfs
            # mounted in a new directory here, so a full directory count stops it too)
            self.scratch_mounted = subprocess.run(
                ["mount", "-t", "tmpfs", "-o", "size=48m,nr_inodes=4096,mode=0777", "tmpfs", str(scratch)],
                capture_output=True).returncode == 0
            if not self.scratch_mounted:
                raise RuntimeError("scratch-full needs to mount a small tmpfs (run as root)")
        self.scratch = scratch
        self.env = {**os.environ,
                    "DATABASE_URL": self.database_url, "CELERY_BROKER_URL": self.redis.url,
                    "DJANGO_SECRET_KEY": "soak-secret-key", "DJANGO_SETTINGS_MODULE": "config.settings",
                    "EKB_VAR_DIR": str(var), "EKB_TASKS": ",".join(TASKS), "EKB_CACHE_DIR": str(a.cache_dir),
                    "EKB_HELDOUT_SECRET": "soak-heldout", "EKB_VERIFY_SECRET": "soak-verify",
                    "EKB_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT_S), "EKB_REAP_AFTER_S": str(REAP_AFTER_S),
                    "EKB_SCRATCH_ROOT": str(scratch), "PYTHONUNBUFFERED": "1"}
        os.environ.update({k: v for k, v in self.env.items() if k not in ("PYTHONUNBUFFERED",)})
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=REPO, env=self.env, check=True,
                       capture_output=True)
        sys.path.insert(0, str(REPO))
        import django

        django.setup()
        import config.celery  # noqa: F401 - the app the reaper's re-queues are sent through

        self.port = free_port()
        self.start_portal()
        for _ in range(2):
            self.start_worker()
        self.log(f"portal on :{self.port}, redis on :{self.redis.port}, database {self.database_url}, "
                 f"{len(self.workers)} workers")

    def start_portal(self) -> None:
        log = open(self.root / "gunicorn.log", "ab")
        self.gunicorn = subprocess.Popen(
            [str(Path(sys.executable).with_name("gunicorn")), "config.wsgi", "-w", "2", "-b",
             f"127.0.0.1:{self.port}", "--timeout", "60"],
            cwd=REPO, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self.procs.append(self.gunicorn)
        wait_port(self.port, 60)

    def start_worker(self) -> subprocess.Popen:
        n = len(self.workers) + 1
        logf = self.root / f"worker-{n}.log"
        p = subprocess.Popen([sys.executable, "manage.py", "run_worker", "--backends", BACKEND,
                              "--hostname", f"soak-{n}@%h"],
                             cwd=REPO, env=self.env, stdout=open(logf, "ab"), stderr=subprocess.STDOUT,
                             start_new_session=True)
        self.workers.append(p)
        self.procs.append(p)
        deadline = time.monotonic() + 120
        while " ready." not in logf.read_text(errors="replace"):
            if p.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"worker {n} did not start:\n{logf.read_text(errors='replace')[-3000:]}")
            time.sleep(0.3)
        return p

    def make_users(self) -> dict[str, str]:
        from django.contrib.auth import get_user_model
        from rest_framework.authtoken.models import Token

        users = {}
        for i in range(self.args.users + (1 if self.fault == "hang" else 0)):
            u = get_user_model().objects.create_user(username=f"soak{i:03d}")
            users[u.username] = Token.objects.create(user=u).key
        return users

    # ---------------------------------------------------------------- traffic
    def submit(self, s: Sent, token: str, data: bytes) -> None:
        import requests

        url = f"http://127.0.0.1:{self.port}/api/v1/submissions/"
        for attempt in range(1, 9):
            s.attempts = attempt
            try:
                r = requests.post(url, headers={"Authorization": f"Token {token}", "Idempotency-Key": s.key},
                                  files={"bundle": (f"{s.kind}.zip", data, "application/zip")},
                                  data={"name": f"{s.user}-{s.kind}"}, timeout=60)
            except requests.RequestException as e:
                s.errors.append(type(e).__name__)
                time.sleep(min(8, attempt))
                continue
            s.status = r.status_code
            if r.status_code in (200, 201):  # 200: a retry answered with the first attempt's submission
                s.submission, s.replayed = r.json()["id"], r.status_code == 200
                return
            if r.status_code >= 500 or r.status_code == 429:
                s.errors.append(f"HTTP {r.status_code}")
                time.sleep(min(8, attempt))
                continue
            try:
                body = r.json()
                msg = body.get("bundle", body) if isinstance(body, dict) else body
            except ValueError:
                msg = r.text
            s.reason = (msg[0] if isinstance(msg, list) and msg else str(msg))[:160]
            return

    def traffic(self, users: dict[str, str]) -> None:
        a = self.args
        rng = random.Random(a.seed)
        per_user = {}
        for u in list(users)[:a.users]:
            kinds = [KINDS[i % len(KINDS)] for i in range(a.per_user)]
            rng.shuffle(kinds)
            per_user[u] = kinds
        # interleave the users: a burst from everyone, not one user after another
        plan = [(u, per_user[u][i]) for i in range(a.per_user) for u in per_user]
        payloads = {k: bundle(k, f"soak-{k}") for k in KINDS}
        threads = []
        start = time.monotonic()
        fault_at = len(plan) // 2
        for i, (u, k) in enumerate(plan):
            time.sleep(max(0.0, start + i / a.rate - time.monotonic()))
            s = Sent(u, k, time.monotonic() - self.t0)
            self.sent.append(s)
            t = threading.Thread(target=self.submit, args=(s, users[u], payloads[k]), daemon=True)
            t.start()
            threads.append(t)
            if self.fault and i == fault_at:
                self.fault_thread = threading.Thread(target=self.inject, args=(users,), daemon=True)
                self.fault_thread.start()
        for t in threads:
            t.join(timeout=600)
        if self.fault_thread is not None:  # a restart or the hang's upload may still be under way
            self.fault_thread.join(timeout=180)

    # ---------------------------------------------------------------- faults
    def held(self) -> int:
        import redis

        try:
            return redis.Redis.from_url(self.redis.url).hlen("unacked")
        except redis.RedisError:
            return 0

    def left_queue(self) -> int:
        """Submissions no longer queued (a worker took their job)."""
        from django.db import close_old_connections

        from portal.models import Submission

        close_old_connections()
        return Submission.objects.exclude(state=Submission.State.QUEUED).count()

    def inject(self, users: dict[str, str]) -> None:
        # mid-evaluation: wait (a bounded while) until a worker holds a job
        deadline = time.monotonic() + 60
        while self.held() == 0 and time.monotonic() < deadline:
            time.sleep(0.2)
        f = self.fault
        self.log(f"fault {f}: injecting (jobs held by workers: {self.held()})")
        if f == "redis-restart":
            self.redis.stop()
            time.sleep(3)
            self.redis.start()
        elif f == "pg-terminate":
            with admin(self.server_url) as c:
                n = c.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                              "WHERE datname = %s AND pid <> pg_backend_pid()", (self.db_name,)).fetchone()[0]
            self.log(f"fault pg-terminate: {n} connections terminated")
        elif f == "pg-restart":
            self.pg.stop()
            time.sleep(3)
            self.pg.start()
        elif f == "worker-kill":
            kill_tree(self.workers[0])
            self.log("fault worker-kill: worker 1 killed (SIGKILL); starting worker 3")
            self.start_worker()
        elif f == "scratch-full":
            filled = self.fill_scratch()
            # held until two more submissions have left the queue: their jobs started sessions
            # (each makes its scratch then) while the root was full
            before = self.left_queue()
            deadline = time.monotonic() + 120
            while self.left_queue() < before + 2 and time.monotonic() < deadline:
                time.sleep(0.5)
            self.log(f"fault scratch-full: scratch filled ({filled}) while {self.left_queue() - before} "
                     "submissions started; freed")
            shutil.rmtree(self.scratch / "filler", ignore_errors=True)
        elif f == "hang":
            user = list(users)[-1]
            s = Sent(user, "hang", time.monotonic() - self.t0)
            self.sent.append(s)
            self.submit(s, users[user], bundle("hang", "soak-hang"))
            self.hang_id = s.submission
        elif f == "portal-restart":
            kill_tree(self.gunicorn)
            self.log("fault portal-restart: gunicorn killed (SIGKILL); restarting")
            time.sleep(2)
            self.start_portal()
        self.log(f"fault {f}: done")

    def fill_scratch(self) -> str:
        d = self.scratch / "filler"
        d.mkdir(exist_ok=True)
        blocks = files = 0
        try:
            with open(d / "blocks", "wb") as f:
                while True:
                    f.write(b"\0" * (1 << 20))
                    f.flush()
                    blocks += 1
        except OSError:
            pass
        try:
            while True:
                (d / f"f{files}").touch()
                files += 1
        except OSError:
            pass
        return f"{blocks} MiB and {files} inodes"

    # ---------------------------------------------------------------- monitor and reaper
    def monitor(self) -> None:
        import redis
        from django.db import close_old_connections, connection
        from django.db.models import Count

        from portal import reaper
        from portal.models import Submission

        last_reap = time.monotonic()
        while not self.stop_monitor.wait(2):
            q = h = None
            try:
                rc = redis.Redis.from_url(self.redis.url, socket_timeout=2)
                q, h = rc.llen(QUEUE), rc.hlen("unacked")
            except redis.RedisError:
                pass
            states = {}
            try:
                close_old_connections()
                states = dict(Submission.objects.values_list("state").annotate(n=Count("id")).order_by())
                if time.monotonic() - last_reap > REAP_EVERY_S:  # what cron runs in a deployment
                    last_reap = time.monotonic()
                    rep = reaper.reap()
                    for r in rep.reaped:
                        self.reaped.append(f"{r.submission_id}: {r.action} ({r.detail})")
                        self.log(f"reaper: submission {r.submission_id} {r.action}: {r.detail}")
            except Exception as e:  # noqa: BLE001 - a database fault mid-sample: the next one retries
                self.log(f"monitor: {type(e).__name__}: {str(e)[:120]}")
                connection.close()
            self.samples.append(Sample(round(time.monotonic() - self.t0, 1), q, h, states))

    def wait_final(self) -> bool:
        from django.db import close_old_connections

        from portal.models import Submission

        deadline = time.monotonic() + self.args.timeout
        while time.monotonic() < deadline:
            try:
                close_old_connections()
                if not Submission.objects.exclude(state__in=TERMINAL).exists():
                    return True
            except Exception:  # noqa: BLE001 - retried
                pass
            time.sleep(2)
        return False

    # ---------------------------------------------------------------- checks
    def check(self, all_final: bool) -> dict:
        from django.db import connection
        from django.db.models import Count, Min

        from leaderboard import aggregates
        from leaderboard.models import BaselineSample, BoardEntry
        from portal import endpoints
        from portal.models import Result, Submission

        connection.close()
        subs = list(Submission.objects.all())
        by_id = {s.pk: s for s in subs}
        accepted = [s for s in self.sent if s.submission is not None]
        final = [s for s in subs if s.state in TERMINAL]
        dupes = list(Result.objects.values("submission", "workload", "backend", "track")
                     .annotate(n=Count("id")).filter(n__gt=1))
        # a submission no upload was answered with: one upload stored twice (a retry after a lost answer)
        answered = {s.submission for s in accepted}
        dupes += [{"submission": sub.pk, "made_twice": True} for sub in subs if sub.pk not in answered]
        lost = []
        for s in accepted:
            if s.submission not in by_id:
                lost.append(f"{s.submission}: accepted ({s.user}, {s.kind}) but not stored")
        for sub in subs:
            if sub.state == "finished":
                expected = {(w.id, b) for w in endpoints.expected_tasks(sub) for b in sub.backends}
                have = set(Result.objects.filter(submission=sub, track="public").values_list("workload", "backend"))
                if not expected <= have:
                    lost.append(f"{sub.pk}: finished without a result for {sorted(expected - have)[:3]}")
            elif sub.state == "failed" and not sub.error.strip():
                lost.append(f"{sub.pk}: failed without a reason")
            elif sub.state not in TERMINAL:
                lost.append(f"{sub.pk}: still {sub.state}")

        def stored() -> tuple[dict, dict]:
            entries = {(e.board.backend, e.board.device, e.track, e.slice, e.submission_id, e.baseline):
                       (e.metrics, e.histogram) for e in BoardEntry.objects.select_related("board")}
            samples = {(x.board.backend, x.board.device, x.workload): (x.speedup, x.roofline_fraction, x.time_s,
                                                                       x.measured_at)
                       for x in BaselineSample.objects.select_related("board")}
            return entries, samples

        landed = stored()
        aggregates.rebuild()
        rebuilt = stored()
        boards_equal = landed == rebuilt
        board_diff = []
        if not boards_equal:
            for k in set(landed[0]) | set(rebuilt[0]):
                if landed[0].get(k) != rebuilt[0].get(k):
                    board_diff.append(str(k))
            board_diff = board_diff[:10]

        firsts = dict(Result.objects.values_list("submission").annotate(first=Min("created_at")).order_by())
        to_first = [(firsts[s.pk] - s.created_at).total_seconds() for s in subs if s.pk in firsts]
        to_final = [(s.finished_at - s.created_at).total_seconds() for s in subs if s.finished_at]
        states = {st: sum(1 for s in subs if s.state == st) for st in ("queued", "running") + TERMINAL}
        failed_reasons: dict[str, int] = {}
        for s in subs:
            if s.state == "failed":
                key = s.error.strip().splitlines()[0][:140] if s.error.strip() else "(no reason)"
                failed_reasons[key] = failed_reasons.get(key, 0) + 1
        statuses = dict(Result.objects.values_list("status").annotate(n=Count("id")).order_by())
        hang = None
        if getattr(self, "hang_id", None):
            h = by_id.get(self.hang_id)
            r = Result.objects.filter(submission_id=self.hang_id, workload=GELU).first()
            hang = {"submission": self.hang_id, "state": h.state if h else None,
                    "result": r.status if r else None, "reason": (r.reason if r else (h.error if h else ""))[:300]}
        rejected: dict[str, int] = {}
        for s in self.sent:
            if s.submission is None:
                key = f"{s.kind}: HTTP {s.status}: {s.reason}" if s.status else f"{s.kind}: no answer ({s.errors})"
                rejected[key] = rejected.get(key, 0) + 1
        active = [x for x in self.samples if x.held is not None]
        n_workers = 2
        busy = [min(x.held, n_workers) / n_workers for x in active if x.t <= (self.finished_at or 1e9)]
        return {
            "submissions_sent": len(self.sent), "accepted": len(accepted), "rejected": len(self.sent) - len(accepted),
            "rejections": rejected, "submissions_stored": len(subs), "states": states,
            "failed_reasons": failed_reasons, "result_statuses": statuses, "results": sum(statuses.values()),
            "final_state_pct": round(100 * len(final) / len(subs), 1) if subs else 100.0,
            "all_final_within_timeout": all_final,
            "duplicates": len(dupes), "duplicate_detail": dupes[:20], "lost": len(lost), "lost_detail": lost[:20],
            "replayed_uploads": sum(s.replayed for s in self.sent),
            "boards_equal_rebuild": boards_equal, "board_diff": board_diff,
            "time_to_first_result_s": {"median": percentile(to_first, 50), "p95": percentile(to_first, 95),
                                       "n": len(to_first)},
            "time_to_final_s": {"median": percentile(to_final, 50), "p95": percentile(to_final, 95),
                                "n": len(to_final)},
            "worker_utilisation": round(statistics.mean(busy), 2) if busy else None,
            "max_queue_depth": max((x.queued for x in self.samples if x.queued is not None), default=None),
            "client_errors": sum(len(s.errors) for s in self.sent),
            "client_error_kinds": sorted({e for s in self.sent for e in s.errors}),
            "worker_log_errors": self.worker_errors(), "reaper": self.reaped, "hang": hang,
        }

    def worker_errors(self) -> dict:
        out = {}
        for p in sorted(self.root.glob("worker-*.log")) + [self.root / "gunicorn.log"]:
            text = p.read_text(errors="replace") if p.exists() else ""
            out[p.name] = sum(1 for line in text.splitlines() if " ERROR" in line or line.startswith("Traceback"))
        return out

    # ---------------------------------------------------------------- the whole run
    def run(self) -> dict:
        self.finished_at = None
        try:
            self.setup()
            users = self.make_users()
            mon = threading.Thread(target=self.monitor, daemon=True)
            mon.start()
            started = time.monotonic()
            self.traffic(users)
            self.log(f"traffic done: {len(self.sent)} sent")
            # the fault thread may still run (a restart): give it time to end before waiting
            all_final = self.wait_final()
            self.finished_at = time.monotonic() - self.t0
            self.log(f"final states {'reached' if all_final else 'NOT reached'} after "
                     f"{time.monotonic() - started:.0f} s")
            self.stop_monitor.set()
            mon.join(timeout=30)
            figures = self.check(all_final)
            figures["wall_s"] = round(time.monotonic() - started, 1)
            return figures
        finally:
            self.teardown()

    def teardown(self) -> None:
        self.stop_monitor.set()
        for p in reversed(self.procs):
            kill_tree(p, signal.SIGTERM if p is not self.gunicorn else signal.SIGKILL)
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # noqa: BLE001, S110 - Django may not have been set up
            pass
        try:
            with admin(self.server_url) as c:
                c.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
        except Exception as e:  # noqa: BLE001
            print(f"dropping {self.db_name}: {e}", file=sys.stderr)
        if getattr(self, "pg", None):
            try:
                self.pg.stop()
            except Exception:  # noqa: BLE001, S110 - already down
                pass
        if getattr(self, "redis", None):
            self.redis.stop()
        if self.scratch_mounted:
            subprocess.run(["umount", "-l", str(self.scratch)], capture_output=True)
        if self.args.keep:
            print(f"kept {self.root}")
        else:
            shutil.rmtree(self.root, ignore_errors=True)


# --------------------------------------------------------------------------- reports

def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    mem = int(next(line.split()[1] for line in Path("/proc/meminfo").read_text().splitlines()
                   if line.startswith("MemTotal"))) >> 20
    return f"{platform.node()}: {cpu}, {os.cpu_count()} cores, {mem} GiB, {platform.system()} {platform.release()}"


def yes(b: bool) -> str:
    return "yes" if b else "**no**"


def row(name: str, f: dict) -> str:
    t1, tf = f["time_to_first_result_s"], f["time_to_final_s"]
    return (f"| {name} | {f['final_state_pct']:g} % | {f['duplicates']} | {f['lost']} "
            f"| {yes(f['boards_equal_rebuild'])} "
            f"| {f['accepted']}/{f['submissions_sent']} | {f['states']['finished']}/{f['states']['failed']}/"
            f"{f['states']['cancelled']} | {t1['median']} / {t1['p95']} | {tf['median']} / {tf['p95']} "
            f"| {f['worker_utilisation']} | {f['client_errors']} | {f['wall_s']} |")


HEADER = ("| run | final state reached | duplicates | lost | boards equal rebuild | accepted/sent "
          "| finished/failed/cancelled | first result s (median / p95) | final state s (median / p95) "
          "| worker utilisation | client errors (retried) | wall s |\n|" + "---|" * 12)


def report_md(name: str, meta: dict, f: dict, samples: list) -> str:
    lines = [f"# Soak: {name}", "", f"- date: {meta['date']}", f"- machine: {meta['machine']}",
             f"- command: `{meta['command']}`", f"- load: {meta['load']}", "", HEADER, row(name, f), "",
             "## Rejections", ""]
    lines += [f"- {n} × {k}" for k, n in sorted(f["rejections"].items())] or ["- none"]
    lines += ["", "## Outcomes", "", f"- submissions stored: {f['submissions_stored']}, states: {f['states']}",
              f"- result statuses: {f['result_statuses']}"]
    lines += [f"- failed ({n}): {k}" for k, n in sorted(f["failed_reasons"].items())]
    if f.get("hang"):
        lines.append(f"- hang: {f['hang']}")
    lines += ["", "## Errors", "", f"- client errors (each retried): {f['client_errors']} {f['client_error_kinds']}",
              f"- ERROR lines / tracebacks in the logs: {f['worker_log_errors']}",
              f"- reaper actions: {len(f['reaper'])}"] + [f"  - {r}" for r in f["reaper"][:20]]
    if f["lost_detail"]:
        lines += ["", "## Lost", ""] + [f"- {x}" for x in f["lost_detail"]]
    lines += ["", "## Queue depth over time", "", "| t s | queued | held by workers | states |", "|---|---|---|---|"]
    step = max(1, len(samples) // 30)
    lines += [f"| {s['t']} | {s['queued']} | {s['held']} | {s['states']} |" for s in samples[::step]]
    lines += ["", "## Events", "", "```"] + meta["events"] + ["```", ""]
    return "\n".join(lines)


def _public_args(argv: list[str]) -> list[str]:
    """The command line as written in the results: without this machine's paths (the cache and
    output directories the --all-faults runs are given)."""
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a in ("--cache-dir", "--out"):
            skip = True
        else:
            out.append(a)
    return out


def run_one(args) -> dict:
    soak = Soak(args)
    figures = soak.run()
    name = args.fault or "clean"
    meta = {"date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "machine": machine(),
            "command": " ".join(["python bench/soak.py"] + _public_args(sys.argv[1:])),
            "load": f"{args.users} users x {args.per_user} bundles ({', '.join(KINDS)}) at {args.rate}/s; "
                    f"2 celery workers (concurrency 1), gunicorn -w 2; tasks {', '.join(TASKS)}",
            "events": soak.events}
    samples = [asdict(s) for s in soak.samples]
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    base = args.out / (f"soak-{stamp}" + (f"-{args.fault}" if args.fault else ""))
    args.out.mkdir(parents=True, exist_ok=True)
    base.with_suffix(".json").write_text(json.dumps({"run": name, **meta, "figures": figures, "samples": samples},
                                                    indent=1, default=str))
    base.with_suffix(".md").write_text(report_md(name, meta, figures, samples))
    print(row(name, figures))
    return figures


def ok(f: dict) -> bool:
    return (f["final_state_pct"] == 100 and f["duplicates"] == 0 and f["lost"] == 0 and f["boards_equal_rebuild"])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--users", type=int, default=20)
    p.add_argument("--per-user", type=int, default=5)
    p.add_argument("--rate", type=float, default=2.0, help="submissions per second, all users together")
    p.add_argument("--fault", choices=FAULTS)
    p.add_argument("--all-faults", action="store_true", help="the clean run, then each fault, each its own run")
    p.add_argument("--timeout", type=float, default=900, help="seconds to wait for final states after the traffic")
    p.add_argument("--pg-url", default="postgres://postgres@127.0.0.1:5432/postgres",
                   help="a PostgreSQL server to create the soak's database on (not for pg-restart)")
    p.add_argument("--db-name", default="ekb_soak")
    p.add_argument("--cache-dir", type=Path, help="the evaluator's cache (baseline builds), shared by the runs")
    p.add_argument("--out", type=Path, default=RESULTS)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--keep", action="store_true", help="keep the run's directory (logs)")
    args = p.parse_args(argv)
    if not 1 <= args.users * args.per_user <= MAX_SUBMISSIONS:
        p.error(f"--users x --per-user must be between 1 and {MAX_SUBMISSIONS}")
    if not 0 < args.rate <= 50:
        p.error("--rate must be in (0, 50] submissions per second")
    own_cache = args.cache_dir is None
    if own_cache:
        args.cache_dir = Path(tempfile.mkdtemp(prefix="ekb-soak-cache-"))
    try:
        if not args.all_faults:
            return 0 if ok(run_one(args)) else 1
        rows, results = [], {}
        for fault in (None,) + FAULTS:
            cmd = [sys.executable, str(Path(__file__).resolve()), "--users", str(args.users), "--per-user",
                   str(args.per_user), "--rate", str(args.rate), "--timeout", str(args.timeout), "--pg-url",
                   args.pg_url, "--db-name", args.db_name, "--cache-dir", str(args.cache_dir), "--out", str(args.out),
                   "--seed", str(args.seed)] + (["--fault", fault] if fault else [])
            subprocess.run(cmd, cwd=REPO)
            stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d")
            path = args.out / (f"soak-{stamp}" + (f"-{fault}" if fault else "") + ".json")
            data = json.loads(path.read_text()) if path.exists() else None
            results[fault or "clean"] = data["figures"] if data else None
            rows.append(row(fault or "clean", data["figures"]) if data else f"| {fault} | run failed, no figures |")
        stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d")
        table = "\n".join([f"# Soak fault table ({stamp})", "", f"- machine: {machine()}",
                           f"- command: `python bench/soak.py --all-faults` ({args.users} users x {args.per_user} "
                           f"bundles at {args.rate}/s per run)", "", HEADER] + rows) + "\n"
        (args.out / f"soak-{stamp}-faults.md").write_text(table)
        print(table)
        return 0 if all(f and ok(f) for f in results.values()) else 1
    finally:
        if own_cache:
            shutil.rmtree(args.cache_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
