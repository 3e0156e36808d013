"""The optimisation trace of an endpoint task: one record per turn, stored as the task's
``TaskResult.trace`` (the portal's ``Result.record["trace"]``), with a summary in
``TaskResult.detail["endpoint"]``.

A turn record is a superset of a bundle's trace line (:mod:`evaluator.formats.trace`: ``step``,
``layer``, ``change``, ``prompt``, ``reply``, ``latency_ms``, ``correct``, ``note``), so one view
shows both::

    {"step": 0,                  # 0-based, strictly increasing
     "kind": "turn",             # "turn": a model call; "score": the final scoring run of the best
                                 #   candidate (not shown to the model; agent and layered modes)
     "layer": "schedule",        # the layered stage; "other" in direct and agent modes
     "change": "turn 2: schedule layer, 9 steps",   # one line
     "prompt": "…",              # what was sent this turn that the model had not seen before
                                 #   (turn 1: the system and task messages)
     "reply": "…",               # the model's reply text
     "candidate": 2,             # measured candidate number (1-based), null when nothing was measured
     "format": "layered-trace",  # of the kernel, null when none
     "kernel": "…",              # the extracted kernel (layered mode: the whole document measured)
     "outcome": "correct",       # a TaskResult status, or "no_kernel" / "endpoint_error" / "skipped"
     "note": "…",                # the reason (compile error, check report, endpoint failure)
     "latency_ms": 0.42,         # measured median time of the candidate
     "speedup": 1.8,             # vs tvm-default
     "correct": true,
     "best": false,              # true on the candidate that counts (and on the score record)
     "request": {"latency_s": 1.2, "attempts": 1, "tokens": 1234},
     "elapsed_s": 12.5}          # since the task started

Strings are capped (:data:`LIMITS`, the bundle trace format's limits) so a result row stays small.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from evaluator.vocabulary import Baseline

LIMITS = {"prompt": 100_000, "reply": 100_000, "kernel": 200_000, "note": 2000, "change": 2000}


@dataclass
class Turn:
    step: int
    kind: str = "turn"
    layer: str = "other"
    change: str = ""
    prompt: str = ""
    reply: str = ""
    candidate: int | None = None
    format: str | None = None
    kernel: str | None = None
    outcome: str = ""
    note: str = ""
    latency_ms: float | None = None
    speedup: float | None = None
    correct: bool | None = None
    best: bool = False
    request: dict | None = None
    elapsed_s: float = 0.0
    extra: dict = field(default_factory=dict)

    def measured(self, result) -> None:
        """Fill the outcome from a TaskResult."""
        self.outcome = result.status
        self.note = result.reason
        self.correct = result.correct
        # where a candidate's seconds went (build, check, time): the loop's overhead per candidate
        self.extra["steps_s"] = {k: round(v, 3) for k, v in result.steps_s.items()}
        if result.correct and "candidate" in result.times:
            self.latency_ms = result.times["candidate"].median_s * 1e3
            self.speedup = result.speedup.get(Baseline.TVM_DEFAULT)

    def to_json(self) -> dict:
        d = asdict(self)
        extra = d.pop("extra")
        for key, limit in LIMITS.items():
            if isinstance(d.get(key), str) and len(d[key]) > limit:
                d[key] = d[key][:limit] + " …(truncated)"
        return {**d, **extra}
