"""What produced a result, as the worker that stored it saw it: one description per job,
stored once (:class:`~portal.models.Provenance`) and referenced by every result the job stored.

A one-job evaluation describes itself whole. In the compile farm the build job describes the
build machine (``side="build"``: its host, TVM, compiler and flags, stored with each Build) and
the measurement job the device's machine, with the build's description under ``"build"``.
Collected once per job: a few file reads, ``<cc> --version`` and TVM's own version calls.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import json
import platform
import shutil
import socket
import subprocess
from pathlib import Path

from celery import current_task

import evaluator
from evaluator.backends import c_source
from evaluator.formats import FORMATS
from evaluator.vocabulary import BackendKind
from portal.models import Provenance, Result

# The code that builds, checks and times: its digest names the harness a result came from more
# exactly than the package's version (which a deployment's local change does not bump).
_EVALUATOR = Path(evaluator.__file__).resolve().parent
HARNESS_SOURCES = ("pipeline.py", "records.py", "harness", "sandbox", "backends")


@functools.cache
def harness_digest() -> str:
    """sha256 over the harness's Python sources (path and bytes, in path order)."""
    h = hashlib.sha256()
    for name in HARNESS_SOURCES:
        top = _EVALUATOR / name
        for f in sorted([top] if top.is_file() else top.rglob("*.py")):
            h.update(str(f.relative_to(_EVALUATOR)).encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def protocol_digest(protocol) -> str:
    """sha256 of the protocol's every knob and limit except its seeds (a verified run's are secret)."""
    knobs = {k: v for k, v in protocol.to_json().items() if k != "seeds"}
    return hashlib.sha256(json.dumps(knobs, sort_keys=True).encode()).hexdigest()


@functools.cache
def _tvm() -> dict:
    import tvm  # heavy: imported on use (the worker has it loaded by now)
    from tvm.target import codegen

    try:
        llvm = f"LLVM {codegen.llvm_version_major()}"
    except Exception:  # noqa: BLE001 - a TVM built without LLVM
        llvm = ""
    return {"tvm": tvm.__version__, "tvm_codegen": llvm}


@functools.cache
def _tvm_git() -> str:
    """The commit TVM's library was built from, where the build recorded it (a wheel may not)."""
    from tvm import support  # heavy: imported on use, as in _tvm

    return str(support.libinfo().get("GIT_COMMIT_HASH", "") or "")[:40]


@functools.cache
def _c_compiler() -> str:
    """The first line of ``--version`` of the C compiler c-source entries are built with."""
    cc = next((c for c in c_source.COMPILERS if shutil.which(c)), None)
    if cc is None:
        return ""
    try:
        out = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return cc
    return (out.splitlines() or [cc])[0].strip()[:200]


def _cuda_driver() -> str:
    try:
        lib = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return ""
    v = ctypes.c_int(0)
    if lib.cuDriverGetVersion(ctypes.byref(v)) != 0:
        return ""
    return f"CUDA driver API {v.value // 1000}.{v.value % 1000 // 10}"


def _driver(backend: str) -> str:
    """The device's driver as far as the machine tells: the CUDA driver's API version, the
    OpenCL platform's driver, else the operating system (a CPU's "driver")."""
    if backend in (BackendKind.CUDA, BackendKind.CUDA_EDGE):
        return _cuda_driver() or "unknown CUDA driver"
    if backend == BackendKind.OPENCL:
        try:
            from evaluator.backends.opencl.runtime import runtime  # pyopencl: imported on use

            rt = runtime()
            return f"{rt.platform.version.strip()}; driver {rt.device.driver_version.strip()}"
        except Exception:  # noqa: BLE001 - described as unknown rather than failing the job
            return "unknown OpenCL driver"
    return f"{platform.system()} {platform.release()}"


def _worker() -> str:
    """The Celery node that runs this job ("" on the embedded worker thread)."""
    request = getattr(current_task, "request", None)
    return (getattr(request, "hostname", None) or "") if current_task else ""


def collect(builder, *, secret_seeds: bool = False, side: str = "job") -> dict:
    """The description of this job's machine and software for ``builder`` (a Pipeline, or a farm's
    Builder). ``side``: "job" (built and measured here), "build" or "measure" (the farm's halves:
    a measuring machine reports no compiler; a build machine no device)."""
    target = builder.target()
    out = {
        "hostname": socket.gethostname(),
        "worker": _worker(),
        "backend": builder.name,
        "evaluator": evaluator.__version__,
        "harness_digest": harness_digest(),
        "python": platform.python_version(),
        "target": target,
        **_tvm(),
    }
    if side != "build":
        info = builder.info
        out.update({
            "device": info.device, "arch": info.arch, "driver": _driver(builder.name),
            "platform": platform.platform(),
            "protocol_digest": protocol_digest(builder.protocol),
            "seeds": "secret" if secret_seeds else list(builder.protocol.seeds),
            "sandbox": builder.sandbox.limits.to_json() if builder.sandbox is not None else None,
        })
    if side != "measure":
        flags = {}  # TVM's builds are set by the target; a compiler run by a format has its flags here
        git = _tvm_git()
        compiler = {"tvm": " ".join(x for x in (f"TVM {out['tvm']}", out["tvm_codegen"], git and f"git {git}") if x)}
        if FORMATS["c-source"].takes(builder.name):  # the backends that build c-source entries
            compiler["c"] = _c_compiler()
            flags["c-source"] = [*c_source.FLAGS[:2], *c_source.march(target), *c_source.FLAGS[2:], "-lm",
                                 "-Wl,--no-undefined"]
        out.update({"compiler": compiler, "flags": flags})
    if side == "job":
        out["build"] = None  # built here (the farm's measurement names its build machine's description)
    return out


def of_board(submission_ids, backend: str, track: str, device: str | None = None) -> dict[int, list[dict]]:
    """submission id → the distinct provenance of its results on one board (backend, track and,
    when given, device), each ``{"digest", ...}``: what an export says produced each row. Two
    queries, whatever the number of rows."""
    results = Result.objects.filter(submission_id__in=list(submission_ids), backend=backend, track=track,
                                    provenance__isnull=False)
    if device:
        results = results.filter(device=device)
    pairs = set(results.values_list("submission_id", "provenance_id").distinct())
    data = {p.digest: p.data for p in Provenance.objects.filter(digest__in={d for _, d in pairs})}
    out: dict[int, list[dict]] = {}
    for sid, digest in sorted(pairs):
        out.setdefault(sid, []).append({"digest": digest, **data[digest]})
    return out
