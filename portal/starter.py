"""What a researcher starts from (the API's ``/api/v1/tasks/`` operations, the ``ekb`` client):
finding tasks, one task in full (its spec, canonical TVMScript, NumPy reference and the exact
prompt a model endpoint receives), and a starter bundle of TVM's default schedules.

Only the public workloads this deployment serves (``EKB_TASKS``) are ever looked up here: a
held-out id is answered exactly as an unknown one, so nothing tells the two apart.
"""

from __future__ import annotations

import functools
import io
import json
import stat
import zipfile
from dataclasses import fields

from django.conf import settings
from django.core.exceptions import ValidationError

from evaluator import suite
from evaluator.agents.budget import Budget
from evaluator.agents.prompts import CURRENT, PromptSet
from evaluator.backends import BACKENDS
from evaluator.backends.base import BackendInfo
from evaluator.examples import DEFAULT_BACKENDS, SCHEMA, default_entry
from evaluator.suite import WorkloadDef, sources
from evaluator.vocabulary import BackendKind
from portal import workers

# A starter bundle is made on the request (about 5 ms a task on cpu-llvm, 0.2 s on opencl or for a
# model graph): at most this many tasks, from at most this many globs.
MAX_STARTER_TASKS = 200
MAX_STARTER_GLOBS = 16
MAX_GLOB_CHARS = 200
# where tvm-default entries are defined (cpu-edge's are cpu-llvm's: the same CPU rule set)
STARTER_BACKENDS: tuple[str, ...] = (*DEFAULT_BACKENDS, BackendKind.CPU_EDGE)
MAX_SEARCH_CHARS = 200
# The detail shows the whole canonical TVMScript (the prompt cuts it at 60 000 characters); the
# largest model graph's is far below this.
MAX_SCRIPT_CHARS = 400_000
MAX_REFERENCE_CHARS = 40_000
ZIP_DATE = (2024, 1, 1, 0, 0, 0)  # fixed member times: the same tasks give the same bytes


# --------------------------------------------------------------------------- finding tasks


def served_workload(workload_id: str) -> WorkloadDef | None:
    """The public workload of that id this deployment serves; None for any other id."""
    return next((w for w in suite.served(settings.EKB_TASKS) if w.id == workload_id), None)


def families() -> list[str]:
    return sorted({p.family for p in suite.patterns()})


def dtypes() -> list[str]:
    return sorted({w.dtype for w in suite.workloads()})


def matching_tasks(*, level: str = "", domain: str = "", family: str = "", dtype: str = "",
                   search: str = "") -> list[WorkloadDef]:
    """The served public tasks that pass every filter given; ``search`` is a case-insensitive
    substring of the workload id, its pattern's summary or its source. Every served task is
    evaluated on every served backend, so a backend selects no subset (the view checks it)."""
    needle = search.strip().lower()
    out = []
    for w in suite.served(settings.EKB_TASKS):
        if (level and w.level != level) or (domain and domain not in w.domains) or \
                (family and w.family != family) or (dtype and w.dtype != dtype):
            continue
        if needle and not any(needle in text.lower() for text in (w.id, w.pattern.summary, w.source)):
            continue
        out.append(w)
    return out


# --------------------------------------------------------------------------- one task in full


def backend_info(name: str) -> BackendInfo:
    """The backend as the worker that would prompt a model describes it: a live worker's
    advertisement, else this machine's own view, else just its name."""
    keys = {f.name for f in fields(BackendInfo)}
    for w in workers.live():
        for info in w.backends:
            if info.get("name") == name and info.get("available"):
                return BackendInfo(**{k: v for k, v in info.items() if k in keys})
    if name in BACKENDS:
        return BACKENDS[name]().info()
    return BackendInfo(name, False, "not described by any live worker", "", "")


def task_detail(w: WorkloadDef, *, backend: str, mode: str, prompt_version: str = CURRENT) -> dict:
    """The task as the list shows it, plus its shape parameters, the kernel's signature, the
    canonical TVMScript, the reference's source and the prompt (system and first user message)
    an endpoint submission in ``mode`` gets for it on ``backend``, with the default budget."""
    prompts = PromptSet(prompt_version)
    script = w.canonical_module().script()
    if len(script) > MAX_SCRIPT_CHARS:
        script = script[:MAX_SCRIPT_CHARS] + "\n# … (truncated)"
    described = w.describe()
    described.pop("hidden", None)  # always false here
    return {
        **described,
        "params": {k: v for k, v in w.params.items() if isinstance(v, (int, float, str, bool))},
        "signature": w.signature(),
        "tvmscript": script,
        "reference": sources.reference_text(w.pattern, MAX_REFERENCE_CHARS),
        "prompt": {
            **prompts.describe(), "mode": mode, "backend": backend,
            "messages": [{"role": "system", "content": prompts.system(w, mode)},
                         {"role": "user", "content": prompts.task(w, backend_info(backend), mode, Budget())}],
        },
    }


# --------------------------------------------------------------------------- the starter bundle


def default_starter_backend() -> str:
    """The first backend served here that has tvm-default entries (else cpu-llvm)."""
    return next((b for b in settings.EKB_BACKENDS if b in STARTER_BACKENDS), STARTER_BACKENDS[0])


def starter_tasks(globs: list[str]) -> list[WorkloadDef]:
    """The served public tasks matching any of ``globs``; ValidationError (on ``tasks``) when
    there is no glob, too many, one matches nothing, or more than MAX_STARTER_TASKS match."""
    globs = [g.strip() for g in globs if g.strip()]
    if not globs:
        raise ValidationError({"tasks": ["give at least one workload glob, e.g. tasks=matmul/*"]})
    if len(globs) > MAX_STARTER_GLOBS:
        raise ValidationError({"tasks": [f"{len(globs)} globs; at most {MAX_STARTER_GLOBS}"]})
    long = [g[:40] for g in globs if len(g) > MAX_GLOB_CHARS]
    if long:
        raise ValidationError({"tasks": [f"a glob is at most {MAX_GLOB_CHARS} characters: {g!r}…" for g in long]})
    served = suite.served(settings.EKB_TASKS)
    ids = {w.id for w in served}
    empty = [g for g in globs if not {w.id for w in suite.select([g])} & ids]
    if empty:
        raise ValidationError({"tasks": [f"no public task served here matches {g!r}" for g in empty]})
    chosen = [w for w in served if w.id in {x.id for x in suite.select(globs)}]
    if len(chosen) > MAX_STARTER_TASKS:
        raise ValidationError({"tasks": [f"{len(chosen)} tasks match; a starter bundle holds at most "
                                         f"{MAX_STARTER_TASKS}: narrow the globs"]})
    return chosen


@functools.lru_cache(maxsize=1024)
def _entry(workload_id: str, backend: str) -> tuple[str, str, str] | None:
    # the same workload and backend always give the same text: a repeated request is free
    return default_entry(suite.get_workload(workload_id), backend)


def starter_bundle(globs: list[str], backend: str) -> tuple[str, bytes]:
    """``(file name, .zip bytes)``: a bundle of TVM's default schedule (the ``tvm-default``
    entries, as ``python -m evaluator default-bundle`` writes them) for each task matching
    ``globs`` on ``backend``. Correct everywhere, speedups about 1: a place to start tuning."""
    if backend not in STARTER_BACKENDS:
        raise ValidationError({"backend": [f"no tvm-default entries are defined for backend {backend!r}; "
                                           f"starter bundles exist for {', '.join(STARTER_BACKENDS)}"]})
    entries, members = [], {}
    for w in starter_tasks(globs):
        made = _entry(w.id, backend)
        if made is None:
            continue
        fmt, fname, text = made
        entries.append({"workload": w.id, "backend": backend, "format": fmt, "file": fname})
        members[fname] = text
    manifest = {"schema": SCHEMA, "name": f"starter-{backend}",
                "description": f"TVM's default schedules on {backend} for {len(entries)} tasks: every "
                               "task correct, speedups about 1. Edit the schedules to make them faster.",
                "entries": entries}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in {"manifest.json": json.dumps(manifest, indent=1) + "\n", **members}.items():
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            z.writestr(info, text)
    return f"ekb-starter-{backend}.zip", buf.getvalue()
