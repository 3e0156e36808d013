"""The GPU backend matrix, measured through the compile farm: a client of the portal's API and
its workers, with nothing of its own in between.

A measurement machine has the GPU, its driver, CuPy and PyTorch, but no TVM compiler and no
network; so the farm's two halves run on two machines and its shared state (the database and a
broker that is a folder, ``.gpu/farm/``) is carried between them:

    python bench/gpu_matrix.py pack [--backends cuda,opencl] [--sample N] [--tasks GLOB ...]
        here: starts a portal (gunicorn, SQLite and the folder broker under .gpu/farm/) serving
        the selected tasks, uploads each bundle through ``POST /api/v1/submissions/`` with an API
        token, then runs a build worker (``run_worker --build``) that builds every task for the
        measurement GPU's target (``EKB_BUILD_TARGETS``) with the candidates in the sandbox, and
        queues the measurement jobs in the folder. Also writes the measurement machine's runtime
        (.gpu/site.tar.xz: TVM's runtime, Django and Celery, bubblewrap, pyopencl).

    tar -C .gpu -xJf .gpu/site.tar.xz && mkdir -p .gpu/src && tar -C .gpu/src -xJf .gpu/farm/source.tar.xz \\
        && ln -sfn .. .gpu/src/.gpu && cd .gpu/src && PATH=$PWD/../site/bin:$PATH PYTHONPATH=$PWD/../site:$PWD \\
        TVM_USE_RUNTIME_LIB=1 python3 bench/gpu_matrix.py measure --out $OUT
        on the GPU machine: a measurement worker (``run_worker --backends cuda,opencl``: every
        kernel in its sandboxed process, ``Pipeline.measure``) serves the queued jobs until none
        is left; the database and the folder go to OUT/farm.

    python bench/gpu_matrix.py render OUT bench/results/gpu_matrix-DATE
        back here: a build worker serves the land jobs the measurements queued (the boards and the
        submissions' final states need the suite), then the report is written from the results
        in the database.

Bundles: ``tvm-default`` (each backend's default module for every L1/L2 task, as TVMScript: it
stands for itself, speedups ≈ 1 check the harness), the ``cuda-source`` and ``opencl-source``
examples, and ``hostile-gpu`` (GPU kernels that write out of bounds, never end or are wrong; each
must end with its reason and leave the device usable for the jobs after it).
"""

from __future__ import annotations

import argparse
import collections
import io
import json
import os
import platform
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
import uuid
import zipfile
from pathlib import Path

from evaluator.harness.messages import printable
from evaluator.harness.protocol import Protocol

ROOT = Path(__file__).resolve().parents[1]

GPU_DIR = ROOT / ".gpu"
FARM = GPU_DIR / "farm"
WHEELS = ROOT / ".whl"
EXAMPLES = ROOT / "examples" / "bundles"
BACKENDS = ("cuda", "opencl")
BUNDLES = ("tvm-default", "hostile-gpu", "cuda-source", "opencl-source")
# the H200 machine's GPU and host CPU (Skylake-AVX512 runs x86-64-v3 code)
TARGETS = {"cuda": {"arch": "sm_90", "host": {"kind": "llvm", "mtriple": "x86_64-linux-gnu", "mcpu": "x86-64-v3"}}}
MAX_CARRY_BYTES = 62 << 20  # the device accepts 64 MiB of ignored files; keep some room
SITE_PYTHON = "3.12"  # the measurement machine's Python
# What a measurement worker imports, pinned as in requirements.txt (numpy, CuPy and PyTorch are
# the machine's own): TVM's runtime, the portal and Celery, OpenCL, the sandbox's seccomp
# bindings and the library policy's ELF reader.
SITE_PACKAGES = (
    "apache-tvm", "apache-tvm-ffi", "Django", "asgiref", "sqlparse", "djangorestframework", "drf-spectacular",
    "drf-spectacular-sidecar", "inflection", "jsonschema", "jsonschema-specifications", "referencing",
    "rpds-py", "attrs", "uritemplate", "PyYAML", "django-filter", "dj-database-url", "celery", "amqp",
    "billiard", "kombu", "vine", "redis", "click", "click-didyoumean", "click-plugins", "click-repl",
    "prompt_toolkit", "wcwidth", "python-dateutil", "six", "tzlocal", "cryptography", "cffi", "pycparser",
    "plotly", "narwhals", "psutil", "Pygments", "typing_extensions", "packaging", "pyseccomp", "pyelftools",
    "pyopencl", "pytools", "platformdirs", "siphash24",
)
# parts of the TVM wheel a runtime-only import never touches
STRIP = ("tvm/lib/libtvm_compiler.so", "tvm/3rdparty", "tvm/src", "tvm_ffi/src", "tvm_ffi/include",
         "tvm_ffi/3rdparty", "plotly/package_data/datasets",
         "drf_spectacular_sidecar/static/drf_spectacular_sidecar/redoc")
# what the measurement machine runs: the packages and the one script, no results or examples
SOURCE_DIRS = ("evaluator", "portal", "leaderboard", "config", "templates", "static", "manage.py",
               "bench/gpu_matrix.py")
TOKEN_FILE = FARM / "token"
PORT = 8765


def _use_farm(name: str) -> None:
    """Chunks of a sweep each have their own farm (.gpu/NAME), so the next one can be packed
    while the last one is measured."""
    global FARM
    FARM = GPU_DIR / name


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if "==" in line:
            name, version = line.split("==")
            pins[name.split("[")[0].lower().replace("_", "-")] = version
    return pins


def _farm_env(**more: str) -> dict[str, str]:
    """The environment every process of the farm shares: the database and the broker folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "CELERY_", "EKB_"))}
    env.update({"DATABASE_URL": f"sqlite:///{FARM / 'portal.sqlite3'}", "CELERY_BROKER_URL": "filesystem://",
                "EKB_BROKER_DIR": str(FARM / "broker"), "EKB_VAR_DIR": str(FARM / "var"),
                "DJANGO_SECRET_KEY": (FARM / "secret-key").read_text().strip(), "EKB_COMPILE_FARM": "1",
                "EKB_BACKENDS": ",".join(BACKENDS), "EKB_TASKS": (FARM / "tasks").read_text().strip(),
                "EKB_BUILD_TARGETS": json.dumps(TARGETS), "EKB_HELDOUT_SECRET": "gpu-matrix-heldout"})
    env.update(more)
    return env


def _manage(*args: str, env: dict, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], cwd=ROOT, env=env, check=True, **kw)


def _django(env: dict) -> None:
    """Use the farm's database in this process too (to watch it)."""
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()


# --- pack (the build machine) ----------------------------------------------------------------

def pack_runtime() -> Path:
    """The measurement machine's packages (cp312 wheels, downloaded into .whl/ once, pinned as
    in requirements.txt) and bubblewrap, as .gpu/site.tar.xz."""
    pins = _pins()
    WHEELS.mkdir(exist_ok=True)
    want = [f"{name}=={pins[name.lower().replace('_', '-')]}" for name in SITE_PACKAGES]
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                    "--python-version", SITE_PYTHON, "--implementation", "cp", "--platform", "manylinux_2_28_x86_64",
                    "--platform", "manylinux_2_17_x86_64", "--platform", "manylinux2014_x86_64", "-d", str(WHEELS),
                    *want], check=True)
    if not sorted(WHEELS.glob("bubblewrap_*.deb")):
        subprocess.run(["apt-get", "download", "bubblewrap"], cwd=WHEELS, check=True)
    site = GPU_DIR / "site"
    shutil.rmtree(site, ignore_errors=True)
    names = {n.lower().replace("-", "_") for n in SITE_PACKAGES}
    for w in sorted(WHEELS.glob("*.whl")):
        if w.name.split("-")[0].lower() in names and f"-{pins.get(w.name.split('-')[0].lower().replace('_', '-'))}-" \
                in w.name:
            with zipfile.ZipFile(w) as z:
                z.extractall(site)
    for rel in STRIP:
        p = site / rel
        shutil.rmtree(p) if p.is_dir() else p.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as d:  # the sandbox: the GPU machine has no bwrap of its own
        subprocess.run(["dpkg-deb", "-x", str(sorted(WHEELS.glob("bubblewrap_*.deb"))[-1]), d], check=True)
        (site / "bin").mkdir()
        shutil.copy2(Path(d) / "usr" / "bin" / "bwrap", site / "bin" / "bwrap")
    out = GPU_DIR / "site.tar.xz"
    with tarfile.open(out, "w:xz") as tar:
        tar.add(site, arcname="site")
    shutil.rmtree(site)
    return out


def _pack_source() -> None:
    """The code the measurement runs, as it is now, into the farm (``source.tar.xz``, 0.4 MiB):
    the chunk is measured by the code that built it even if the working tree (which also travels
    to the device) changes meanwhile, and results files stay out of the carry."""
    tracked = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", *SOURCE_DIRS],
                             cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    with tarfile.open(FARM / "source.tar.xz", "w:xz") as tar:
        for rel in (f for f in tracked if f and (ROOT / f).is_file()):
            tar.add(ROOT / rel, arcname=rel)


def _zip(manifest: dict, files: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("manifest.json", json.dumps(manifest, indent=1))
        for name, text in files.items():
            z.writestr(name, text)
    return buf.getvalue()


def _example(name: str, tasks: set[str]) -> bytes | None:
    """An example bundle, its entries for the served tasks only."""
    doc = json.loads((EXAMPLES / name / "manifest.json").read_text())
    doc["entries"] = [e for e in doc["entries"] if e.get("workload") in tasks]
    if not doc["entries"]:
        return None
    return _zip(doc, {e["file"]: (EXAMPLES / name / e["file"]).read_text() for e in doc["entries"]})


def _default_bundle(workloads, backends) -> bytes:
    """Each backend's default module of every L1/L2 task, as a TVMScript entry; a model graph's,
    as the layered trace that leaves every fused function to dlight (``gpu_graph_default``)."""
    from evaluator.backends import get_builder
    from evaluator.examples import gpu_graph_default

    entries, files = [], {}
    for be in backends:
        builder = get_builder(be, TARGETS.get(be))
        for w in workloads:
            stem = f"kernels/{be}/{w.id.replace('/', '__').replace('@', '--')}"
            if w.level == "L3":
                name, fmt = f"{stem}.json", "layered-trace"
                files[name] = json.dumps(gpu_graph_default(w.canonical_module()), indent=1) + "\n"
            else:
                name, fmt = f"{stem}.py", "tvmscript"
                files[name] = builder.default_module(w.canonical_module(), w).script()
            entries.append({"workload": w.id, "backend": be, "format": fmt, "file": name})
    return _zip({"schema": "edgekernelbench/bundle@1", "name": "tvm-default",
                 "description": "Each backend's default module, submitted as itself.", "entries": entries}, files)


RELU = """extern "C" __global__ void k(const float* X, float* Y) {
    const long long n = SIZE;
    long long i = blockIdx.x * 256LL + threadIdx.x;
    if (i < n) BODY
}"""
ATTACKS = {  # elementwise workload -> (what it does, its body)
    "activation/relu@m128n768": ("writes 64 GiB past its output", "Y[i + (1LL << 34)] = X[i];"),
    "activation/relu@n1c64h56w56": ("never ends",
                                    "{ volatile int s = 1; while (s) { __nanosleep(1000); } Y[i] = X[i]; }"),
    "activation/relu6@n1c64h56w56": ("is wrong (no upper clamp)", "Y[i] = X[i] > 0.0f ? X[i] : 0.0f;"),
}


def _hostile_bundle(workloads) -> bytes | None:
    ids = {w.id: w for w in workloads}
    entries, files = [], {}
    for wid, (what, body) in ATTACKS.items():
        w = ids.get(wid)
        if w is None:
            continue
        n = 1
        for d in w.inputs[0].shape:
            n *= d
        name = f"kernels/{len(files)}.cu"
        files[name] = f"// {what}\n" + RELU.replace("BODY", body).replace("SIZE", str(n))
        entries.append({"workload": wid, "backend": "cuda", "format": "cuda-source", "file": name,
                        "launch": {"entry": "k", "args": [t["name"] for t in w.signature()],
                                   "grid": [(n + 255) // 256], "block": [256]}})
    return _zip({"schema": "edgekernelbench/bundle@1", "name": "hostile-gpu",
                 "description": "GPU kernels that must end with their reasons.", "entries": entries}, files) \
        if entries else None


def _wait_http(url: str, timeout: float) -> None:
    end = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url, timeout=5).read()
            return
        except OSError:
            if time.monotonic() > end:
                raise
            time.sleep(0.5)


def _upload(name: str, data: bytes, token: str, backends: list[str]) -> dict:
    boundary = uuid.uuid4().hex
    parts = [f"--{boundary}\r\nContent-Disposition: form-data; name=\"backends\"\r\n\r\n{b}\r\n".encode()
             for b in backends]
    parts.append(f"--{boundary}\r\nContent-Disposition: form-data; name=\"bundle\"; filename=\"{name}.zip\"\r\n"
                 "Content-Type: application/zip\r\n\r\n".encode() + data + b"\r\n")
    body = b"".join(parts) + f"--{boundary}--\r\n".encode()
    req = urllib.request.Request(f"http://127.0.0.1:{PORT}/api/v1/submissions/", data=body, method="POST", headers={
        "Authorization": f"Token {token}", "Content-Type": f"multipart/form-data; boundary={boundary}"})
    with urllib.request.urlopen(req, timeout=120) as resp:
        return json.loads(resp.read())


def _stop(proc: subprocess.Popen, timeout: float = 60) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _settle(done, timeout: float, what: str, every: float = 2.0) -> float:
    t0 = time.monotonic()
    while not done():
        if time.monotonic() - t0 > timeout:
            raise SystemExit(f"{what} did not finish within {timeout:.0f} s")
        time.sleep(every)
    return time.monotonic() - t0


def cmd_pack(args) -> int:
    from evaluator import suite

    _use_farm(args.farm)
    if args.tasks_file:
        args.tasks = (args.tasks or []) + [t for t in Path(args.tasks_file).read_text().split() if t]
    shutil.rmtree(FARM, ignore_errors=True)
    FARM.mkdir(parents=True)
    (FARM / "secret-key").write_text(uuid.uuid4().hex + uuid.uuid4().hex)
    picked = {w.id: w for w in suite.sample(args.sample, include_hidden=False)} if args.sample else {}
    picked.update((w.id, w) for w in (suite.select(args.tasks, False) if args.tasks else []))
    if "hostile-gpu" in args.bundles:
        picked.update((w.id, w) for w in suite.select(list(ATTACKS), False))
    for name, cap in ((b, args.per_bundle) for b in ("cuda-source", "opencl-source") if b in args.bundles):
        covered = [e["workload"] for e in json.loads((EXAMPLES / name / "manifest.json").read_text())["entries"]]
        picked.update((w.id, w) for w in suite.select(covered[:cap], False))
    (FARM / "tasks").write_text(",".join(sorted(picked)))
    runtime = pack_runtime() if not (args.keep_runtime and (GPU_DIR / "site.tar.xz").exists()) \
        else GPU_DIR / "site.tar.xz"
    _pack_source()
    env = _farm_env()
    _manage("migrate", "--noinput", env=env, stdout=subprocess.DEVNULL)
    token = _manage("shell", "-c", "from django.contrib.auth import get_user_model; "
                    "from rest_framework.authtoken.models import Token; "
                    "u = get_user_model().objects.create_user('gpu-matrix'); "
                    "print(Token.objects.create(user=u).key)", env=env, capture_output=True,
                    text=True).stdout.split()[-1]  # the shell's banner comes first
    workloads = list(picked.values())
    bundles = [("tvm-default", _default_bundle(workloads, args.backends) if "tvm-default" in args.bundles else None,
                args.backends),
               ("hostile-gpu", _hostile_bundle(workloads), ["cuda"]),
               ("cuda-source", _example("cuda-source", set(picked)), ["cuda"]),
               ("opencl-source", _example("opencl-source", set(picked)), ["opencl"])]
    t0 = time.perf_counter()
    log = open(FARM / "portal.log", "w")
    portal = subprocess.Popen([sys.executable, "-m", "gunicorn", "-b", f"127.0.0.1:{PORT}", "-w", "1",
                               "config.wsgi:application"], cwd=ROOT, env=env, stdout=log, stderr=log)
    try:
        _wait_http(f"http://127.0.0.1:{PORT}/api/v1/backends/", 60)
        uploaded = []
        for name, data, backends in bundles:
            if name not in args.bundles or data is None or not set(backends) & set(args.backends):
                continue
            sub = _upload(name, data, token, [b for b in backends if b in args.backends])
            uploaded.append({"bundle": name, "id": sub["id"], "backends": sub["backends"]})
            print(f"uploaded {name} as submission {sub['id']} ({', '.join(sub['backends'])})", flush=True)
    finally:
        _stop(portal)
    _django(env)
    from portal.models import Build, Submission

    builder = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "run_worker", "--backends", "",
                                "--build", ",".join(args.backends), "--hostname", "gpu-matrix-build@%h"],
                               cwd=ROOT, env=env, stdout=open(FARM / "build-worker.log", "w"), stderr=subprocess.STDOUT)
    expected = len(picked)

    def built() -> bool:
        if builder.poll() is not None:
            raise SystemExit(f"the build worker exited ({builder.returncode}); see {FARM / 'build-worker.log'}")
        subs = Submission.objects.filter(pk__in=[u["id"] for u in uploaded])
        return all(s.state == Submission.State.FAILED or
                   Build.objects.filter(submission=s).count() >= expected * len(s.backends) for s in subs) \
            and not _queued(lambda q: q.startswith("build."))
    try:
        build_s = _settle(built, args.timeout, "building")
    finally:
        _stop(builder)
    failed = list(Submission.objects.filter(pk__in=[u["id"] for u in uploaded], state=Submission.State.FAILED))
    for s in failed:
        print(f"submission {s.pk} failed while building: {s.error}", file=sys.stderr)
    limit = (args.max_mib << 20) if args.max_mib else _farm_room(runtime)
    dropped = _trim(limit)
    for wid, nbytes in dropped:
        print(f"left out {wid}: {nbytes / 2**20:.1f} MiB of built files past this chunk's {limit / 2**20:.0f} MiB")
    built = sorted({b.workload for b in Build.objects.all()})
    (FARM / "tasks").write_text(",".join(built))
    manifest = {"created": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "targets": TARGETS, "backends": args.backends,
                "build_machine": platform.platform(), "build_s": build_s, "pack_s": time.perf_counter() - t0,
                "submissions": uploaded, "tasks": built,
                "left_out": [{"workload": w, "bytes": n} for w, n in dropped]}
    (FARM / "manifest.json").write_text(json.dumps(manifest, indent=1))
    print(f"{len(uploaded)} submissions of {len(built)} tasks built in {build_s:.0f} s; {FARM.name} holds "
          f"{_size(FARM) / 2**20:.1f} MiB (runtime {runtime.stat().st_size / 2**20:.1f} MiB); queued: "
          f"{_queued(lambda q: q.startswith('eval.'))} measurements")
    return 0 if not failed else 1


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _farm_room(runtime: Path) -> int:
    """What a farm may hold: the carry limit less the tracked tree and the runtime beside it."""
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    tree = sum((ROOT / f).stat().st_size for f in tracked.decode().split("\0") if f and (ROOT / f).is_file())
    return MAX_CARRY_BYTES - tree - runtime.stat().st_size


def _trim(limit: int) -> list[tuple[str, int]]:
    """Drops the builds with the most bytes until the farm fits ``limit`` (what the device's carry
    allows); the measurement job measures the builds there are, so a dropped task is measured in
    a later chunk of its own or reported as left out."""
    from portal.models import Blob, Build, BuiltCandidate

    dropped = []
    while True:
        with sqlite3.connect(FARM / "portal.sqlite3") as db:
            db.execute("VACUUM")
        if _size(FARM) <= limit:
            return dropped
        sizes = dict(Blob.objects.exclude(kind=Blob.Kind.BUNDLE).values_list("digest", "size"))
        builds = list(Build.objects.exclude(candidate=None))
        if not builds:
            return dropped
        users: dict[str, int] = {}
        for b in builds:
            for d in _digests(b):
                users[d] = users.get(d, 0) + 1

        def own(b) -> int:  # the bytes dropping this build frees
            return sum(sizes.get(d, 0) for d in _digests(b) if users[d] == 1)
        worst = max(builds, key=own)
        nbytes = own(worst)
        freed = {d for d in _digests(worst) if users[d] == 1}
        BuiltCandidate.forget(freed)  # the build cache names no Blob that is gone
        Blob.objects.filter(digest__in=freed).delete()
        worst.delete()
        dropped.append((worst.workload, nbytes))


def _digests(build) -> set[str]:
    files = list(build.candidate or []) + [f for fs in build.baselines.values() for f in fs]
    return {d for _, d in files} | ({build.references} if build.references else set())


def _queued(which) -> int:
    """Messages waiting in the folder broker on the queues ``which`` accepts."""
    n = 0
    for f in (FARM / "broker" / "queue").glob("*.msg"):
        n += bool(which(f.name.partition(".")[2].removesuffix(".msg")))
    return n


# --- plan and merge (a whole-suite sweep, chunk by chunk) ------------------------------------

RESULTS = ROOT / "bench" / "results"
# a task's built files besides its references (cuda: 20 KiB; the default module is both the
# candidate and the baseline, stored once); references compress to about 0.87 of their raw size
PER_TASK_BYTES = 32 << 10


def _parts(backend: str) -> list[Path]:
    """A sweep's chunks for ``backend``: ``gpu_matrix-DATE-suite-BACKENDS-partNN.json``, where
    BACKENDS names one backend or several joined by '-' (a chunk packed for both GPUs)."""
    def backends(f: Path) -> list[str]:
        return f.name.split("-suite-", 1)[1].rsplit("-part", 1)[0].split("-")
    return sorted(f for f in RESULTS.glob("gpu_matrix-*-suite-*-part*.json") if backend in backends(f))


def _measured_tasks(backend: str) -> dict[str, dict]:
    """The tvm-default board's tasks of every chunk measured so far (a later chunk wins), each
    with the device its chunk was measured on: chunks of one sweep may come from different GPUs
    (the device machine lent is not always the same kind)."""
    tasks: dict[str, dict] = {}
    for f in _parts(backend):
        report = json.loads(f.read_text())
        device = report["devices"].get(backend, {}).get("device", "")
        for b in report["boards"].values():
            if b["bundle"] == "tvm-default" and b["backend"] == backend:
                tasks.update((t["workload"], {**t, "device": device}) for t in b["tasks"] if t["status"] != "missing")
    return tasks


def _has_vendor(task: dict) -> bool:
    """Whether the task has a vendor speedup: timed beside it, or from the vendor figure its
    machine timed once (``harness/vendor_ratio.py``), in which case no vendor time is listed."""
    return task.get("speedup", {}).get("vendor") is not None


def _by_device(board: list[dict]) -> dict[str, dict]:
    """Per device: what was measured there, its Correct@1, the default schedule against itself
    and the vendor figures. A vendor speedup is a property of one GPU, so it is never pooled
    across devices; the default against itself is a harness check, meaningful on each."""
    from evaluator import scoring

    out = {}
    for device in sorted({t["device"] for t in board}):
        mine = [t for t in board if t["device"] == device]
        speedups = [t["speedup"]["tvm-default"] for t in mine
                    if t["status"] == "correct" and t.get("speedup", {}).get("tvm-default") is not None]
        out[device] = {"tasks": len(mine), "summary": scoring.summarize(mine),
                       "summary_vendor": scoring.summarize(mine, baseline="vendor"),
                       "median_speedup_vs_tvm_default": statistics.median(speedups) if speedups else None,
                       "speedup_range": [min(speedups), max(speedups)] if speedups else None,
                       "vendor_tasks": sum(_has_vendor(t) for t in mine)}
    return out


def _reference_bytes(w) -> int:
    return sum(t.nbytes for t in w.outputs) * len(Protocol().seeds)


def cmd_plan(args) -> int:
    """Splits the public tasks a backend's sweep has not measured yet into chunks that fit the
    carry limit, by the bytes their references and built files will take, and writes each as a
    tasks file for ``pack --tasks-file``."""
    from evaluator import suite

    backends = args.backend.split(",")  # several: a task any of them lacks is packed for all
    done = set.intersection(*(set(_measured_tasks(b)) for b in backends)) - set(args.again or ())
    manifests = [json.loads(f.read_text()) for f in GPU_DIR.glob("farm-*/manifest.json")]
    packed = {t for doc in manifests if set(backends) & set(doc["backends"]) for t in doc["tasks"]}  # not measured yet
    todo = [w for w in suite.workloads(include_hidden=False)
            if w.id not in done and w.id not in packed]
    room = args.chunk_mib << 20
    chunks: list[list[str]] = [[]]
    used = 0
    for w in todo:  # the suite's order keeps a family together
        need = _reference_bytes(w) + PER_TASK_BYTES
        if chunks[-1] and (used + need > room or len(chunks[-1]) >= args.max_tasks):
            chunks.append([])
            used = 0
        chunks[-1].append(w.id)
        used += need
    plan = GPU_DIR / "plan"
    shutil.rmtree(plan, ignore_errors=True)
    plan.mkdir(parents=True)
    for i, ids in enumerate(c for c in chunks if c):
        (plan / f"{'-'.join(backends)}-{i + 1:02d}.tasks").write_text("\n".join(ids) + "\n")
        print(f"{'-'.join(backends)}-{i + 1:02d}: {len(ids)} tasks ({ids[0]} … {ids[-1]})")
    print(f"{len(done)} measured, {len(packed)} packed, {len(todo)} to go in {len(chunks)} chunks "
          f"of at most {args.chunk_mib} MiB")
    return 0


def cmd_merge(args) -> int:
    """One report of a whole-suite sweep from its chunks: the tvm-default board over every task
    measured (a later chunk wins), what was not measured and why, the median speedup of the
    default schedule against itself and the vendor's coverage and times."""
    from evaluator import scoring, suite

    parts = _parts(args.backend)
    if not parts:
        raise SystemExit(f"no chunk of a {args.backend} sweep under bench/results/")
    reports = [json.loads(f.read_text()) for f in parts]
    tasks = _measured_tasks(args.backend)
    public = suite.workloads(include_hidden=False)
    left_out = {}
    for w in public:
        if w.id in tasks:
            continue
        left_out[w.id] = "not measured yet"
    board = [tasks[w.id] for w in public if w.id in tasks]
    speedups = [t["speedup"]["tvm-default"] for t in board
                if t["status"] == "correct" and t.get("speedup", {}).get("tvm-default") is not None]
    vendor = [t for t in board if _has_vendor(t)]
    by_status = dict(collections.Counter(t["status"] for t in board))
    last = reports[-1]
    report = {"date": time.strftime("%Y-%m-%d"), "backend": args.backend,
              "command": f"bench/gpu_matrix.py plan/pack/measure/render per chunk; merge --backend {args.backend}",
              "parts": [f.name for f in parts], "machine": last["machine"], "pack": last["pack"],
              "protocol": last["protocol"], "devices": sorted({t["device"] for t in board}),
              "by_device": _by_device(board),
              "build_s": sum(r["build_s"] for r in reports), "measure_s": sum(r["measure_s"] for r in reports),
              "public_tasks": len(public), "measured": len(board), "by_status": by_status,
              "summary": scoring.summarize(board), "summary_vendor": scoring.summarize(board, baseline="vendor"),
              "median_speedup_vs_tvm_default": statistics.median(speedups) if speedups else None,
              "speedup_range": [min(speedups), max(speedups)] if speedups else None,
              "vendor_tasks": len(vendor), "left_out": left_out, "tasks": board}
    stem = Path(args.out)
    stem.with_suffix(".json").write_text(json.dumps(report, indent=1) + "\n")
    stem.with_suffix(".md").write_text(_merged_markdown(report))
    print(_merged_markdown(report).split("\n## ")[0])
    return 0


def _merged_markdown(r: dict) -> str:
    s, v, m = r["summary"], r["summary_vendor"], r["machine"]
    missing = [w for w, why in r["left_out"].items() if why == "not measured yet"]
    lines = [f"# tvm-default over the public suite on {r['backend']} — {r['date']}", "",
             f"Measured on: {' and '.join(r['devices']) or m.get('gpu', '?')}; the last chunk's machine: "
             f"{m['platform']}; CuPy {m.get('cupy', '–')}, PyTorch "
             f"{m.get('torch', '–')}, TVM {m.get('tvm', '–')} (runtime only). Built for {r['pack']['arch']} on "
             f"{r['pack']['build_machine']}.",
             f"Command: `{r['command']}`; {len(r['parts'])} chunks ({', '.join(r['parts'])}); building "
             f"{r['build_s']:.0f} s, measuring {r['measure_s']:.0f} s in all.", "",
             "Each chunk went through the compile farm: uploaded through the REST API, built by a build worker, "
             "measured by a measurement worker on the GPU machine with the sandbox on (every kernel in its own "
             "sandboxed process), landed back here. The candidate is each task's default module submitted as "
             "itself, so its speedup against tvm-default checks the harness (≈ 1) and its vendor times are "
             "PyTorch's (TF32 off).", "",
             f"- Public tasks: {r['public_tasks']}; measured: {r['measured']} "
             f"({', '.join(f'{k} {n}' for k, n in sorted(r['by_status'].items()))}).",
             f"- Correct@1 over the measured tasks: {s['correct@1']:.3f}; Fast@1.0 {s['fast@1.0']:.3f}, "
             f"ties@1.0 {s['ties@1.0']:.3f}, geomean (correct) {_fmt(s['geomean_correct'], '.3f')}.",
             f"- Median speedup of the default schedule against itself: "
             f"{_fmt(r['median_speedup_vs_tvm_default'], '.3f')} (range "
             f"{' – '.join(_fmt(x, '.2f') for x in r['speedup_range'] or [None, None])}).",
             (f"- A vendor (PyTorch) speedup on {r['vendor_tasks']} tasks; vendor Fast@1.0 {v['fast@1.0']:.3f}, "
              f"geomean × vendor (correct) {_fmt(v['geomean_correct'], '.3f')}." if len(r["by_device"]) < 2 else
              f"- A vendor (PyTorch) speedup on {r['vendor_tasks']} tasks: per device below."),
             f"- Not measured yet: {len(r['left_out'])}.", ""]
    if len(r["by_device"]) > 1:
        lines += ["Chunks were measured on more than one GPU; vendor figures are each device's own, never pooled:", "",
                  "| device | tasks | Correct@1 | default vs itself: median (range) | with a vendor speedup "
                  "| geomean × vendor |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for device, d in r["by_device"].items():
            vendor = d["summary_vendor"]["geomean_correct"] if d["vendor_tasks"] else None
            lines.append(f"| {device} | {d['tasks']} | {d['summary']['correct@1']:.3f} | "
                         f"{_fmt(d['median_speedup_vs_tvm_default'], '.3f')} "
                         f"({' – '.join(_fmt(x, '.2f') for x in d['speedup_range'] or [None, None])}) | "
                         f"{d['vendor_tasks']} | {_fmt(vendor, '.3f')} |")
        lines.append("")
    if missing:
        lines += ["Not measured yet: " + ", ".join(f"`{w}`" for w in missing[:400]) +
                  (" …" if len(missing) > 400 else ""), ""]
    names = {d: f"D{i + 1}" for i, d in enumerate(r["by_device"])}
    lines += ["## Tasks", "", "Device: " + "; ".join(f"{n} = {d}" for d, n in names.items()) + ".", "",
              "| task | device | status | candidate µs | tvm-default µs | vendor µs | × tvm-default | × vendor |",
              "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for t in r["tasks"]:
        us = {k: _fmt(x["median_s"] * 1e6, ".1f") for k, x in t.get("times", {}).items()}
        sp = t.get("speedup", {})
        lines.append(f"| {t['workload']} | {names[t['device']]} | {t['status']} | {us.get('candidate', '–')} "
                     f"| {us.get('tvm-default', '–')} "
                     f"| {us.get('vendor', '–')} | {_fmt(sp.get('tvm-default'))} | {_fmt(sp.get('vendor'))} |")
    return "\n".join(lines) + "\n"


# --- measure (the GPU machine) ---------------------------------------------------------------

def _register_nvidia_icd() -> None:
    """Shows the NVIDIA driver's OpenCL platform to the ICD loader when /etc/OpenCL/vendors does
    not list it (the lent H200 machine lists only PoCL there): the system's ICDs plus NVIDIA's, in
    a directory named by OCL_ICD_VENDORS."""
    import ctypes

    if os.environ.get("OCL_ICD_VENDORS"):
        return
    system = sorted(Path("/etc/OpenCL/vendors").glob("*.icd"))
    if any("nvidia" in f.read_text().lower() for f in system):
        return
    try:
        ctypes.CDLL("libnvidia-opencl.so.1")
    except OSError:
        return  # no NVIDIA OpenCL driver here
    d = Path(tempfile.mkdtemp(prefix="ekb-icd-"))
    for f in system:
        shutil.copy(f, d / f.name)
    (d / "nvidia.icd").write_text("libnvidia-opencl.so.1\n")
    os.environ["OCL_ICD_VENDORS"] = str(d)


def _machine() -> dict:
    m = {"platform": platform.platform(), "python": platform.python_version(), "cpu": platform.processor()}
    try:
        m["gpu"] = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                                   "--format=csv,noheader"], capture_output=True, text=True).stdout.strip()
    except OSError:
        pass
    for mod in ("cupy", "torch", "pyopencl", "numpy", "tvm"):
        try:
            m[mod] = __import__(mod).__version__
        except Exception:  # noqa: BLE001 - not installed there
            pass
    return m


def cmd_measure(args) -> int:
    _use_farm(args.farm)
    manifest = json.loads((FARM / "manifest.json").read_text())
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("EKB_OPENCL_DEVICE", args.opencl_device)  # the GPU, never a CPU fallback
    _register_nvidia_icd()
    env = _farm_env(EKB_CACHE_DIR=str(FARM / "cache"))
    described = json.loads(subprocess.run([sys.executable, "-m", "evaluator", "backends", "--json"], cwd=ROOT,
                                          env=env, capture_output=True, text=True, check=True).stdout)
    served = [b["name"] for b in described if b["name"] in manifest["backends"] and b["available"]]
    for b in described:
        if b["name"] in manifest["backends"] and not b["available"]:
            print(f"not measuring {b['name']}: {b['reason']}", file=sys.stderr)
    (out / "machine.json").write_text(json.dumps({"machine": _machine(), "backends": described}, indent=1))
    t0 = time.monotonic()
    worker = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "run_worker", "--backends", ",".join(served),
                               "--hostname", "gpu-matrix-measure@%h"], cwd=ROOT, env=env,
                              stdout=open(out / "measure-worker.log", "w"), stderr=subprocess.STDOUT)
    _django(env)
    from portal.models import Build, Result

    def measured() -> bool:
        if worker.poll() is not None:
            raise SystemExit(f"the measurement worker exited ({worker.returncode})")
        builds = Build.objects.filter(backend__in=served).count()
        return Result.objects.filter(backend__in=served).count() >= builds and not _queued(
            lambda q: q in {f"eval.{b}" for b in served})
    try:
        seconds = _settle(measured, args.timeout, "measuring")
    finally:
        _stop(worker, timeout=120)
    # the farm as one file (what comes back from the GPU machine is a few files, size-limited):
    # the database without the built files and references it no longer needs (an 18 MiB
    # database of 30 tasks did not come back) and the broker folder, with the land jobs the
    # measurements queued
    back = Path(tempfile.mkdtemp(prefix="ekb-back-"))
    shutil.copy2(FARM / "portal.sqlite3", back / "portal.sqlite3")
    with sqlite3.connect(back / "portal.sqlite3") as db:
        db.execute("DELETE FROM portal_blob WHERE kind IN ('artifact', 'reference')")
    with sqlite3.connect(back / "portal.sqlite3") as db:
        db.execute("VACUUM")
    with tarfile.open(out / "farm.tar.xz", "w:xz") as tar:
        tar.add(back / "portal.sqlite3", arcname="portal.sqlite3")
        for name in ("manifest.json", "tasks", "broker"):
            tar.add(FARM / name, arcname=name)
    shutil.rmtree(back)
    (out / "measure.json").write_text(json.dumps({"measure_s": seconds, "served": served,
                                                  "elapsed_s": time.monotonic() - t0}))
    print(f"measured in {seconds:.0f} s")
    return 0


# --- render (back on the build machine) ------------------------------------------------------

def cmd_render(args) -> int:
    came = Path(args.measured)
    _use_farm("farm-measured")
    shutil.rmtree(FARM, ignore_errors=True)
    FARM.mkdir(parents=True)
    with tarfile.open(came / "farm.tar.xz") as tar:
        tar.extractall(FARM, filter="data")
    manifest = json.loads((FARM / "manifest.json").read_text())
    (FARM / "secret-key").write_text(uuid.uuid4().hex)  # it signs nothing that comes back
    env = _farm_env()
    _django(env)
    from evaluator import scoring
    from portal.models import Result, Submission

    lander = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "run_worker", "--backends", "",
                               "--build", ",".join(manifest["backends"]), "--hostname", "gpu-matrix-land@%h"],
                              cwd=ROOT, env=env, stdout=open(FARM / "land-worker.log", "w"), stderr=subprocess.STDOUT)
    measured = json.loads((came / "measure.json").read_text())
    # every submission measured on backends the GPU machine served must reach its final state
    ids = [s["id"] for s in manifest["submissions"] if set(s["backends"]) <= set(measured["served"])]
    try:
        _settle(lambda: not _queued(lambda q: q.startswith("build.")) and not Submission.objects.filter(
            pk__in=ids).exclude(state__in=Submission.TERMINAL).exists(), args.timeout, "landing")
    finally:
        _stop(lander)
    there = json.loads((came / "machine.json").read_text())
    devices = {b["name"]: ({"device": b["device"], "arch": b["arch"]} if b["available"] else
                           {"device": "", "unavailable": b["reason"]})
               for b in there["backends"] if b["name"] in manifest["backends"]}
    boards, states = {}, {}
    for s in manifest["submissions"]:
        sub = Submission.objects.get(pk=s["id"])
        states[s["bundle"]] = {"id": sub.pk, "state": sub.state, "error": sub.error}
        for be in sub.backends:
            tasks = [r.record for r in Result.objects.filter(submission=sub, backend=be).order_by("workload")]
            if be in measured["served"] and tasks:
                boards[f"{s['bundle']} on {be}"] = {
                    "bundle": s["bundle"], "backend": be, "summary": scoring.summarize(tasks),
                    "summary_vendor": scoring.summarize(tasks, baseline="vendor"), "tasks": tasks}
    report = {"date": time.strftime("%Y-%m-%d"), "command": "bench/gpu_matrix.py pack; measure (sandbox on); render",
              "machine": there["machine"], "pack": {"created": manifest["created"], "arch": TARGETS["cuda"]["arch"],
                                                     "host": TARGETS["cuda"]["host"],
                                                     "build_machine": manifest["build_machine"]},
              "protocol": Protocol().to_json(), "build_s": manifest["build_s"], "measure_s": measured["measure_s"],
              "devices": devices, "submissions": states, "boards": boards}
    stem = Path(args.out)
    stem.with_suffix(".json").write_text(json.dumps(report, indent=1) + "\n")
    stem.with_suffix(".md").write_text(markdown(report))
    print(markdown(report))
    return 0


def _fmt(x, spec=".2f") -> str:
    return "–" if x is None else format(x, spec)


def markdown(report: dict) -> str:
    m = report["machine"]
    proto = report["protocol"]
    lines = [f"# GPU backend matrix through the compile farm — {report['date']}", "",
             f"Measured on: {m.get('gpu', '?')}; {m['platform']}; Python {m['python']}; CuPy {m.get('cupy', '–')}, "
             f"PyTorch {m.get('torch', '–')}, TVM {m.get('tvm', '–')} (runtime only). Built on "
             f"{report['pack']['build_machine']} (no GPU) for {report['pack']['arch']}, host "
             f"{report['pack']['host']}.",
             f"Command: `{report['command']}`; building {report['build_s']:.0f} s, measuring "
             f"{report['measure_s']:.0f} s.",
             "Devices: " + "; ".join(f"{k}: {v.get('device') or v.get('unavailable')}" for k, v in
                                     report["devices"].items()) + ".",
             f"Protocol (the portal's): {len(proto['seeds'])} input sets x {proto['runs_per_seed']} runs; samples "
             f"of at least {proto['min_sample_s'] * 1e3:g} ms, {proto['min_rounds']}-{proto['max_rounds']} rounds, "
             f"{proto['time_budget_s']:g} s per task.", "",
             "Each bundle was uploaded through the portal's REST API; a build worker on the build machine built "
             "every task (candidates in the sandbox, baselines from our code) into the database; a measurement "
             "worker on the GPU machine (`run_worker`, every kernel in its own sandboxed process, "
             "`Pipeline.measure`) checked and timed them from that database without TVM's compiler or the "
             "pattern files; the results' land jobs ran back on the build machine. Speedups are tvm-default (or "
             "vendor: PyTorch, TF32 off) time / candidate time, medians of per-round ratios.", "",
             "| bundle | submission | state |", "| --- | --- | --- |"]
    for b, s in report["submissions"].items():
        lines.append(f"| {b} | {s['id']} | {s['state']}{': ' + s['error'][:200] if s['error'] else ''} |")
    lines += ["", "Scores are the boards' (over every served task: a task without an entry counts as not correct); "
              "`entries` is how many tasks the bundle has an entry for.", "",
              "| bundle | backend | tasks | entries | Correct@1 | Fast@1.0 | Fast@1.5 | geomean (correct) "
              "| vendor Fast@1.0 |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for b in report["boards"].values():
        s, v = b["summary"], b["summary_vendor"]
        entries = sum(t["status"] != "missing" for t in b["tasks"])
        lines.append(f"| {b['bundle']} | {b['backend']} | {s['tasks']} | {entries} | {s['correct@1']:.3f} "
                     f"| {s['fast@1.0']:.3f} | {s['fast@1.5']:.3f} | {_fmt(s['geomean_correct'])} "
                     f"| {v['fast@1.0']:.3f} |")
    for b in report["boards"].values():
        lines += ["", f"## {b['bundle']} on {b['backend']}", "",
                  "| task | status | candidate µs | tvm-default µs | vendor µs | × tvm-default | × vendor | reason |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- |"]
        for t in b["tasks"]:
            if t["status"] == "missing":
                continue
            times = t.get("times", {})
            us = {k: _fmt(v["median_s"] * 1e6, ".1f") for k, v in times.items()}
            sp = t.get("speedup", {})
            note = printable(t.get("reason", ""))  # a record made before reasons were cleaned may hold any text
            lines.append(f"| {t['workload']} | {t['status']} | {us.get('candidate', '–')} "
                         f"| {us.get('tvm-default', '–')} "
                         f"| {us.get('vendor', '–')} | {_fmt(sp.get('tvm-default'))} | {_fmt(sp.get('vendor'))} "
                         f"| {note[:160].replace('|', '/')} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("pack", help="upload and build here (no GPU needed)")
    a.add_argument("--backends", type=lambda s: s.split(","), default=list(BACKENDS))
    a.add_argument("--tasks", action="append", help="workload glob (repeatable)")
    a.add_argument("--sample", type=int, default=8, help="the suite's deterministic representative sample")
    a.add_argument("--bundles", type=lambda s: s.split(","), default=list(BUNDLES))
    a.add_argument("--per-bundle", type=int, default=4, help="tasks of each source bundle added to the selection")
    a.add_argument("--keep-runtime", action="store_true", help="reuse .gpu/site.tar.xz")
    a.add_argument("--farm", default="farm", help="the farm's folder under .gpu/ (one per chunk of a sweep)")
    a.add_argument("--tasks-file", help="workload ids or globs, one per line (a sweep plan's chunk)")
    a.add_argument("--max-mib", type=int, help="what the farm may hold (default: the carry limit's room)")
    a.add_argument("--timeout", type=float, default=3000)
    a = sub.add_parser("plan", help="split what a whole-suite sweep has left into chunks (tasks files)")
    a.add_argument("--backend", default="cuda", help="cuda, opencl, or both as cuda,opencl")
    a.add_argument("--chunk-mib", type=int, default=24, help="what one chunk's farm may hold")
    a.add_argument("--max-tasks", type=int, default=60,
                   help="tasks in one chunk: its measurement must end within one device call")
    a.add_argument("--again", action="append", help="a measured task to measure again (its baseline changed)")
    a = sub.add_parser("merge", help="one report of a whole-suite sweep from its chunks")
    a.add_argument("--backend", default="cuda", choices=BACKENDS)
    a.add_argument("out")
    a = sub.add_parser("measure", help="serve the queued measurements on this machine's GPU")
    a.add_argument("--out", required=True)
    a.add_argument("--opencl-device", default="NVIDIA", help="substring of the OpenCL device to use")
    a.add_argument("--farm", default="farm", help="the farm's folder under .gpu/")
    a.add_argument("--timeout", type=float, default=480)
    a = sub.add_parser("render", help="land the measured results here and write OUT.json and OUT.md")
    a.add_argument("measured", help="the measure command's --out, fetched back")
    a.add_argument("out")
    a.add_argument("--timeout", type=float, default=600)
    args = p.parse_args(argv)
    commands = {"pack": cmd_pack, "plan": cmd_plan, "merge": cmd_merge, "measure": cmd_measure, "render": cmd_render}
    return commands[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
