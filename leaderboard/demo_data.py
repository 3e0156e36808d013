"""Synthetic but realistic results for demos, screenshots and the latency benchmark — inserted
without evaluating anything, and said to be synthetic in every submission's description.

Each submission has a skill (how often a kernel is correct), a speed (median speedup over
tvm-default when correct) and a coverage (tasks attempted); each board (backend × device) has a
difficulty, and each domain a per-board bias, so the backend × domain matrix shows the pattern
the paper reports: what works on one stack fails on another. Timing and roofline numbers follow
from the workload's FLOP and byte counts and the board's peaks.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from evaluator.backends.peaks import roofline_fraction
from evaluator.vocabulary import BackendKind, Baseline, Status, Track
from portal.models import Result, Submission
from portal.tracks import track_tasks

FAILURES = {
    Status.COMPILE_ERROR: ["schedule error: loop {l} is not found in block {b}",
                      "build error: cannot vectorize a loop with a non-constant extent",
                      "TVMScript error: the signature does not match the workload's",
                      "memory limit of 2048 MiB exceeded (killed by the OOM killer)"],
    Status.WRONG_RESULT: ["{n} of {m} output elements differ (input set 2); worst at (0, {n}): got 0, want 1.25",
                     "the kernel is not deterministic: run 2 differs from run 1 (input set 1)",
                     "the kernel modified its inputs while being timed (x)"],
    Status.RUNTIME_ERROR: ["the kernel process exited with signal 11 (SIGSEGV)",
                      "check failed: out-of-bounds access in the kernel's local buffer"],
    Status.TIMEOUT: ["correctness runs exceeded the 20 s limit", "build exceeded the 60 s limit"],
}


@dataclass
class BoardSpec:
    backend: str
    device: str
    difficulty: float  # 0 (easy) … 1: lowers correctness
    speed_shift: float  # multiplies speedups
    domain_bias: dict[str, float] = field(default_factory=dict)  # domain → correctness shift
    vendor_ratio: float = 0.5  # t_vendor / t_default, typical
    peak_flops: float = 1e11
    peak_bw: float = 2e10


DEMO_BOARDS = [
    BoardSpec(BackendKind.CPU_LLVM, "x86-64 host CPU (AVX2)", 0.15, 1.0, {"language": 0.05, "vision": 0.0},
              0.5, 1.2e11, 3e10),
    BoardSpec(BackendKind.OPENCL, "PoCL on the x86-64 host CPU", 0.35, 0.8, {"vision": -0.15, "audio": 0.05},
              0.6, 1.0e11, 2.5e10),
    BoardSpec(BackendKind.CUDA, "NVIDIA Jetson Orin Nano (sm_87)", 0.4, 1.3,
              {"anomaly-detection": -0.25, "signal-processing": -0.2, "vision": 0.1}, 0.35, 1.2e12, 6.8e10),
    BoardSpec("rpc:rpi4", "Raspberry Pi 4 (Cortex-A72, aarch64)", 0.3, 0.9, {"language": -0.2, "recommendation": -0.15},
              0.7, 1.3e10, 4e9),
]


@dataclass
class Contestant:
    name: str
    team: str
    skill: float  # chance a kernel is correct on an easy board
    speed: float  # median speedup when correct
    coverage: float  # tasks attempted
    traces: bool = False


def contestants(n: int, rng: random.Random) -> list[Contestant]:
    models = ["gpt-5", "claude-4", "gemini-3", "qwen3-coder", "deepseek-v4", "llama-5", "kimi-k3", "mistral-dev"]
    modes = ["direct", "agent", "leka", "tuned"]
    teams = [f"team-{c}" for c in "abcdefghijklmnopqrstuvwxyz"] + [f"lab-{i}" for i in range(1, 200)]
    out = []
    for i in range(n):
        mode = modes[i % len(modes)]
        base = {"direct": 0.45, "agent": 0.6, "leka": 0.7, "tuned": 0.8}[mode]
        out.append(Contestant(
            name=f"{models[i % len(models)]}-{mode}-v{i // len(models) + 1}",  # (model, mode) repeats every 8
            team=teams[rng.randrange(max(1, min(len(teams), n // 3 + 1)))],
            skill=min(0.98, max(0.05, rng.gauss(base, 0.12))),
            speed=math.exp(rng.gauss({"direct": -0.3, "agent": 0.0, "leka": 0.25, "tuned": 0.35}[mode], 0.25)),
            coverage=min(1.0, max(0.3, rng.gauss(0.92, 0.1))),
            traces=mode in ("agent", "leka"),
        ))
    return out


def _ms(w) -> float:
    """A plausible tvm-default time for the workload on a 100 GFLOP/s-ish machine."""
    return max(2e-6, w.flops / 4e10 + w.bytes / 1.5e10)


def result_rows(c: Contestant, spec: BoardSpec, workloads, rng: random.Random, *, track: str = Track.PUBLIC,
                trace_for: set[str] = frozenset()) -> list[dict]:
    """Keyword arguments for ``Result`` rows (without the submission)."""
    rows = []
    peak = {"flops_per_s": spec.peak_flops, "bytes_per_s": spec.peak_bw}
    for w in workloads:
        wrng = random.Random(f"{spec.backend}/{w.id}")  # per board × workload: same for every submission
        t_default = _ms(w) * wrng.uniform(0.5, 2.0) * (1e11 / spec.peak_flops) ** 0.5
        vendor_ratio = spec.vendor_ratio * wrng.uniform(0.4, 2.5) if w.has_vendor else None
        level_penalty = {"L1": 0.0, "L2": 0.1, "L3": 0.25}[w.level]
        p_ok = c.skill - spec.difficulty * 0.6 - level_penalty + max(spec.domain_bias.get(d, 0.0) for d in w.domains)
        record = {"workload": w.id, "backend": spec.backend, "level": w.level, "family": w.family,
                  "domains": list(w.domains), "hidden": w.hidden, "detail": {}, "times": {}, "speedup": {},
                  "roofline_fraction": None, "steps_s": {}, "trace": None, "reason": ""}
        if rng.random() > c.coverage:
            status, reason = Status.MISSING, "no entry for this task in the bundle"
        elif rng.random() < p_ok:
            status, reason = Status.CORRECT, ""
        else:
            status = rng.choices(list(FAILURES), weights=[4, 4, 1.5, 1])[0]
            reason = rng.choice(FAILURES[status]).format(l="i_1", b="C", n=rng.randrange(1, 4096), m=4096)
        time_s = None
        roof = None
        if status == Status.CORRECT:
            s = max(0.05, c.speed * spec.speed_shift * math.exp(rng.gauss(0, 0.45)))
            # never faster than the roofline allows on this board
            t_min = max(w.flops / spec.peak_flops, w.bytes / spec.peak_bw)
            s = min(s, 0.95 * t_default / t_min)
            time_s = t_default / s
            spd = {Baseline.TVM_DEFAULT: s}
            times = {"candidate": time_s, Baseline.TVM_DEFAULT: t_default}
            if vendor_ratio:
                spd[Baseline.VENDOR] = s * vendor_ratio  # t_vendor / t_candidate
                times[Baseline.VENDOR] = t_default * vendor_ratio
            record["speedup"] = spd
            record["times"] = {k: {"median_s": t, "p25_s": t * 0.98, "p75_s": t * 1.02, "min_s": t * 0.97,
                                   "rse": 0.004, "rounds": 40, "number": 20, "spread": 0.04} for k, t in times.items()}
            roof = roofline_fraction(w.flops, w.bytes, time_s, peak)
            record["roofline_fraction"] = roof
            record["steps_s"] = {"build": rng.uniform(0.3, 3), "check": rng.uniform(0.1, 1),
                                 "time": rng.uniform(0.5, 3)}
        record.update(status=status, reason=reason)
        if w.id in trace_for and status != Status.MISSING:
            record["trace"] = synthetic_trace(w, t_default, time_s, status == Status.CORRECT, rng)
        rows.append({"workload": w.id, "backend": spec.backend, "device": spec.device, "track": track,
                     "status": status, "reason": reason, "level": w.level, "domains": list(w.domains),
                     "hidden": w.hidden, "speedup_tvm_default": record["speedup"].get(Baseline.TVM_DEFAULT),
                     "speedup_tvm_tuned": record["speedup"].get(Baseline.TVM_TUNED),
                     "speedup_vendor": record["speedup"].get(Baseline.VENDOR), "time_s": time_s,
                     "roofline_fraction": roof, "record": record})
    return rows


IR_TEMPLATE = """# from tvm.script import tirx as T

@T.prim_func
def main(A: T.Buffer(({m}, {k}), "float32"), B: T.Buffer(({k}, {n}), "float32"), C: T.Buffer(({m}, {n}), "float32")):
    T.func_attr({{"tir.noalias": True}})
{body}"""


def synthetic_trace(w, t_default: float, t_final: float | None, ok: bool, rng: random.Random) -> list[dict]:
    """A layered optimisation trace in the bundle trace format (evaluator.formats.trace)."""
    m, n, k = 128, 512, 128
    steps = [
        ("other", "canonical IR, unscheduled (serial scalar loops)", 8.0,
         "    for i, j, kk in T.grid({m}, {n}, {k}):\n"
         "        with T.sblock(\"C\"):\n"
         "            C[i, j] += A[i, kk] * B[kk, j]"),
        ("schedule", "split j by 16, vectorise the inner loop; fuse (i, j_o) and parallelise", 1.0,
         "    for i_j_o in T.parallel({m} * {n} // 16):\n"
         "        for kk in range({k}):\n"
         "            for j_i in T.vectorized(16):\n"
         "                C[i_j_o // 32, i_j_o % 32 * 16 + j_i] += A[i_j_o // 32, kk] * B[kk, i_j_o % 32 * 16 + j_i]"),
        ("schedule", "register tile 8x32: i split by 8, j by 32, order (i0, j0, k, i1, j1), i1 unrolled", 0.45,
         "    for i0_j0 in T.parallel({m} // 8 * ({n} // 32)):\n"
         "        for kk in range({k}):\n"
         "            for i1 in T.unroll(8):\n"
         "                for j1 in T.vectorized(32):\n"
         "                    C[i0_j0 // 16 * 8 + i1, i0_j0 % 16 * 32 + j1] += "
         "A[i0_j0 // 16 * 8 + i1, kk] * B[kk, i0_j0 % 16 * 32 + j1]"),
        ("memory", "cache_write C to a local 8x32 accumulator; write back with a vectorised loop", 0.38,
         "    for i0_j0 in T.parallel({m} // 8 * ({n} // 32)):\n"
         "        C_local = T.alloc_buffer((8, 32), scope=\"local\")\n"
         "        for kk in range({k}):\n"
         "            for i1 in T.unroll(8):\n"
         "                for j1 in T.vectorized(32):\n"
         "                    C_local[i1, j1] += A[i0_j0 // 16 * 8 + i1, kk] * B[kk, i0_j0 % 16 * 32 + j1]\n"
         "        for i1 in range(8):\n"
         "            for j1 in T.vectorized(32):\n"
         "                C[i0_j0 // 16 * 8 + i1, i0_j0 % 16 * 32 + j1] = C_local[i1, j1]"),
    ]
    final = (t_final or t_default) * 1e3
    out = []
    for i, (layer, change, rel, body) in enumerate(steps):
        lat = t_default * 1e3 * rel if i < len(steps) - 1 else final
        out.append({"step": i, "layer": layer, "change": change, "latency_ms": round(lat * rng.uniform(0.95, 1.05), 5),
                    "correct": True if i < len(steps) - 1 else ok,
                    "ir": IR_TEMPLATE.format(m=m, n=n, k=k, body=body.format(m=m, n=n, k=k))})
    return out


def insert(n_submissions: int, boards: list[BoardSpec], *, seed: int = 1, verified_every: int = 0,
           owner_prefix: str = "", stdout=None, batch: int = 5000) -> list[int]:
    """Create users, finished public submissions and their results; returns submission ids.
    ``verified_every`` > 0: every such n-th submission also gets verified results."""
    rng = random.Random(seed)
    User = get_user_model()
    people = contestants(n_submissions, rng)
    users = {}
    for c in people:
        name = owner_prefix + c.team
        if name not in users:
            users[name], _ = User.objects.get_or_create(username=name)
    public_ws = track_tasks(Track.PUBLIC)
    all_ws = track_tasks(Track.VERIFIED)
    now = timezone.now()
    ids, pending = [], []
    for i, c in enumerate(people):
        verified = verified_every > 0 and i % verified_every == 0
        created = now - timedelta(days=n_submissions - i, hours=rng.randrange(24))
        sub = Submission.objects.create(
            owner=users[owner_prefix + c.team], name=c.name, state=Submission.State.FINISHED,
            description="synthetic demo data (leaderboard.demo_data), not a measured submission",
            backends=[b.backend for b in boards], tasks_total=len(public_ws) * len(boards),
            tasks_done=len(public_ws) * len(boards), created_at=created, started_at=created, finished_at=created,
            verification=Submission.Verification.FINISHED if verified else "",
            verified_at=created if verified else None)
        ids.append(sub.pk)
        traced = {w.id for w in public_ws if w.family in ("matmul", "fused")} if c.traces else set()
        for spec in boards:
            for track, ws in ((Track.PUBLIC, public_ws),) + (((Track.VERIFIED, all_ws),) if verified else ()):
                traces = traced if track == Track.PUBLIC else set()
                for kw in result_rows(c, spec, ws, rng, track=track, trace_for=traces):
                    pending.append({"submission_id": sub.pk, "created_at": created, **kw})
        if len(pending) >= batch:
            store_results(pending)
            pending = []
            if stdout:
                stdout.write(f"  {i + 1}/{n_submissions} submissions")
    store_results(pending)
    # planner statistics for the bulk-loaded tables (autovacuum may lag or be off)
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute(f"ANALYZE {Result._meta.db_table}, {Submission._meta.db_table}")
    return ids


def store_results(rows: list[dict]) -> None:
    """Store ``Result`` rows given as field values (``submission_id`` included): one COPY on
    PostgreSQL — a million seeded results are minutes with it, not the better part of an hour
    of INSERTs — and ``bulk_create`` on any other database."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        Result.objects.bulk_create([Result(**r) for r in rows], batch_size=1000)
        return
    names = list(rows[0])
    fields = [Result._meta.get_field(n) for n in names]  # attnames too: "submission_id"
    as_json = [f.get_internal_type() == "JSONField" for f in fields]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    sql = f"COPY {connection.ops.quote_name(Result._meta.db_table)} ({columns}) FROM STDIN"
    with connection.cursor() as cur, cur.copy(sql) as copy:
        for r in rows:
            copy.write_row([json.dumps(r[n]) if j else r[n] for n, j in zip(names, as_json)])
