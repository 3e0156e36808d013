"""The budget: one definition shared by the three modes, so their rows on a board compare.

Per task:

* ``candidates`` — measured candidates: kernels handed to the pipeline (built, checked, timed;
  a kernel that fails to build still counts). ``direct`` draws this many independent samples
  (sample 1 is Correct@1 / Fast@p, all of them Correct@k); ``agent`` gets this many turns that
  produced a kernel; ``layered`` this many measured layer edits over its three stages.
* ``requests`` — model calls per task, every HTTP attempt included (retries too): bounds the
  turns whose reply held nothing to measure. Default: twice ``candidates``.
* ``time_s`` — wall-clock seconds per task, model and measurement together; the turn running
  when it runs out finishes, no new one starts.

Per submission (across all its tasks): ``max_requests`` and ``max_tokens`` (the endpoint's
reported usage; estimated at 4 characters per token when it reports none). When either runs
out, the task being worked on keeps what it has and the remaining tasks are recorded as missing
with the reason ``budget exhausted``.

After the loop, agent and layered modes evaluate their best candidate once more, outside the
budget and unseen by the model: that run is the task's result, so keeping the fastest of several
noisy measurements does not inflate the score (direct mode's result is its first sample).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

MAX_CANDIDATES = 64
MAX_TIME_S = 3600.0


class BudgetExhausted(Exception):
    """The submission's request or token budget is spent."""


@dataclass(frozen=True)
class Budget:
    candidates: int = 8
    requests: int | None = None  # per task; None = 2 × candidates
    time_s: float = 900.0
    max_requests: int = 2000  # per submission
    max_tokens: int = 5_000_000  # per submission
    temperature: float = 0.2
    max_reply_tokens: int = 4096

    def __post_init__(self):
        problems = []
        if not 1 <= self.candidates <= MAX_CANDIDATES:
            problems.append(f"candidates must be 1..{MAX_CANDIDATES}")
        if self.requests is not None and not self.candidates <= self.requests <= 4 * MAX_CANDIDATES:
            problems.append(f"requests must be between candidates and {4 * MAX_CANDIDATES}")
        if not 1 <= self.time_s <= MAX_TIME_S:
            problems.append(f"time_s must be 1..{MAX_TIME_S:g}")
        if not 1 <= self.max_requests <= 100_000:
            problems.append("max_requests must be 1..100000")
        if not 1_000 <= self.max_tokens <= 100_000_000:
            problems.append("max_tokens must be 1000..100000000")
        if not 0.0 <= self.temperature <= 2.0:
            problems.append("temperature must be 0..2")
        if not 64 <= self.max_reply_tokens <= 32_768:
            problems.append("max_reply_tokens must be 64..32768")
        if problems:
            raise ValueError("invalid budget: " + "; ".join(problems))

    @property
    def requests_per_task(self) -> int:
        return self.requests if self.requests is not None else 2 * self.candidates

    def to_json(self) -> dict:
        return asdict(self) | {"requests": self.requests_per_task}

    @classmethod
    def from_json(cls, d: dict | None) -> "Budget":
        d = dict(d or {})
        unknown = set(d) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"invalid budget: unknown keys {sorted(unknown)}; "
                             f"known: {sorted(cls.__dataclass_fields__)}")
        return cls(**d)


@dataclass
class Meter:
    """Requests and tokens used by one submission, against its budget (resumable: the portal
    stores ``used()`` after each task and starts a redelivered job from it)."""

    max_requests: int
    max_tokens: int
    requests: int = 0
    tokens: int = 0

    def take_request(self) -> None:
        if self.requests >= self.max_requests:
            raise BudgetExhausted(f"budget exhausted: {self.requests} of {self.max_requests} requests used")
        if self.tokens >= self.max_tokens:
            raise BudgetExhausted(f"budget exhausted: {self.tokens} of {self.max_tokens} tokens used")
        self.requests += 1

    def add_tokens(self, n: int) -> None:
        self.tokens += max(0, int(n))

    def used(self) -> dict:
        return {"requests": self.requests, "tokens": self.tokens}
