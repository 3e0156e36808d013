"""The one ranking function: every leaderboard page, API response and export calls ``board``.

A board is a backend, optionally narrowed to a level and a domain. Its tasks are the public
workloads in that slice; a submission's row is ``evaluator.scoring.summarize`` over its results
for those tasks, a task without a result counting as missing (wrong). Baseline rows are always
present and marked: ``tvm-default`` (the reference, speedup 1 by definition) and ``vendor``
(its measured times against tvm-default, from the same interleaved runs).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from django.conf import settings

from evaluator import scoring, suite
from portal.models import Result, Submission

SORT_KEYS = ("fast@1.0", "correct@1", "geomean_deployable")


@dataclass
class Row:
    rank: int
    kind: str  # "submission" | "baseline"
    name: str
    summary: dict
    domains: dict[str, float] = field(default_factory=dict)  # domain → Fast@1.0
    submission_id: int | None = None
    owner: str = ""
    created_at: str = ""

    def to_json(self) -> dict:
        return asdict(self)


def board_tasks(level: str | None = None, domain: str | None = None) -> list:
    return [w for w in suite.served(settings.EKB_TASKS)
            if (not level or w.level == level) and (not domain or domain in w.domains)]


def _missing(w, backend: str) -> dict:
    return {"workload": w.id, "backend": backend, "status": "missing", "speedup": {},
            "level": w.level, "domains": list(w.domains)}


def _row(name: str, kind: str, tasks, by_task: dict[str, dict], backend: str, **extra) -> Row:
    records = [by_task.get(w.id) or _missing(w, backend) for w in tasks]
    domains = sorted({d for w in tasks for d in w.domains})
    per_domain = {d: scoring.summarize([r for r, w in zip(records, tasks) if d in w.domains])["fast@1.0"]
                  for d in domains}
    return Row(0, kind, name, scoring.summarize(records), per_domain, **extra)


def _vendor_records(tasks, backend: str) -> dict[str, dict]:
    """Vendor vs tvm-default per task, from the latest result that timed both."""
    out: dict[str, dict] = {}
    ids = [w.id for w in tasks]
    qs = (Result.objects.filter(backend=backend, workload__in=ids, speedup_vendor__isnull=False,
                                speedup_tvm_default__isnull=False, status="correct")
          .order_by("workload", "-created_at").values("workload", "speedup_vendor", "speedup_tvm_default"))
    for r in qs:
        if r["workload"] not in out:
            # speedup_vs_default(vendor) = t_default / t_vendor = s_default / s_vendor
            out[r["workload"]] = {"status": "correct",
                                  "speedup": {"tvm-default": r["speedup_tvm_default"] / r["speedup_vendor"]}}
    return out


def board(backend: str = "cpu-llvm", level: str | None = None, domain: str | None = None) -> list[Row]:
    tasks = board_tasks(level, domain)
    ids = {w.id for w in tasks}
    rows = [
        _row("tvm-default", "baseline", tasks,
             {w.id: {"status": "correct", "speedup": {"tvm-default": 1.0}} for w in tasks}, backend),
        _row("vendor", "baseline", tasks, _vendor_records(tasks, backend), backend),
    ]
    subs = Submission.objects.filter(public=True, state=Submission.State.FINISHED).select_related("owner")
    for sub in (s for s in subs if backend in s.backends):  # JSON containment is not portable to SQLite
        by_task = {r["workload"]: r["record"] for r in
                   Result.objects.filter(submission=sub, backend=backend).values("workload", "record")
                   if r["workload"] in ids}
        rows.append(_row(sub.name, "submission", tasks, by_task, backend, submission_id=sub.pk,
                         owner=sub.owner.username, created_at=sub.created_at.isoformat()))
    rows.sort(key=lambda r: tuple(-(r.summary.get(k) or 0.0) for k in SORT_KEYS))
    for i, r in enumerate(rows, 1):
        r.rank = i
    return rows

