"""``c-source`` on ``cpu-llvm``: a C function compiled by the system C compiler, called via ctypes.

Build (in the sandboxed build step): the entry's prototype, derived from the launch's ``args``
and the workload's dtypes (inputs ``const``), is force-included before the source, so a
definition with other parameter types or count fails to compile with the compiler's own
"conflicting types" message; a second translation unit takes the entry's address, so a missing
definition fails to link. Flags, and why:

* ``-O3 -march=<the backend's x86-64 level>``: the optimisation level and ISA TVM's own builds
  get (``host_target``), so C and TVM kernels meet on equal terms; never ``-march=native``.
* ``-fopenmp``: the baseline is parallel over every core; ``#pragma omp parallel for`` gives C
  the same. ``OMP_WAIT_POLICY=PASSIVE`` at load time keeps idle OpenMP threads from spinning on
  the cores the interleaved baseline runs on next.
* ``-fno-math-errno``: ``sqrtf`` and friends compile to instructions (TVM never sets errno);
  no ``-ffast-math``, which would change results (reassociation, NaN handling) behind the
  author's back — a kernel can opt in per function.
* ``-Werror=implicit-function-declaration``, ``-Wl,--no-undefined``: an undeclared or missing
  function is a build error here, not a crash when the library is loaded.

The compiler runs with a wall-clock limit, a CPU-time limit and a file-size limit, and the
library's size is checked. The artifact is the library plus a sidecar ``<library>.json`` naming
the entry, which harness tensor goes to each parameter and the values of the launch's
``shape_args`` (the workload's parameters, passed as ``int64_t`` after the tensors). An artifact
is built for one workload, so its shape values are fixed when it is built.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from evaluator.backends.base import Kernel
from evaluator.formats.raw_source import bind_args, shape_values

FORMAT = "edgekernelbench/c-source-artifact"
# gcc before cc: Debian's cc is a link through /etc/alternatives, which the sandbox does not show
COMPILERS = ("gcc", "cc", "clang")
COMPILE_S = 30  # wall-clock limit of one compile
COMPILE_CPU_S = 60
MAX_LIBRARY_BYTES = 16 << 20
MAX_MESSAGE_CHARS = 3000
# every compile's flags, around the ISA flags (``march``); what a result's provenance reports
FLAGS = ("-std=gnu11", "-O3", "-fPIC", "-shared", "-fopenmp", "-fno-math-errno",
         "-Werror=implicit-function-declaration")
C_TYPES = {"float32": "float", "float64": "double", "float16": "_Float16", "int8": "int8_t",
           "uint8": "uint8_t", "int16": "int16_t", "uint16": "uint16_t", "int32": "int32_t",
           "uint32": "uint32_t", "int64": "int64_t", "uint64": "uint64_t", "bool": "bool"}


def march(target: dict) -> list[str]:
    """Compiler ISA flags for a cpu-llvm target (the same level TVM builds for)."""
    mcpu = target.get("mcpu", "")
    if mcpu.startswith("x86-64"):
        return [f"-march={mcpu}"]
    if "aarch64" in target.get("mtriple", ""):
        return ["-march=armv8-a"]
    return []


def prototype(entry: str, bound: list[dict], n_shape: int = 0) -> str:
    """The entry's C signature: a pointer per tensor (inputs const), then ``n_shape`` int64_t."""
    params = []
    for t in bound:
        ctype = C_TYPES.get(t["dtype"])
        if ctype is None:
            raise ValueError(f"tensor {t['name']!r} has dtype {t['dtype']}, which c-source does not support")
        params.append(f"{'const ' if t['role'] == 'input' else ''}{ctype}*")
    params += ["int64_t"] * n_shape
    return f"void {entry}({', '.join(params)})"


def sidecar(path: str) -> Path:
    return Path(path + ".json")


def is_artifact(path: str) -> bool:
    return sidecar(path).is_file()


def build(source: str, launch: dict, tensors: list[dict], path: str, isa_flags: list[str]) -> None:
    """Compile ``source`` into the library ``path``; ValueError with the compiler's message."""
    compiler = next((c for c in COMPILERS if shutil.which(c)), None)
    if compiler is None:
        raise ValueError(f"no C compiler ({', '.join(COMPILERS)}) on this machine: c-source entries cannot "
                         "be built here")
    entry = launch["entry"]
    bound = bind_args(launch, tensors)
    shape = shape_values(launch)
    proto = prototype(entry, bound, len(shape))
    with tempfile.TemporaryDirectory(prefix="ekb-cc-") as d:
        work = Path(d)
        (work / "kernel.c").write_text(source, encoding="utf-8")
        (work / "prototype.h").write_text(
            "#include <stdbool.h>\n#include <stdint.h>\n"
            f"/* the signature launch 'args' (and 'shape_args') give the entry */\n{proto};\n")
        # takes the entry's address: a source without the function fails to link
        (work / "anchor.c").write_text(f"void *const ekb_entry_anchor = (void *){entry};\n")
        lib = work / "kernel.so"
        cmd = [compiler, *FLAGS[:2], *isa_flags, *FLAGS[2:], "-include", "prototype.h",
               "kernel.c", "anchor.c", "-o", lib.name, "-lm", "-Wl,--no-undefined"]
        out = _run(cmd, work)
        if out is not None:
            raise ValueError(_explain(out, entry, proto, launch.get("shape_args") or []))
        size = lib.stat().st_size
        if size > MAX_LIBRARY_BYTES:
            raise ValueError(f"the compiled library is {size >> 20} MiB; the limit is {MAX_LIBRARY_BYTES >> 20} MiB")
        shutil.copyfile(lib, path)
    position = {t["name"]: i for i, t in enumerate(tensors)}
    sidecar(path).write_text(json.dumps({"format": FORMAT, "version": 1, "entry": entry,
                                         "args": [t["name"] for t in bound],
                                         "order": [position[t["name"]] for t in bound],
                                         "shape_args": list(launch.get("shape_args") or []), "shape": shape}))


def _limits() -> None:  # in the compiler's process, before exec
    resource.setrlimit(resource.RLIMIT_CPU, (COMPILE_CPU_S, COMPILE_CPU_S))
    resource.setrlimit(resource.RLIMIT_FSIZE, (2 * MAX_LIBRARY_BYTES, 2 * MAX_LIBRARY_BYTES))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _run(cmd: list[str], cwd: Path) -> str | None:
    """None when the compiler succeeds, else what it said (or which limit stopped it)."""
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            preexec_fn=_limits, start_new_session=True,
                            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C",
                                 "TMPDIR": os.environ.get("TMPDIR", tempfile.gettempdir())})
    try:
        text, _ = proc.communicate(timeout=COMPILE_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return f"the C compiler exceeded its {COMPILE_S} s limit"
    if proc.returncode == 0:
        return None
    text = text.decode("utf-8", "replace")
    if proc.returncode in (-signal.SIGXFSZ, 128 + signal.SIGXFSZ) or "File size limit" in text:
        return f"the compiler's output exceeded {2 * MAX_LIBRARY_BYTES >> 20} MiB\n{text}"
    if proc.returncode in (-signal.SIGXCPU, 128 + signal.SIGXCPU):
        return f"the C compiler exceeded its {COMPILE_CPU_S} s CPU-time limit\n{text}"
    return text or f"the C compiler failed with status {proc.returncode}"


def _explain(output: str, entry: str, proto: str, shape_args: list[str]) -> str:
    """The compiler's message, trimmed, with the cause named first where it is ours to name."""
    output = output.strip()
    if len(output) > MAX_MESSAGE_CHARS:
        output = output[:MAX_MESSAGE_CHARS] + " …"
    if re.search(rf"conflicting types for '{re.escape(entry)}'|"
                 rf"static declaration of '{re.escape(entry)}' follows", output):
        shape = f", then int64_t {', '.join(shape_args)} from 'shape_args'" if shape_args else ""
        return (f"the function's signature does not match launch 'args': it must be {proto} "
                f"(inputs const, in the order of 'args'{shape}); the compiler says:\n{output}")
    if re.search(rf"undefined reference to `{re.escape(entry)}'|'{re.escape(entry)}' undeclared", output):
        return f"the source defines no function {entry!r}; the compiler says:\n{output}"
    return f"the C compiler rejected the source:\n{output}"


class CKernel(Kernel):
    """The compiled C function, called with pointers into the harness's own buffers."""

    host = True  # takes the arena's NumPy views directly: no TVM in the kernel's process

    def __init__(self, path: str, doc: dict):
        # libgomp reads this once, when it is loaded with the first C kernel
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        self.lib = ctypes.CDLL(os.path.abspath(path))
        self.fn = getattr(self.lib, doc["entry"])
        self.fn.restype = None
        self.shape = list(doc.get("shape", []))  # the workload's shape_args values, after the tensors
        self.fn.argtypes = [ctypes.c_void_p] * len(doc["order"]) + [ctypes.c_int64] * len(self.shape)
        self.order = list(doc["order"])

    def _arguments(self, inputs, outputs) -> list[int]:
        tensors = list(inputs) + list(outputs)
        pointers = [t.ctypes.data if hasattr(t, "ctypes") else t.data_ptr() for t in (tensors[i] for i in self.order)]
        return pointers + self.shape

    def __call__(self, inputs, outputs):
        self.fn(*self._arguments(inputs, outputs))
        return list(outputs)

    def timer(self, inputs, outputs, number):
        fn, args = self.fn, self._arguments(inputs, outputs)

        def run() -> float:
            t0 = time.perf_counter()
            for _ in range(number):
                fn(*args)
            return (time.perf_counter() - t0) / number

        return run


def load(path: str) -> CKernel:
    doc = json.loads(sidecar(path).read_text())
    shape = doc.get("shape", [])
    if (doc.get("format") != FORMAT or not isinstance(doc.get("order"), list) or not isinstance(shape, list)
            or not all(type(v) is int and -(1 << 63) <= v < (1 << 63) for v in shape)):
        raise ValueError(f"{sidecar(path).name}: not a c-source artifact description")
    return CKernel(path, doc)
