"""Raw-source formats: kernel source written directly (OpenCL C, CUDA C, C), not TensorIR.

For models that write kernels instead of schedules. The manifest entry carries a ``launch``
object next to ``file``::

    {"workload": "matmul/matmul@m256n256k256", "backend": "opencl", "format": "opencl-source",
     "file": "matmul.cl",
     "launch": {"entry": "matmul", "args": ["A", "B", "T_matmul"],
                "global": [256, 256], "local": [16, 16]}}

* ``entry``: the kernel (or C function) to call.
* ``args``: the workload's tensor names in the order of the kernel's parameters: every input
  and output exactly once (``GET /api/v1/tasks/`` lists each workload's inputs and outputs).
  Checked against the workload when the entry is built.
* ``opencl-source``: ``global`` (1–3 work-item counts) and ``local`` (the same number of
  work-group sizes, each dividing its global size; or null to let the runtime choose).
* ``cuda-source``: ``grid`` and ``block`` (1–3 sizes each, at most 1024 threads per block) and
  optional ``shared_bytes`` (dynamic shared memory).
* ``c-source``: no sizes; the function is ``void entry(T0* a0, T1* a1, ...)`` with pointer types
  from the tensors' dtypes (inputs ``const``), arrays dense and row-major.
* Optional ``shape_args`` (every raw format): names of the workload's integer parameters
  (``"m"``, ``"n"``, ...), passed as 64-bit integers after the tensors, in that order (C
  ``int64_t``, OpenCL ``long``, CUDA ``long long``/``int64_t``) — what lets one kernel serve every
  shape of a pattern (a ``"pattern"`` entry). Checked against the parameters by the bundle loader.
* A size in ``global``/``local``/``grid``/``block`` may be an integer expression of those
  parameters, as a string (``"ceil_div(m, 16)"``; :mod:`evaluator.formats.launch_expr`),
  evaluated for each workload when it is built.

This module is the static check (safe in the server). Building happens in the build step's
child process, in the sandbox, through the backend's ``build_source``.
"""

from __future__ import annotations

import re
from typing import Any

from evaluator.formats import launch_expr

MAX_CHARS = 1_000_000
MAX_ARGS = 64
MAX_DIM = 2**31 - 1
MAX_BLOCK_THREADS = 1024
MAX_SHARED_BYTES = 228 * 1024  # the largest per-block shared memory of current GPUs
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
TENSOR_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]{0,127}$")

# C scalar type of each tensor dtype, for c-source signatures and messages
C_TYPES = {"float32": "float", "float64": "double", "float16": "_Float16", "int8": "int8_t",
           "uint8": "uint8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t",
           "bool": "bool"}

KEYS = {
    "opencl-source": {"entry", "args", "global", "local", "shape_args"},
    "cuda-source": {"entry", "args", "grid", "block", "shared_bytes", "shape_args"},
    "c-source": {"entry", "args", "shape_args"},
}
MAX_SHAPE_ARGS = 16
# The launch key under which the evaluator hands the build step the workload's integer
# parameters (never written by a submitter: the manifest's launch keys are checked above).
BOUND_PARAMS = "workload_params"


def check_text(kind: str):
    def check(text: str) -> list[str]:
        errors = []
        if not text.strip():
            errors.append(f"the {kind} file is empty")
        if len(text) > MAX_CHARS:
            errors.append(f"the {kind} file has {len(text)} characters; the limit is {MAX_CHARS}")
        return errors

    return check


SIZE_KEYS = {"opencl-source": ("global", "local"), "cuda-source": ("grid", "block")}


def _sizes(launch: dict, key: str, errors: list[str], *, optional: bool = False) -> list | None:
    """A size list as given: numbers (range-checked) and expressions (parsed), or None."""
    if key not in launch or (optional and launch[key] is None):
        if not optional:
            errors.append(f"missing {key!r} (a list of 1 to 3 positive integers or size expressions)")
        return None
    v = launch[key]
    if not isinstance(v, list) or not 1 <= len(v) <= 3:
        errors.append(f"{key!r} must be a list of 1 to 3 sizes, got {v!r:.80}")
        return None
    out = []
    for x in v:
        if isinstance(x, str):
            try:
                out.append(launch_expr.parse(x))
            except launch_expr.LaunchExprError as e:
                errors.append(f"{key!r}: {e}")
                return None
        elif isinstance(x, int) and not isinstance(x, bool):
            if not 1 <= x <= MAX_DIM:
                errors.append(f"{key!r} sizes must be between 1 and {MAX_DIM}, got {v}")
                return None
            out.append(x)
        else:
            errors.append(f"{key!r} must hold integers or size expressions (strings), got {x!r:.40}")
            return None
    return out


def _concrete(sizes: list | None) -> list[int] | None:
    return sizes if sizes is not None and all(isinstance(x, int) for x in sizes) else None


def _check_sizes(fmt: str, errors: list[str], sizes: dict[str, list | None]) -> None:
    """What can be said of the sizes once they are numbers (at once, or per workload at build)."""
    if fmt == "opencl-source":
        glob, local = sizes["global"], sizes["local"]
        if glob and local:
            if len(local) != len(glob):
                errors.append(f"'local' has {len(local)} dimensions but 'global' has {len(glob)}")
            elif _concrete(glob) and _concrete(local) and any(g % lo for g, lo in zip(glob, local)):
                errors.append(f"each 'local' size must divide its 'global' size: global {glob}, local {local}")
    elif fmt == "cuda-source":
        block = _concrete(sizes["block"])
        if block:
            threads = 1
            for b in block:
                threads *= b
            if threads > MAX_BLOCK_THREADS:
                errors.append(f"'block' {block} has {threads} threads; the limit is {MAX_BLOCK_THREADS}")


def check_launch_for(fmt: str):
    allowed = KEYS[fmt]

    def check_launch(launch: Any) -> list[str]:
        if launch is None:
            return [f"a {fmt} entry needs a 'launch' object ({', '.join(sorted(allowed))})"]
        if not isinstance(launch, dict):
            return [f"must be a JSON object, got {type(launch).__name__}"]
        errors = [f"unknown key {k!r} (allowed: {', '.join(sorted(allowed))})" for k in launch if k not in allowed]
        entry = launch.get("entry")
        if not isinstance(entry, str) or not IDENT.match(entry):
            errors.append(f"'entry' must be a C identifier of at most 64 characters, got {entry!r:.80}")
        args = launch.get("args")
        if not isinstance(args, list) or not 1 <= len(args) <= MAX_ARGS:
            errors.append(f"'args' must be a list of 1 to {MAX_ARGS} tensor names")
        else:
            bad = [a for a in args if not isinstance(a, str) or not TENSOR_NAME.match(a)]
            if bad:
                errors.append(f"'args' holds invalid tensor names: {bad[:5]!r:.200}")
            elif len(set(args)) != len(args):
                errors.append("'args' names a tensor more than once")
        if "shape_args" in launch and "shape_args" in allowed:
            errors += _check_shape_args(launch["shape_args"])
        if fmt in SIZE_KEYS:
            first, second = SIZE_KEYS[fmt]
            sizes = {first: _sizes(launch, first, errors),
                     second: _sizes(launch, second, errors, optional=fmt == "opencl-source")}
            _check_sizes(fmt, errors, sizes)
        if fmt == "cuda-source":
            shared = launch.get("shared_bytes", 0)
            if not isinstance(shared, int) or isinstance(shared, bool) or not 0 <= shared <= MAX_SHARED_BYTES:
                errors.append(f"'shared_bytes' must be an integer from 0 to {MAX_SHARED_BYTES}")
        return errors

    return check_launch


def _expressions(launch: dict) -> list[str]:
    return [x for key in ("global", "local", "grid", "block") for x in launch.get(key) or () if isinstance(x, str)]


def size_names(launch: Any) -> set[str]:
    """The shape parameters a checked launch's size expressions read."""
    names: set[str] = set()
    for x in _expressions(launch) if isinstance(launch, dict) else ():
        names |= launch_expr.parse(x).names
    return names


def _check_shape_args(names: Any) -> list[str]:
    """The form of ``shape_args``; which names a workload has is the bundle loader's check."""
    if not isinstance(names, list) or not 1 <= len(names) <= MAX_SHAPE_ARGS:
        return [f"'shape_args' must be a list of 1 to {MAX_SHAPE_ARGS} parameter names, got {names!r:.80}"]
    bad = [n for n in names if not isinstance(n, str) or not IDENT.match(n)]
    if bad:
        return [f"'shape_args' holds invalid parameter names: {bad[:5]!r:.200}"]
    if len(set(names)) != len(names):
        return ["'shape_args' names a parameter more than once"]
    return []


def int_params(params: dict) -> dict[str, int]:
    """The integer parameters of a workload (shape sizes; not dtypes, tuples or flags)."""
    return {k: v for k, v in params.items() if isinstance(v, int) and not isinstance(v, bool)}


def bind_shape(launch: dict | None, params: dict) -> dict | None:
    """The launch the build step gets for one workload: with ``shape_args`` or size expressions,
    the workload's integer parameters go along (:data:`BOUND_PARAMS`); any other launch is passed
    on unchanged."""
    if not launch or ("shape_args" not in launch and not _expressions(launch)):
        return launch
    return {**launch, BOUND_PARAMS: int_params(params)}


def resolve_sizes(fmt: str, launch: dict) -> dict:
    """The launch with every size a number for the workload in :data:`BOUND_PARAMS`, checked as a
    launch of numbers is; ValueError naming the expression and what is wrong."""
    if fmt not in SIZE_KEYS:
        return launch
    bound = launch.get(BOUND_PARAMS)
    out = dict(launch)
    for key in SIZE_KEYS[fmt]:
        sizes = launch.get(key)
        if not sizes:
            continue
        values = []
        for x in sizes:
            if isinstance(x, str):
                if not isinstance(bound, dict):
                    raise ValueError(f"launch {key!r} holds expressions but the workload's parameters were not given "
                                     "to the build")
                v = launch_expr.evaluate(launch_expr.parse(x), bound)
                if not 1 <= v <= MAX_DIM:
                    raise ValueError(f"launch {key!r}: {x!r} is {v} for this workload "
                                     f"({_shape_text(bound)}); a size must be between 1 and {MAX_DIM}")
                values.append(v)
            else:
                values.append(x)
        out[key] = values
    errors: list[str] = []
    first, second = SIZE_KEYS[fmt]
    _check_sizes(fmt, errors, {first: out.get(first), second: out.get(second)})
    if errors:
        where = f" for this workload ({_shape_text(bound)})" if isinstance(bound, dict) else ""
        raise ValueError(f"launch{where}: " + "; ".join(errors))
    return out


def _shape_text(bound: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(bound.items()))


def shape_values(launch: dict) -> list[int]:
    """The values of ``shape_args`` for this workload, in order; ValueError naming what is missing."""
    names = launch.get("shape_args") or []
    if not names:
        return []
    bound = launch.get(BOUND_PARAMS)
    if not isinstance(bound, dict):
        raise ValueError("launch 'shape_args' is set but the workload's parameters were not given to the build")
    missing = [n for n in names if n not in bound]
    if missing:
        raise ValueError(f"launch 'shape_args' names {missing}, which this workload does not have as integer "
                         f"parameters; its integer parameters are {sorted(bound)}")
    return [int(bound[n]) for n in names]


def bind_args(launch: dict, tensors: list[dict]) -> list[dict]:
    """The workload's tensors in the kernel's parameter order; ValueError naming the mismatch."""
    by_name = {t["name"]: t for t in tensors}
    args = launch["args"]
    unknown = [a for a in args if a not in by_name]
    missing = [t["name"] for t in tensors if t["name"] not in args]
    if unknown or missing:
        parts = []
        if unknown:
            parts.append(f"unknown tensors {unknown}")
        if missing:
            parts.append(f"missing tensors {missing}")
        raise ValueError(f"launch 'args' do not match the workload's signature ({'; '.join(parts)}); "
                         f"the signature is {[t['name'] for t in tensors]}")
    return [by_name[a] for a in args]
