"""Typed records passed between the pipeline's stages and stored by the portal.

Every task outcome is a :class:`TaskResult` whose ``status`` is one of ``STATUSES``. The JSON
form (``to_json``) is a stable contract: the CLI writes it, the portal stores it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from evaluator.vocabulary import Status

# The statuses by their old names: ``evaluator.vocabulary.Status`` is their one definition.
COMPILE_ERROR = Status.COMPILE_ERROR
RUNTIME_ERROR = Status.RUNTIME_ERROR
WRONG_RESULT = Status.WRONG_RESULT
TIMEOUT = Status.TIMEOUT
CORRECT = Status.CORRECT
MISSING = Status.MISSING
SUSPECT = Status.SUSPECT
HACKED = Status.HACKED
STATUSES = tuple(Status)


@dataclass
class Timing:
    """Per-call seconds over the interleaved rounds of one kernel."""

    median_s: float
    p25_s: float
    p75_s: float
    min_s: float
    rse: float  # relative standard error of the mean
    rounds: int
    number: int  # calls per round

    @property
    def spread(self) -> float:
        return (self.p75_s - self.p25_s) / self.median_s if self.median_s else 0.0


@dataclass
class TaskResult:
    workload: str
    backend: str
    status: str
    reason: str = ""
    detail: dict[str, Any] = field(default_factory=dict)
    times: dict[str, Timing] = field(default_factory=dict)  # "candidate", "tvm-default", "vendor"
    speedup: dict[str, float] = field(default_factory=dict)  # baseline → baseline time / kernel time
    # baseline → [low, high]: the 95 % confidence interval of that speedup (the median of the
    # paired per-round ratios, distribution-free), which decides significant Fast@p
    speedup_ci: dict[str, list[float]] = field(default_factory=dict)
    roofline_fraction: float | None = None
    steps_s: dict[str, float] = field(default_factory=dict)  # build / check / time seconds
    level: str = ""
    family: str = ""
    domains: list[str] = field(default_factory=list)
    hidden: bool = False
    trace: list[dict] | None = None

    @property
    def correct(self) -> bool:
        return self.status == CORRECT

    def to_json(self) -> dict:
        d = asdict(self)
        d["times"] = {k: asdict(v) | {"spread": v.spread} for k, v in self.times.items()}
        return d

    @classmethod
    def from_json(cls, d: dict) -> "TaskResult":
        d = dict(d)
        d["times"] = {k: Timing(**{f: v[f] for f in Timing.__dataclass_fields__})
                      for k, v in d.get("times", {}).items()}
        return cls(**{k: v for k, v in d.items() if k in cls.__dataclass_fields__})
