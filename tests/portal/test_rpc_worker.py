"""A portal worker for a remote board (``rpc:<key>``): what it advertises, and the queue it
consumes. The board itself is the evaluator's (tests/evaluator/test_backend_rpc.py); this is the
portal's side of it, against a real TVM RPC tracker and board on 127.0.0.1."""

from __future__ import annotations

import os

import pytest

from evaluator.backends import rpc
from rpc_helpers import HOST, start_board, start_tracker

KEY = f"ekb-test-worker-{os.getpid()}"


@pytest.fixture(scope="module")
def board():
    tracker, port = start_tracker()
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv(rpc.TRACKER_ENV, f"{HOST}:{port}")
            mp.delenv(rpc.TARGETS_ENV, raising=False)
            svc, _ = start_board(port, KEY)
            yield svc
            svc.stop()
    finally:
        tracker.stop()


def test_a_worker_for_the_board_advertises_it_and_consumes_its_queue(board):
    from portal import jobs, workers

    (ad,) = workers.describe([f"rpc:{KEY}"])
    assert ad["available"] and workers.backend_of(jobs.queue_for(f"rpc:{KEY}")) == f"rpc:{KEY}"
