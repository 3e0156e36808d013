"""The domain's words, defined once: task statuses, baselines, tracks and backend kinds.

They live in the evaluator, the lowest layer, so the portal and the leaderboard can import them
too. Each is a ``StrEnum``: a member equals its string (``Status.CORRECT == "correct"``) and
serializes as it, so stored records, JSON and URLs read exactly as before.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Status", "Baseline", "Track", "BackendKind", "choices"]


class _Word(StrEnum):
    def __repr__(self) -> str:
        # as its string: messages that show a word (``{name!r}``, a list of them) read as before
        return repr(self.value)


class Status(_Word):
    """A task's outcome (``records.TaskResult.status``)."""

    CORRECT = "correct"
    WRONG_RESULT = "wrong_result"
    COMPILE_ERROR = "compile_error"
    RUNTIME_ERROR = "runtime_error"
    TIMEOUT = "timeout"
    MISSING = "missing"  # no entry for the task: counts as wrong, like the paper
    # Correct outputs, but a number the harness cannot stand behind (clocks that disagree, work done
    # outside the timed window, a speed above the device's peak): kept as evidence with its reason,
    # never ranked until staff review it (cleared back to ``correct``, or marked ``hacked``).
    SUSPECT = "suspect"
    HACKED = "hacked"  # staff's verdict on a suspect result: ranked as wrong, shown with the reason


class Baseline(_Word):
    """What every task is timed against (``evaluator.baselines``)."""

    TVM_DEFAULT = "tvm-default"  # the reference compiler's default path
    TVM_TUNED = "tvm-tuned"  # TVM's auto-tuner under a fixed budget, where a stored record exists
    VENDOR = "vendor"  # the library call a user would make


class Track(_Word):
    """The two ranked runs of a submission: the public workloads with public seeds, and the
    verified run (every workload, held-out ones too, with secret seeds)."""

    PUBLIC = "public"
    VERIFIED = "verified"


class BackendKind(_Word):
    """The registered local backends (``evaluator.backends.BACKENDS``); a remote board is
    ``rpc:<key>``, a name rather than a kind."""

    CPU_LLVM = "cpu-llvm"
    CPU_EDGE = "cpu-edge"  # the host CPU under an edge-class budget (backends/cpu_edge.py)
    OPENCL = "opencl"
    CUDA = "cuda"
    CUDA_EDGE = "cuda-edge"  # the GPU held to a Jetson Orin-class share by CUDA MPS, emulated (backends/cuda_edge.py)


def choices(enum: type[StrEnum]) -> list[tuple[str, str]]:
    """``choices=`` for a model field: each value with its words as the label."""
    return [(m.value, m.value.replace("_", " ")) for m in enum]
