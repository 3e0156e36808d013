"""``rpc:<key>``: remote boards through a real TVM RPC tracker and ``rpc_server`` on 127.0.0.1.

The board is this machine's CPU behind TVM's RPC (sandboxed where bubblewrap and cgroups are
present, see ``rpc_helpers.py``); the evaluation's build and run steps are sandboxed as for
``cpu-llvm``, the run step reaching the board only through the relay the evaluating process
opens. Cross-compiling for an aarch64 board is checked on the ELF header and by running the
library under ``qemu-aarch64`` from a small C driver (there is no aarch64 Python here to run a board).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from evaluator import records, suite
from evaluator.backends import BackendUnavailable, get_backend, infos, rpc
from evaluator.baselines.tvm_default import default_document
from evaluator.formats.bundle import load_bundle
from evaluator.harness.protocol import tolerance
from evaluator.pipeline import Candidate, Pipeline, evaluate_bundle
from evaluator.suite.inputs import generate
from rpc_helpers import DRIVER_C, HOST, board_bundle, free_port, have_cross_toolchain, start_board, start_tracker

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "bundles"
KEY = f"ekb-test-{os.getpid()}"
AARCH64 = {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mattr": ["+neon"]}
EM_AARCH64 = 183  # ELF e_machine


@pytest.fixture(scope="module")
def tracker():
    svc, port = start_tracker()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(rpc.TRACKER_ENV, f"{HOST}:{port}")
        mp.delenv(rpc.TARGETS_ENV, raising=False)
        yield port
    svc.stop()


@pytest.fixture(scope="module")
def board(tracker):
    svc, _ = start_board(tracker, KEY)
    yield svc
    svc.stop()


def _confined(pid: int) -> bool:
    """In namespaces of its own, without any capability."""
    status = dict(ln.split(":", 1) for ln in Path(f"/proc/{pid}/status").read_text().splitlines())
    own = all(os.readlink(f"/proc/{pid}/ns/{ns}") != os.readlink(f"/proc/self/ns/{ns}")
              for ns in ("user", "mnt", "pid"))
    return own and int(status["CapEff"], 16) == 0 and int(status["CapBnd"], 16) == 0


def _bundle(tmp_path: Path, picks: list[tuple[str, str]]) -> Path:
    return board_bundle(tmp_path, picks, KEY, "rpc-test")


def test_the_tracker_s_board_is_listed_and_served(board, tracker):
    out = subprocess.run([sys.executable, "-m", "evaluator", "backends", "--json"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, check=True)
    listed = {b["name"]: b for b in json.loads(out.stdout)}
    info = listed[f"rpc:{KEY}"]
    assert info["available"] and info["reason"] == ""
    assert KEY in info["device"] and f"{HOST}:{tracker}" in info["device"] and "1 registered" in info["state"]
    assert "free" not in info["device"], "the device is the board's identity, not its live queue"
    assert "queue" not in info  # queues are the portal's (jobs.queue_for), not the evaluator's
    host = get_backend("cpu-llvm").target()  # no target configured: a board like this machine
    assert info["arch"] == (host.get("mcpu") or host.get("mtriple"))
    assert get_backend(f"rpc:{KEY}").name == f"rpc:{KEY}"

    if board.group is not None:  # the board runs submitted kernels: in its sandbox, powerless
        servers = [pid for pid in board.group.pids()
                   if Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].endswith(b"python")]
        assert servers and all(_confined(pid) for pid in servers)

    # what a portal worker advertises for the board: tests/portal/test_rpc_worker.py


def test_a_bundle_is_evaluated_on_the_board(board, tmp_path, quick_protocol):
    picks = [("tvm-default", "norm/layer-norm@m64n256"), ("hand-tuned", "matmul/matmul@m128n512k128"),
             ("hand-tuned", "model/anomaly-autoencoder@b1")]  # an operator, a tuned one, a Relax graph
    bundle = load_bundle(str(_bundle(tmp_path, picks)))
    # a board's one session loads every kernel (the graph's candidate and its baselines) within the
    # check limit: 3.5 s here with both cores busy, over 8 s once on a loaded CI machine
    protocol = replace(quick_protocol, limits=replace(quick_protocol.limits, check_s=30))
    report = evaluate_bundle(bundle, f"rpc:{KEY}", globs=[w for _, w in picks], protocol=protocol)

    assert report["backend"] == f"rpc:{KEY}" and report["backend_info"]["available"]
    assert report["sandbox"] is not None or os.environ.get("EKB_UNSAFE_LOCAL")  # steps sandboxed
    got = {t["workload"]: t for t in report["tasks"]}
    assert set(got) == {w for _, w in picks}
    for _, wid in picks:
        t = got[wid]
        assert t["status"] == records.CORRECT, (wid, t["reason"])
        assert t["speedup"]["tvm-default"] > 0 and t["times"]["candidate"]["median_s"] > 0
        assert "vendor" not in t["speedup"]  # a board has no vendor baseline here
        assert t["roofline_fraction"] is None  # nor a measured peak
    assert report["summary"]["correct@1"] == 1.0


def test_a_crashing_kernel_fails_its_task_and_a_vanished_board_fails_typed(tracker, quick_protocol,
                                                                         monkeypatch):
    key = f"{KEY}-crash"
    svc, _ = start_board(tracker, key)
    w = suite.get_workload("norm/layer-norm@m64n256")
    default = Candidate("layered-trace", json.dumps(default_document(w.canonical_module())))
    try:
        pipe = Pipeline(f"rpc:{key}", quick_protocol)
        bundle = load_bundle(str(EXAMPLES / "broken"))
        e = next(e for e in bundle.entries if e.workload == "activation/relu6@n1c64h56w56")  # writes out of bounds
        r = pipe.evaluate(suite.get_workload(e.workload), Candidate(e.format, e.source))
        assert r.status == records.RUNTIME_ERROR and "board's session ended" in r.reason, r.reason
        # the board's launcher serves again after the crash: the next task runs normally
        assert pipe.evaluate(w, default).status == records.CORRECT
    finally:
        svc.stop()
    monkeypatch.setattr(rpc, "REGISTER_S", 1.0)
    t0 = time.monotonic()
    with pytest.raises(rpc.RemoteUnavailable, match=f"no board with key '{key}' is registered"):
        pipe.evaluate(w, default)
    assert time.monotonic() - t0 < 15


def test_an_unreachable_tracker_makes_the_backend_unavailable_with_the_reason(monkeypatch):
    port = free_port()  # nothing listens there
    monkeypatch.setenv(rpc.TRACKER_ENV, f"{HOST}:{port}")
    monkeypatch.setenv(rpc.TARGETS_ENV, json.dumps({"pi": AARCH64}))
    (pi,) = [i for i in infos() if i.name.startswith("rpc:")]
    assert pi.name == "rpc:pi" and not pi.available
    assert f"tracker at {HOST}:{port} does not answer" in pi.reason and pi.arch == "aarch64-linux-gnu"
    with pytest.raises(BackendUnavailable, match="does not answer"):
        Pipeline("rpc:pi")
    with pytest.raises(rpc.RemoteUnavailable, match="does not answer"):
        get_backend("rpc:pi").prepare_run(Path("/nonexistent"), 10.0)

    # a tracker that accepts and never answers is given up on, not waited for
    with socket.socket() as mute:
        mute.bind((HOST, 0))
        mute.listen(1)
        monkeypatch.setenv(rpc.TRACKER_ENV, f"{HOST}:{mute.getsockname()[1]}")
        monkeypatch.setattr(rpc, "CONNECT_S", 0.5)
        t0 = time.monotonic()
        (pi,) = [i for i in rpc.infos()]
        assert not pi.available and "does not answer" in pi.reason
        assert time.monotonic() - t0 < 5


def test_settings_errors_name_the_setting(monkeypatch):
    monkeypatch.setenv(rpc.TRACKER_ENV, "no-port")
    (only,) = rpc.infos()
    assert not only.available and rpc.TRACKER_ENV in only.reason
    monkeypatch.setenv(rpc.TRACKER_ENV, f"{HOST}:1")
    monkeypatch.setenv(rpc.TARGETS_ENV, json.dumps({"pi": {"kind": "cuda"}}))
    (only,) = rpc.infos()
    assert not only.available and "must be an llvm target" in only.reason
    with pytest.raises(BackendUnavailable, match="board key"):
        get_backend("rpc:bad/key")


@pytest.mark.skipif(have_cross_toolchain() is not None, reason=str(have_cross_toolchain()))
def test_an_aarch64_board_s_build_is_an_aarch64_library_that_computes_the_reference(monkeypatch, tmp_path):
    import tvm_ffi.libinfo

    monkeypatch.setenv(rpc.TARGETS_ENV, json.dumps({"pi": AARCH64}))
    backend = get_backend("rpc:pi")
    w = suite.get_workload("matmul/matmul@m128n512k128")
    lib = tmp_path / "kernel.so"
    # the unscheduled kernel: serial loops, so the library needs no TVM runtime to run
    backend.build(w.canonical_module(), str(lib))

    header = lib.read_bytes()[:20]
    assert header[:4] == b"\x7fELF" and header[4] == 2 and header[5] == 1  # 64-bit, little-endian
    assert int.from_bytes(header[18:20], "little") == EM_AARCH64

    (tmp_path / "driver.c").write_text(DRIVER_C)
    subprocess.run(["aarch64-linux-gnu-gcc", "-O1", "-rdynamic", "-I", tvm_ffi.libinfo.find_include_path(),
                    "-I", tvm_ffi.libinfo.find_dlpack_include_path(), str(tmp_path / "driver.c"),
                    "-o", str(tmp_path / "driver"), "-ldl"], check=True, capture_output=True, timeout=60)
    arrays = generate(w, 0)
    argv = ["qemu-aarch64", str(tmp_path / "driver"), str(lib)]
    tensors = [(a.shape, a) for a in arrays] + [(o.shape, np.full(o.shape, np.nan, np.float32)) for o in w.outputs]
    for i, (shape, a) in enumerate(tensors):
        path = tmp_path / f"t{i}.bin"
        np.ascontiguousarray(a, np.float32).tofile(path)
        argv += [str(len(shape)), *map(str, shape), str(path)]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "QEMU_LD_PREFIX": "/usr/aarch64-linux-gnu"})
    assert run.returncode == 0, run.stderr
    got = np.fromfile(tmp_path / f"t{len(tensors) - 1}.bin", np.float32).reshape(w.outputs[0].shape)
    (ref,) = w.reference(arrays)
    atol, rtol = tolerance("float32")
    assert np.allclose(got, ref, atol=atol, rtol=rtol)
