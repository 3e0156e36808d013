"""An emulated aarch64 board: TVM's RPC server in an aarch64 Python under qemu-user
(``evaluator.boards.qemu_aarch64``, provisioned by ``make board-aarch64``), registered with a
real tracker on 127.0.0.1, evaluating cross-built kernels through the real pipeline with the
sandbox on. Its results are real; its times are the emulator's, so the leaderboard never ranks
them (``EKB_RPC_EMULATED``)."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from evaluator import records
from evaluator.backends import emulation, get_backend, rpc
from evaluator.boards import qemu_aarch64
from evaluator.formats.bundle import load_bundle
from evaluator.pipeline import evaluate_bundle
from leaderboard.ranking.scoring import (EMULATED_NOTICE, SPEED_KEYS, Entry, baseline_notices, baseline_records,
                                         entry_metrics, measured_baselines, rank)
from rpc_helpers import HOST, board_bundle, start_board, start_tracker

KEY = qemu_aarch64.KEY
UNAVAILABLE = qemu_aarch64.why_unavailable()
needs_board = pytest.mark.skipif(UNAVAILABLE is not None, reason=str(UNAVAILABLE))
# small L1 kernels (qemu runs each 10-50x slower than this CPU) and one that is wrong everywhere
PICKS = [("tvm-default", "activation/relu@m128n768"), ("hand-tuned", "matmul/matmul@m128n512k128"),
         ("broken", "activation/relu@n1c64h56w56")]  # off-by-half: every element 0.5 too large
WRONG = "activation/relu@n1c64h56w56"


@pytest.fixture(scope="module")
def board():
    svc, port = start_tracker()
    try:
        # the board's Python imports TVM twice (its launcher, then the server's worker) under
        # qemu: about 15 s here, more on a loaded machine
        board, sandboxed = start_board(port, KEY, python=str(qemu_aarch64.python()),
                                       binds=(str(qemu_aarch64.ROOT),), timeout=180)
    except BaseException:
        svc.stop()
        raise
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(rpc.TRACKER_ENV, f"{HOST}:{port}")
        mp.setenv(rpc.TARGETS_ENV, json.dumps({KEY: qemu_aarch64.TARGET}))
        mp.setenv(emulation.EMULATED_ENV, KEY)
        yield board, sandboxed
    board.stop()
    svc.stop()


class Task:
    def __init__(self, wid: str, domains: tuple[str, ...]):
        self.id, self.domains, self.hidden = wid, domains, False


TASKS = [Task("add@a", ("vision",)), Task("mul@a", ("vision", "audio")), Task("fft@a", ("audio",)),
         Task("gemm@a", ("language",))]


def _row(sid: int, name: str, speedup: float, wrong: tuple[str, ...] = ()) -> Entry:
    by_task = {w.id: {"status": "wrong_result", "speedup": {}} if w.id in wrong else
               {"status": "correct", "speedup": {"tvm-default": speedup}, "speedup_ci": {}} for w in TASKS}
    metrics, hist = entry_metrics(by_task, TASKS)
    return Entry(metrics, hist, submission_id=sid, name=name, owner=name, created_at=f"2024-01-{sid:02d}T00:00:00")


def _bundle(tmp_path: Path) -> Path:
    return board_bundle(tmp_path, PICKS, KEY, "aarch64-qemu-test")


def _runs_under_qemu(board) -> bool:
    """A process of the board's is qemu-aarch64 serving this key."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if argv[0].endswith(b"qemu-aarch64") and KEY.encode() in argv and os.getsid(int(pid)) == board.proc.pid:
            return True
    return False


@needs_board
def test_the_emulated_board_evaluates_a_bundle_for_real(board, tmp_path, quick_protocol):
    svc, sandboxed = board
    assert _runs_under_qemu(svc)
    info = get_backend(f"rpc:{KEY}").info()
    assert info.available and info.emulated, info.reason
    assert info.device.startswith("aarch64 under qemu-user ") and " on " in info.device
    assert info.arch == "aarch64-linux-gnu"

    # checks load two kernels through an emulated RPC server: more time than a native board's
    protocol = replace(quick_protocol, limits=replace(quick_protocol.limits, check_s=60, time_s=60))
    bundle = load_bundle(str(_bundle(tmp_path)))
    report = evaluate_bundle(bundle, f"rpc:{KEY}", globs=[w for _, w in PICKS], protocol=protocol)

    assert report["sandbox"] is not None or os.environ.get("EKB_UNSAFE_LOCAL")  # steps sandboxed
    assert report["backend_info"]["emulated"] and report["backend_info"]["device"] == info.device
    got = {t["workload"]: t for t in report["tasks"]}
    assert set(got) == {w for _, w in PICKS}
    for wid, t in got.items():
        if wid == WRONG:  # the emulated board computes for real: the wrong kernel is caught
            assert t["status"] == records.WRONG_RESULT, (wid, t["status"], t["reason"])
            assert "differs from the reference" in t["reason"]
        else:
            assert t["status"] == records.CORRECT, (wid, t["reason"])
            assert "vendor" not in t["speedup"] and t["roofline_fraction"] is None


def test_an_emulated_board_is_said_so_and_its_device_is_the_emulator(monkeypatch):
    monkeypatch.setenv(rpc.TRACKER_ENV, f"{HOST}:1")  # nothing there
    monkeypatch.setenv(rpc.TARGETS_ENV, json.dumps({KEY: qemu_aarch64.TARGET, "pi": qemu_aarch64.TARGET}))
    monkeypatch.setenv(emulation.EMULATED_ENV, f" {KEY} ,other")
    assert emulation.emulated_keys() == {KEY, "other"}
    listed = {i.name: i for i in rpc.infos()}
    assert listed[f"rpc:{KEY}"].emulated and not listed["rpc:pi"].emulated
    assert emulation.is_emulated(f"rpc:{KEY}") and not emulation.is_emulated("rpc:pi")
    assert not emulation.is_emulated(KEY)
    assert get_backend(f"rpc:{KEY}").max_slots < get_backend("rpc:pi").max_slots
    assert get_backend(f"rpc:{KEY}").child_env()[emulation.EMULATED_ENV] == KEY
    # the device description marks it too: a result recorded on it stays unranked where the
    # setting is not set (a web process)
    device = rpc.emulated_device("aarch64")
    assert emulation.is_emulated("rpc:elsewhere", device)
    assert not emulation.is_emulated("cpu-llvm", "AMD EPYC (2 cores)")


def test_an_emulated_board_ranks_by_correctness_only():
    # fast but half wrong, against slow but always right: on a real board speed ranks first
    fast = _row(1, "fast-half-wrong", 4.0, wrong=("add@a", "mul@a"))
    slow = _row(2, "slow-all-right", 0.5)
    default = Entry(*entry_metrics(baseline_records("tvm-default", {}, TASKS), TASKS), baseline="tvm-default")
    entries = [fast, slow, default]
    kw = dict(baseline="tvm-default", p=1.0, measured=measured_baselines(entries), with_histogram=True)
    rows, hist = rank(entries, **kw)
    assert [r.name for r in rows if r.kind == "submission"] == ["fast-half-wrong", "slow-all-right"] and hist

    rows, hist = rank(entries, emulated=True, **kw)
    assert [r.name for r in rows] == ["tvm-default", "slow-all-right", "fast-half-wrong"]
    assert hist == {}
    for r in rows:
        assert all(r.summary[k] is None for k in SPEED_KEYS), r.summary
        assert r.summary["generalisation_fast"] is None
        assert all(v is None for v in r.domains.values())
    by_name = {r.name: r for r in rows}
    assert by_name["slow-all-right"].summary["correct@1"] == 1.0
    assert by_name["fast-half-wrong"].summary["correct@1"] == 0.5
    # every other display sort keeps the speed columns blank: sorting by them changes nothing
    for sort in ("fast", "geomean_deployable", "fast_sig"):
        again, _ = rank(entries, emulated=True, sort=sort, **kw)
        assert [r.rank for r in again] == [1, 2, 3]
    assert baseline_notices("vendor", ["tvm-default"], emulated=True) == [EMULATED_NOTICE]
    assert "times emulated" in EMULATED_NOTICE


@pytest.mark.django_db
def test_the_board_of_an_emulated_backend_never_uses_its_times(client, monkeypatch):
    from leaderboard.ranking import board
    from portal_helpers import fast_and_slow_board

    monkeypatch.setenv(emulation.EMULATED_ENV, KEY)
    backend, device = f"rpc:{KEY}", rpc.emulated_device("aarch64")
    fast_and_slow_board(backend, device)

    r = board(backend, device=device, with_histogram=True)
    assert r.emulated and not r.baseline_available and r.meta()["emulated"]
    assert r.histogram == {} and r.notices == [EMULATED_NOTICE]
    subs = [x for x in r.rows if x.kind == "submission"]
    assert [x.name for x in subs] == ["slow-all-right", "fast-half-wrong"]
    for x in r.rows:
        assert all(x.summary[k] is None for k in SPEED_KEYS), (x.name, x.summary)
    # the same rule without the setting: the device says the board is emulated
    monkeypatch.delenv(emulation.EMULATED_ENV)
    assert board(backend, device=device).emulated

    from django.urls import reverse

    page = client.get(reverse("leaderboard:board"), {"backend": backend, "device": device})
    assert page.status_code == 200 and "times emulated" in page.content.decode()
    page = client.get(reverse("leaderboard:boards"))
    assert page.status_code == 200 and "times emulated" in page.content.decode()
