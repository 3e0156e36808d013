"""Leaderboard latency: the board page and API under seeded data in PostgreSQL.

Seeds 1,000 finished public submissions × every workload × 2 backends (synthetic results from
``leaderboard.demo_data``; every 10th submission also verified, hidden workloads included),
rebuilds the precomputed boards, then serves the portal with gunicorn on loopback and measures:

* p50/p95 latency of sequential requests (one at a time, so the number is the server's own
  time plus loopback) for the board page and the board API, unfiltered and filtered;
* requests/s under concurrent load with ``wrk`` (Debian package, installed by ``make bench-system``);
* what keeping the boards current costs: one result landing (``aggregates.result_landed``) and a
  full ``rebuild_boards``.

    python bench/leaderboard_latency.py [--submissions 1000] [--requests 300] [--reuse | --seed-only]

``--seed-only`` seeds and rebuilds, and leaves its figures (seconds, counts) in the portal's var
directory for a later ``--reuse`` run on the same database, which measures without seeding again.
Needs PostgreSQL (``--database-url``, default postgres://postgres@127.0.0.1:5432/ekb_bench_boards;
the database is created if missing and its tables replaced). Results go to bench/results/.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BACKENDS = ("cpu-llvm", "opencl")
URLS = {
    "page: board": "/",
    "page: L1 · vision": "/?level=L1&domain=vision",
    "page: vs vendor, Fast@1.5, best per team": "/?baseline=vendor&p=1.5&view=best",
    "page: opencl, verified": "/?backend=opencl&track=verified",
    "api: board": "/api/v1/leaderboard/",
    "api: L1 · vision": "/api/v1/leaderboard/?level=L1&domain=vision",
    "api: vs vendor, Fast@1.5, best per team": "/api/v1/leaderboard/?baseline=vendor&p=1.5&view=best",
    "api: opencl, verified": "/api/v1/leaderboard/?backend=opencl&track=verified",
    "api: export.csv (all rows)": "/api/v1/leaderboard/export.csv",
}


def ensure_database(url: str) -> None:
    import psycopg

    m = re.match(r"postgres(?:ql)?://(?P<auth>[^@]*@)?(?P<host>[^:/]+)(?::(?P<port>\d+))?/(?P<db>\w+)$", url)
    if not m:
        raise SystemExit(f"--database-url must look like postgres://user@host:port/name; got {url!r}")
    user = (m["auth"] or "postgres@")[:-1].split(":")[0]
    with psycopg.connect(host=m["host"], port=int(m["port"] or 5432), user=user, dbname="postgres",
                         autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (m["db"],)).fetchone():
            conn.execute(f'CREATE DATABASE "{m["db"]}"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    k = (len(xs) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def seed(n: int, say) -> dict:
    from django.core.management import call_command
    from django.db import connection

    from leaderboard import aggregates, demo_data
    from portal.models import Result

    call_command("flush", "--noinput", verbosity=0)
    specs = [s for s in demo_data.DEMO_BOARDS if s.backend in BACKENDS]
    # Wall seconds, and this process's CPU seconds (what a shared or paused machine does not inflate)
    t0, c0 = time.perf_counter(), time.process_time()
    demo_data.insert(n, specs, seed=2026, verified_every=10, stdout=None)
    seeded, seeded_cpu = time.perf_counter() - t0, time.process_time() - c0
    results = Result.objects.count()
    say(f"seeded {n} submissions, {results} results in {seeded:.0f} s")
    t0, c0 = time.perf_counter(), time.process_time()
    counts = aggregates.rebuild()
    rebuilt, rebuilt_cpu = time.perf_counter() - t0, time.process_time() - c0
    say(f"rebuilt the boards: {counts['entries']} entries in {rebuilt:.0f} s")
    t0 = time.perf_counter()
    with connection.cursor() as cur:  # statistics of the rebuilt tables too: measure a database the planner knows
        cur.execute("ANALYZE")
    analyzed = time.perf_counter() - t0
    return {"submissions": n, "results": results, "seed_s": seeded, "rebuild_s": rebuilt, "analyze_s": analyzed,
            "seed_cpu_s": seeded_cpu, "rebuild_cpu_s": rebuilt_cpu, **counts,
            "at": time.strftime("%Y-%m-%d %H:%M:%S %z"), "load_average": os.getloadavg()}


def seeding_file(database_url: str) -> Path:
    """Where a seeding run leaves its figures for later ``--reuse`` runs on the same database
    (the portal's var directory: machine state, not a result)."""
    from django.conf import settings

    return Path(settings.VAR_DIR) / "bench" / f"leaderboard_latency-{database_url.rsplit('/', 1)[-1]}.seeding.json"


def recorded_seeding(database_url: str, results: int) -> dict | None:
    """The seeding figures of the run that filled this database, if they describe what is in it."""
    try:
        rec = json.loads(seeding_file(database_url).read_text())
    except (OSError, ValueError):
        return None
    return rec if rec.get("results") == results else None


def _landing_results(k: int, rng) -> list:
    """``k`` random stored results of ranked submissions on the measured board (cpu-llvm, public),
    picked by submission and task rather than ORDER BY random() over a million rows."""
    from evaluator import suite
    from portal.models import Result, Submission

    sids = list(Submission.objects.filter(public=True, state=Submission.State.FINISHED).values_list("id", flat=True))
    tasks = [w.id for w in suite.workloads()]
    out = []
    for _ in range(10 * k):
        r = Result.objects.filter(submission_id=rng.choice(sids), workload=rng.choice(tasks), backend="cpu-llvm",
                                  track="public").first()
        if r is not None:
            out.append(r)
        if len(out) == k:
            break
    return out


def refresh_cost(k: int = 40) -> dict:
    """Seconds for one result landing (what an evaluation adds per stored result)."""
    import random

    from leaderboard import aggregates

    times = []
    for r in _landing_results(k, random.Random(7)):
        t0 = time.perf_counter()
        aggregates.result_landed(r)
        times.append(time.perf_counter() - t0)
    return {"n": len(times), "p50_ms": statistics.median(times) * 1e3, "p95_ms": percentile(times, 0.95) * 1e3,
            "max_ms": max(times) * 1e3}


class Landings:
    """Results landing between reads: each ``land()`` stores again (``aggregates.result_landed``)
    a random result of a ranked submission on the measured board — what an evaluation's worker
    does — so the touched rows are replaced and every gunicorn worker's decoded copy of them is
    out of date for its next read."""

    def __init__(self, k: int):
        import random

        self.pending = _landing_results(k, random.Random(11))

    def land(self) -> None:
        from leaderboard import aggregates

        aggregates.result_landed(self.pending.pop())


COLD = {"page: board, first read after a result landed": "/",
        "api: board, first read after a result landed": "/api/v1/leaderboard/"}


def measure(base: str, n: int, cold_n: int) -> dict:
    out = {}
    landings = Landings(cold_n * len(COLD))
    for label, path in list(URLS.items()) + list(COLD.items()):
        cold = label in COLD
        for _ in range(10):  # warm-up: connections, caches, the suite import in each worker
            urllib.request.urlopen(base + path, timeout=30).read()
        times, size = [], 0
        for _ in range(cold_n if cold else n):
            if cold:
                landings.land()
            t0 = time.perf_counter()
            with urllib.request.urlopen(base + path, timeout=30) as resp:
                body = resp.read()
                assert resp.status == 200, (path, resp.status)
            times.append(time.perf_counter() - t0)
            size = len(body)
        out[label] = {"path": path, "n": len(times), "bytes": size, "p50_ms": percentile(times, 0.5) * 1e3,
                      "p95_ms": percentile(times, 0.95) * 1e3, "mean_ms": statistics.mean(times) * 1e3}
    return out


def load(base: str, duration: int, connections: int) -> dict:
    wrk = shutil.which("wrk")
    if not wrk:
        return {"error": "wrk is not installed (make bench-system installs it)"}
    version = subprocess.run([wrk, "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    out = {"tool": version.strip(), "duration_s": duration, "connections": connections, "threads": 2}
    for label in ("page: board", "api: board"):
        run = subprocess.run([wrk, "-t2", f"-c{connections}", f"-d{duration}s", "--latency", base + URLS[label]],
                             capture_output=True, text=True, timeout=duration + 60)
        text = run.stdout
        rps = re.search(r"Requests/sec:\s+([\d.]+)", text)
        p50 = re.search(r"50%\s+([\d.]+)(us|ms|s)", text)
        p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", text)
        non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)

        def ms(m):
            return float(m[1]) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[m[2]] if m else None

        out[label] = {"requests_per_s": float(rps[1]) if rps else None, "p50_ms": ms(p50), "p99_ms": ms(p99),
                      "non_2xx": int(non2xx[1]) if non2xx else 0}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/ekb_bench_boards")
    ap.add_argument("--submissions", type=int, default=1000)
    ap.add_argument("--requests", type=int, default=300, help="sequential requests per URL")
    ap.add_argument("--workers", type=int, default=2, help="gunicorn worker processes (one per core)")
    ap.add_argument("--load-seconds", type=int, default=20)
    ap.add_argument("--connections", type=int, default=8)
    ap.add_argument("--reuse", action="store_true", help="keep the seeded database of an earlier run")
    ap.add_argument("--seed-only", action="store_true",
                    help="seed and rebuild the boards, record the seeding figures for a later --reuse run, stop")
    ap.add_argument("--out", default=str(REPO / "bench" / "results"))
    args = ap.parse_args()
    if not 1 <= args.submissions <= 20000 or not 10 <= args.requests <= 10000 or not 1 <= args.load_seconds <= 300:
        raise SystemExit("--submissions 1…20000, --requests 10…10000, --load-seconds 1…300")

    ensure_database(args.database_url)
    env = {**os.environ, "DATABASE_URL": args.database_url, "DJANGO_SECRET_KEY": os.environ.get(
        "DJANGO_SECRET_KEY", "bench-only-secret"), "EKB_BACKENDS": ",".join(BACKENDS),
        "CELERY_BROKER_URL": os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/14"),
        "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "0", "EKB_SECURE_COOKIES": "0"}
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    from evaluator import suite
    from leaderboard.models import BoardEntry
    from portal.models import Result, Submission

    def say(m):
        print(m, flush=True)

    call_command("migrate", verbosity=0)
    if args.seed_only:
        seeded = seed(args.submissions, say)
        path = seeding_file(args.database_url)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(seeded, indent=1) + "\n")
        say(f"seeding figures written to {path}; measure with --reuse")
        return
    seeded = None
    if args.reuse and Submission.objects.count() == args.submissions:
        seeded = recorded_seeding(args.database_url, Result.objects.count())
        if seeded is None:
            say("reusing the seeded database; no seeding figures recorded for it (seed with --seed-only)")
    else:
        seeded = seed(args.submissions, say)
    refresh = refresh_cost()
    say(f"one result landing refreshes its boards in {refresh['p50_ms']:.0f} ms (median)")

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    gunicorn = Path(sys.executable).with_name("gunicorn")
    server = subprocess.Popen([str(gunicorn), "config.wsgi", "-w", str(args.workers), "-b", f"127.0.0.1:{port}",
                               "--log-level", "warning"], cwd=REPO, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/api/v1/leaderboard/boards/", timeout=5).read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("gunicorn did not come up")
                time.sleep(0.5)
        say(f"measuring {len(URLS)} URLs × {args.requests} sequential requests …")
        load_before = os.getloadavg()
        latency = measure(base, args.requests, max(10, args.requests // 5))
        for label, m in latency.items():
            say(f"  {label:45s} p50 {m['p50_ms']:6.1f} ms  p95 {m['p95_ms']:6.1f} ms  ({m['bytes'] // 1024} KiB)")
        say(f"load: wrk, {args.connections} connections, {args.load_seconds} s per URL …")
        loaded = load(base, args.load_seconds, args.connections)
        for label in ("page: board", "api: board"):
            if label in loaded:
                say(f"  {label}: {loaded[label]['requests_per_s']} requests/s")
        load_after = os.getloadavg()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)

    import django as dj
    import gunicorn as gu

    pages = [m for k, m in latency.items() if k.startswith("page") and k not in COLD]
    apis = [m for k, m in latency.items() if k.startswith("api: ") and "export" not in k and k not in COLD]
    cold = {k: latency[k] for k in COLD}
    report = {
        "benchmark": "leaderboard_latency", "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "command": "python bench/leaderboard_latency.py " + " ".join(sys.argv[1:]),
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count(), "python": platform.python_version(),
                    "processor": platform.processor() or platform.machine()},
        "software": {"django": dj.__version__, "gunicorn": gu.__version__, "gunicorn_workers": args.workers,
                     "postgresql": _pg_version()},
        "load_average": {"before": load_before, "after": load_after},
        "data": {"submissions": Submission.objects.count(), "backends": list(BACKENDS),
                 "public_workloads": len(suite.workloads()), "all_workloads": len(suite.workloads(True)),
                 "results": Result.objects.count(),
                 "public_results": Result.objects.filter(track="public").count(),
                 "board_entries": BoardEntry.objects.count(), "seeding": seeded},
        "refresh_per_result": refresh,
        "latency": latency,
        "summary": {"page_p50_ms": max(m["p50_ms"] for m in pages), "page_p95_ms": max(m["p95_ms"] for m in pages),
                    "api_p50_ms": max(m["p50_ms"] for m in apis), "api_p95_ms": max(m["p95_ms"] for m in apis),
                    "after_a_result_landed": {k: {"p50_ms": m["p50_ms"], "p95_ms": m["p95_ms"]}
                                              for k, m in cold.items()},
                    "targets": {"api_p95_ms": 100, "page_p95_ms": 200}},
        "load": loaded,
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"leaderboard_latency-{time.strftime('%Y-%m-%d')}"
    stem.with_suffix(".json").write_text(json.dumps(report, indent=1) + "\n")
    stem.with_suffix(".md").write_text(markdown(report))
    say(f"written {stem}.json and .md")


def _pg_version() -> str:
    from django.db import connection

    with connection.cursor() as c:
        c.execute("SHOW server_version")
        return c.fetchone()[0]


def markdown(r: dict) -> str:
    s = r["summary"]
    d = r["data"]
    seeding = d["seeding"]
    lines = [
        f"# Leaderboard latency — {r['date']}", "",
        f"`{r['command']}` on {r['machine']['cpus']} CPUs ({r['machine']['processor']}), "
        f"PostgreSQL {r['software']['postgresql']}, gunicorn {r['software']['gunicorn']} "
        f"({r['software']['gunicorn_workers']} sync workers) on loopback.", "",
        f"Data: {d['submissions']:,} finished public submissions × {d['public_workloads']} public workloads × "
        f"{len(d['backends'])} backends ({d['public_results']:,} public results), every 10th submission also "
        f"verified on all {d['all_workloads']} workloads (held-out ones included): {d['results']:,} results in "
        f"all; {d['board_entries']:,} precomputed board entries.", "",
    ]
    if seeding:
        lines += [f"Seeding ({seeding['at']}, niced; machine load average {seeding['load_average'][0]:.1f} "
                  "at the end): "
                  f"{seeding['results']:,} results inserted in {seeding['seed_s']:.0f} s (COPY); the full rebuild "
                  f"of the boards wrote {seeding['entries']:,} entries in {seeding['rebuild_s']:.0f} s; ANALYZE (this "
                  f"server runs without autovacuum) {seeding.get('analyze_s', 0):.0f} s."
                  + "".join(f" CPU of the bench process, {what}: {seeding[k]:.0f} s." for k, what in
                            (("seed_cpu_s", "seeding"), ("rebuild_cpu_s", "rebuild")) if k in seeding)
                  + (f" {seeding['note']}" if seeding.get("note") else ""), ""]
    else:
        lines += ["Seeding: no figures recorded for this database.", ""]
    cold = s["after_a_result_landed"]
    lines += [
        f"**Worst of the board views: page p50 {s['page_p50_ms']:.1f} ms, p95 {s['page_p95_ms']:.1f} ms "
        f"(target ≤ {s['targets']['page_p95_ms']}); API p50 {s['api_p50_ms']:.1f} ms, p95 {s['api_p95_ms']:.1f} ms "
        f"(target ≤ {s['targets']['api_p95_ms']}). First read after a result landed: "
        + "; ".join(f"{k.split(',')[0]} p50 {m['p50_ms']:.1f} ms, p95 {m['p95_ms']:.1f} ms" for k, m in cold.items())
        + ".**", "",
        "Each worker keeps the decoded entries of the slices it read; a stored entry never changes (a refresh "
        "replaces the rows it rescored with new ones), so a read decodes only the entries it has not seen. "
        "The “first read after a result landed” rows land a real result (`aggregates.result_landed` on a random "
        "stored result of the measured board) right before each request: its submission's rows in the slices "
        "holding that task are replaced, and the read decodes those.", "",
        "| request | p50 ms | p95 ms | mean ms | size KiB |", "| --- | ---: | ---: | ---: | ---: |",
    ]
    for label, m in r["latency"].items():
        lines.append(f"| {label} (`{m['path']}`) | {m['p50_ms']:.1f} | {m['p95_ms']:.1f} | {m['mean_ms']:.1f} | "
                     f"{m['bytes'] / 1024:.0f} |")
    ld = r["load"]
    lines += ["", f"Sequential requests: {next(iter(r['latency'].values()))['n']} per URL after 10 warm-up requests "
                  "(the “after a result landed” rows: fewer, each right after a landing).", ""]
    if "error" in ld:
        lines.append(f"Load test: {ld['error']}")
    else:
        lines += [f"Load ({ld['tool']}, {ld['threads']} threads, {ld['connections']} connections, "
                  f"{ld['duration_s']} s per URL; the load tool shares the 2 cores with the server):", "",
                  "| request | requests/s | p50 ms | p99 ms | non-2xx |", "| --- | ---: | ---: | ---: | ---: |"]
        for label in ("page: board", "api: board"):
            m = ld[label]
            lines.append(f"| {label} | {m['requests_per_s']} | {m['p50_ms']} | {m['p99_ms']} | {m['non_2xx']} |")
    rc = r["refresh_per_result"]
    la = r["load_average"]
    lines += ["", f"Keeping boards current: one result landing refreshes its rows in {rc['p50_ms']:.0f} ms (median of "
                  f"{rc['n']}, p95 {rc['p95_ms']:.0f} ms, max {rc['max_ms']:.0f} ms), rescoring only the slices "
                  "that hold the landed task.", "",
              f"Load average of the machine (1 min) before / after the measurement: {la['before'][0]:.1f} / "
              f"{la['after'][0]:.1f}.", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
