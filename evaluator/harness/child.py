"""The process that touches candidate code: ``python -m evaluator.harness.child STEP REQUEST``.

``build``: lower the submission onto the canonical IR and compile it (parsing TVMScript and
applying schedules can hang or crash, so this never runs in the harness process).
``run``: load the candidate, run the correctness sets, hand the outputs to the parent, and —
only if the parent says the results are right — run the harness's interleaved timing loop.

Messages to the parent are JSON lines on the original stdout; the kernel's own prints are sent
to stderr so they can never forge a message. Commands from the parent arrive on stdin.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback


def _channel():
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # anything the kernel prints goes to stderr
    sys.stdout = sys.stderr
    return out


def _send(chan, **msg) -> None:
    chan.write(json.dumps(msg) + "\n")
    chan.flush()


def _error_text(e: BaseException) -> str:
    from evaluator.ir.layered_trace import _tvm_message

    # our own errors are already one clear sentence; TVM's carry a C++ backtrace to trim
    if isinstance(e, (ValueError, TypeError)) and "Traceback" not in str(e):
        return str(e)[:2000]
    return _tvm_message(e)


def build(req: dict, chan) -> None:
    import tvm

    from evaluator.backends import get_backend
    from evaluator.ir import lower

    backend = get_backend(req["backend"])
    with open(req["canonical"]) as f:
        canonical = tvm.ir.load_json(f.read())
    with open(req["source"], encoding="utf-8") as f:
        source = f.read()
    from evaluator.formats import FORMATS

    if FORMATS[req["format"]].raw:
        t0 = time.perf_counter()
        try:
            backend.build_source(req["format"], source, req["launch"], req["tensors"], req["artifact"])
        except Exception as e:  # noqa: BLE001 - the submission's compile error
            _send(chan, ok=False, stage="build", error=_error_text(e))
            return
        _send(chan, ok=True, lower_s=0.0, build_s=time.perf_counter() - t0, ir=source[:200_000])
        return
    t0 = time.perf_counter()
    try:
        mod = lower.lower(req["format"], source, canonical, default_layers=backend.default_layers)
    except Exception as e:  # noqa: BLE001 - every failure to lower is the submission's compile error
        _send(chan, ok=False, stage="lower", error=str(e)[:4000])
        return
    t1 = time.perf_counter()
    try:
        backend.build(mod, req["artifact"])
    except Exception as e:  # noqa: BLE001
        _send(chan, ok=False, stage="build", error=_error_text(e))
        return
    t2 = time.perf_counter()
    ir = mod.script()
    _send(chan, ok=True, lower_s=t1 - t0, build_s=t2 - t1, ir=ir[:200_000])


def run(req: dict, chan) -> None:
    import numpy as np

    from evaluator.backends import get_backend
    from evaluator.harness import timing

    backend = get_backend(req["backend"])
    graph = req["graph"]
    # The baselines are loaded before any candidate code runs: a candidate that rewrites a
    # baseline's file during its own calls changes nothing.
    baseline = backend.load(req["baseline"], graph) if req.get("baseline") else None
    tuned = backend.load(req["tuned"], graph) if req.get("tuned") else None
    try:
        kernel = backend.load(req["candidate"], graph)
    except Exception as e:  # noqa: BLE001
        _send(chan, phase="error", stage="load", error=_error_text(e))
        return
    out_specs = req["outputs"]
    for k, path in enumerate(req["inputs"]):
        arrays = list(np.load(path).values())
        for r in range(req["runs_per_seed"]):
            ins = [backend.tensor(a) for a in arrays]
            outs = [backend.tensor(_poison(o["shape"], o["dtype"], r)) for o in out_specs]
            try:
                got = kernel(ins, outs)
                result = {f"out{i}": t.numpy() for i, t in enumerate(got)}
            except Exception as e:  # noqa: BLE001
                _send(chan, phase="error", stage="check", error=_error_text(e), seed_index=k, run=r)
                return
            # only inputs the kernel changed travel back (the parent names what changed): copies of
            # every input for every run overflowed the scratch space for large tables
            for i, (t, a) in enumerate(zip(ins, arrays)):
                now = t.numpy()
                if not np.array_equal(now, a, equal_nan=a.dtype.kind in "fc"):
                    result[f"in{i}"] = now
            path = os.path.join(req["outdir"], f"check_{k}_{r}.npz")
            np.savez(path, **result)
            # The digest leaves the process before the kernel runs again, so a later call
            # cannot rewrite this file undetected.
            _send(chan, phase="saved", file=os.path.basename(path), sha256=_digest(path))
    _send(chan, phase="checked")
    if sys.stdin.readline().strip() != "time":
        return
    arrays = list(np.load(req["inputs"][0]).values())
    kernels = {"candidate": kernel}
    if baseline is not None:
        kernels["tvm-default"] = baseline
    if tuned is not None:
        kernels["tvm-tuned"] = tuned
    # Candidate and baselines run on the same buffers: where a buffer lands (alignment, pages,
    # 4 KiB aliasing between inputs and outputs) moved identical kernels' times by up to 15 %
    # between runs when each had its own. Inputs are verified untouched after timing, so a
    # candidate cannot slow the baseline down by rewriting them.
    ins = [backend.tensor(a) for a in arrays]
    outs = [backend.tensor(np.zeros(o["shape"], o["dtype"])) for o in out_specs]
    calls = {name: (kern, ins, outs) for name, kern in kernels.items()}
    vendor = None
    vendor_timer = backend.vendor_timer(req["vendor"], arrays) if req.get("vendor") else None
    if req.get("vendor") and vendor_timer is None:
        # by pattern and shape, not by workload id: held-out workloads are not in the sandbox
        from evaluator import suite
        from evaluator.suite.base import Workload, WorkloadDef

        pattern = next(p for p in suite.patterns() if p.id == req["vendor"]["pattern"])
        vendor = WorkloadDef(pattern, Workload("vendor", req["vendor"]["params"])).vendor_call()
    report = timing.interleaved(calls, vendor, [a.copy() for a in arrays], req["protocol"],
                                vendor_timer=vendor_timer)
    report["inputs_modified"] = [i for i, (t, a) in enumerate(zip(ins, arrays))
                                 if not np.array_equal(t.numpy(), a, equal_nan=a.dtype.kind in "fc")]
    # the candidate's outputs from its last single call on poisoned buffers, for the parent to check
    path = os.path.join(req["outdir"], "after_timing.npz")
    np.savez(path, **{f"out{i}": t.numpy() for i, t in enumerate(outs)})
    report["after_timing"] = {"file": os.path.basename(path), "sha256": _digest(path)}
    _send(chan, phase="timed", **report)


def _digest(path: str) -> str:
    import hashlib

    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _poison(shape, dtype, run: int):
    import numpy as np

    dt = np.dtype(dtype)
    if np.issubdtype(dt, np.floating):
        return np.full(shape, np.nan, dt)
    # Two different sentinels: an output the kernel never writes then differs between runs.
    info = np.iinfo(dt)
    return np.full(shape, info.min if run == 0 else info.max, dt)


def _die_with_parent() -> None:
    """If the evaluating process dies (a killed worker), this process gets SIGKILL rather than
    running on as an orphan; checked against the parent's pid to close the start-up race."""
    import ctypes
    import signal

    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        return
    if os.getppid() != int(os.environ["EKB_PARENT_PID"]):
        os._exit(1)


def main(argv: list[str]) -> int:
    step, request_path = argv
    from evaluator.sandbox import apply_rlimits_from_env

    apply_rlimits_from_env()
    if "EKB_PARENT_PID" in os.environ:  # outside a sandbox (bwrap --die-with-parent does it there)
        _die_with_parent()
    chan = _channel()
    with open(request_path) as f:
        req = json.load(f)
    try:
        {"build": build, "run": run}[step](req, chan)
    except Exception:  # noqa: BLE001 - report, never hang the parent
        _send(chan, phase="error", ok=False, stage=step, error=traceback.format_exc(limit=3)[-2000:])
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
