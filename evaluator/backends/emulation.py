"""Which boards are emulated: their results are real (correctness counts and ranks), their times
are an emulator's or a stand-in's and are never ranked (``leaderboard.ranking``).

* an ``rpc:`` board under qemu-user (``EKB_RPC_EMULATED``, ``evaluator.boards.qemu_aarch64``):
  its device reads ``<arch> under qemu-user <version> on <this CPU>``;
* ``cuda-edge`` (``backends/cuda_edge.py``): a server GPU held to a Jetson Orin-class share of
  its SMs and memory, whose bandwidth and clocks are still the server's.
"""

from __future__ import annotations

import os

from evaluator.vocabulary import BackendKind

EMULATED_ENV = "EKB_RPC_EMULATED"
EMULATOR = "qemu-user"
# what every emulated rpc board's device description contains: "aarch64 under qemu-user 7.2 on …"
EMULATED_MARK = f" under {EMULATOR} "
# what cuda-edge's device description contains: "NVIDIA H100 … — emulated Jetson Orin-class share: …"
EDGE_GPU_MARK = "emulated Jetson Orin-class share"
EMULATED_BACKENDS = frozenset({BackendKind.CUDA_EDGE})


def emulated_keys() -> frozenset[str]:
    """``EKB_RPC_EMULATED``: the keys of the rpc boards that are emulated."""
    return frozenset(k.strip() for k in os.environ.get(EMULATED_ENV, "").split(",") if k.strip())


def is_emulated(backend: str, device: str = "") -> bool:
    """Whether ``backend``'s board (on ``device``) is emulated, so that its times are never
    ranked: an emulated backend (``cuda-edge``), an ``rpc:`` key in ``EKB_RPC_EMULATED``, or a
    device described as emulated (a result recorded as emulated stays so where the setting is not
    set, e.g. the web process)."""
    return (backend in EMULATED_BACKENDS or (backend.startswith("rpc:") and backend[4:] in emulated_keys())
            or EMULATED_MARK in (device or "") or EDGE_GPU_MARK in (device or ""))
