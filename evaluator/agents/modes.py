"""The three ways of putting a model to work on one task, under one budget
(:mod:`evaluator.agents.budget`).

* ``direct`` — the task prompt, ``budget.candidates`` independent replies (seeds 0, 1, …). The
  first sample is the task's result (Correct@1, Fast@p); all samples give Correct@k.
* ``agent`` — one conversation: after each reply the model gets the compile errors, the
  correctness report or the measured time (and speedup) of its kernel, until the budget ends.
  The fastest correct kernel counts.
* ``layered`` — a LEKA-style loop over the layers of a ``layered-trace``: compute, then
  schedule, then memory. In each stage the model edits that layer of the best document so far;
  every edit is measured at once; the best correct document is kept and the next stage builds on
  it. A stage ends when the model sets ``advance`` or when the candidates left are only those
  kept for the later stages (one each).

Agent and layered modes finish with a scoring run: the best candidate evaluated once more, not
shown to the model, whose result is the task's (see the budget module for why).
"""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Callable

from evaluator import records
from evaluator.agents import extract
from evaluator.agents.budget import Budget
from evaluator.agents.client import ChatClient, EndpointError, InFlight
from evaluator.agents.prompts import PromptSet
from evaluator.agents.trace import Turn
from evaluator.ir.layered_trace import LAYERS
from evaluator.pipeline import Candidate
from evaluator.records import TaskResult
from evaluator.vocabulary import Baseline

MODES = ("direct", "agent", "layered")
Evaluate = Callable[[Candidate], TaskResult]


def _better(r: TaskResult, than: TaskResult | None) -> bool:
    if not r.correct:
        return False
    if than is None:
        return True
    a, b = r.speedup.get(Baseline.TVM_DEFAULT), than.speedup.get(Baseline.TVM_DEFAULT)
    if a is not None and b is not None:
        return a > b
    return r.times["candidate"].median_s < than.times["candidate"].median_s


def _best_text(best: TaskResult | None, n: int | None) -> str:
    if best is None:
        return "none correct yet"
    spd = best.speedup.get(Baseline.TVM_DEFAULT)
    return (f"candidate {n}, {best.times['candidate'].median_s * 1e3:.4f} ms"
            + (f" ({spd:.3f}× tvm-default)" if spd else ""))


@dataclass
class _Run:
    """State of one task's loop: the trace, the budget left, the best candidate."""

    w: object
    mode: str
    client: ChatClient
    evaluate: Evaluate
    budget: Budget
    prompts: PromptSet
    clock: Callable[[], float] = time.monotonic
    turns: list[Turn] = field(default_factory=list)
    measured: int = 0
    requests: int = 0
    tokens: int = 0
    best: TaskResult | None = None
    best_candidate: Candidate | None = None
    best_n: int | None = None
    last: TaskResult | None = None
    error: EndpointError | None = None
    seen: dict = field(default_factory=dict)  # kernel source → candidate number

    def __post_init__(self):
        self.t0 = self.clock()

    # --- limits ------------------------------------------------------------------------------
    def can_call(self) -> bool:
        return (self.error is None and self.requests < self.budget.requests_per_task
                and self.clock() - self.t0 < self.budget.time_s)

    def can_measure(self) -> bool:
        return self.measured < self.budget.candidates

    # --- one model call ----------------------------------------------------------------------
    def call(self, messages: list[dict], turn: Turn, seed: int | None = None,
             sent: InFlight | None = None) -> str | None:
        """The model's reply (``sent``: to the request :meth:`send` sent ahead), or None once the
        endpoint failed (recorded on ``turn``)."""
        try:
            reply = sent.reply() if sent is not None else self.client.complete(
                messages, temperature=self.budget.temperature, max_tokens=self.budget.max_reply_tokens, seed=seed)
        except EndpointError as e:
            self.requests += max(1, e.attempts)
            self.error = e
            turn.outcome, turn.note = "endpoint_error", str(e)
            self.finish_turn(turn)
            return None
        self.requests += reply.attempts
        self.tokens += reply.usage.get("total_tokens", 0)
        turn.reply = reply.content
        turn.request = {"latency_s": round(reply.latency_s, 3), "attempts": reply.attempts,
                        "tokens": reply.usage.get("total_tokens", 0)}
        return reply.content

    def send(self, messages: list[dict], seed: int | None = None) -> InFlight:
        """The next request on its way while this thread measures (direct mode's samples do not
        depend on each other); :meth:`call` with ``sent`` takes its reply."""
        return self.client.send(messages, temperature=self.budget.temperature,
                                max_tokens=self.budget.max_reply_tokens, seed=seed)

    def drop(self, sent: InFlight | None) -> None:
        """A request sent ahead that the loop did not use: it was taken from the budget, so it counts."""
        if sent is not None and sent.error is None:
            self.requests += 1

    def measure(self, turn: Turn, cand: Candidate) -> TaskResult:
        self.measured += 1
        turn.candidate, turn.format, turn.kernel = self.measured, cand.format, cand.source
        r = self.evaluate(cand)
        turn.measured(r)
        self.seen[cand.source] = self.measured
        self.last = r
        if _better(r, self.best):
            self.best, self.best_candidate, self.best_n = r, cand, self.measured
        return r

    def finish_turn(self, turn: Turn) -> None:
        turn.elapsed_s = round(self.clock() - self.t0, 3)
        self.turns.append(turn)

    def new_turn(self, layer: str = "other", change: str = "") -> Turn:
        return Turn(step=len(self.turns), layer=layer, change=change)

    # --- the result that counts --------------------------------------------------------------
    def result(self, base: TaskResult, rescore: bool) -> TaskResult:
        if rescore and self.best_candidate is not None:
            turn = Turn(step=len(self.turns), kind="score", layer=self.turns[self.best_n_index()].layer,
                        change=f"scoring run of candidate {self.best_n} (not shown to the model)",
                        candidate=self.best_n, format=self.best_candidate.format,
                        kernel=self.best_candidate.source, best=True)
            final = self.evaluate(self.best_candidate)
            turn.measured(final)
            self.finish_turn(turn)
        elif self.best is not None:
            final = self.best
        elif self.last is not None:
            final = self.last
        else:
            final = base
            final.reason = (f"endpoint {self.error}" if self.error else
                            self.turns[-1].note if self.turns else "the model produced no kernel")
            final.reason = final.reason or "the model produced no kernel"
        for t in self.turns:
            if t.kind == "turn" and self.best_n is not None and t.candidate == self.best_n:
                t.best = True
        final.trace = [t.to_json() for t in self.turns]
        final.detail["endpoint"] = {
            "mode": self.mode, "model": self.client.model, "prompt": self.prompts.describe(),
            "budget": self.budget.to_json(), "candidates_measured": self.measured,
            "requests": self.requests, "tokens": self.tokens, "best_candidate": self.best_n,
            "elapsed_s": round(self.clock() - self.t0, 3),
            "error": {"kind": self.error.kind, "message": self.error.message, "fatal": self.error.fatal}
            if self.error else None,
        }
        return final

    def best_n_index(self) -> int:
        return next(i for i, t in enumerate(self.turns) if t.candidate == self.best_n)


def run_task(w, mode: str, client: ChatClient, evaluate: Evaluate, budget: Budget, backend_info,
             prompts: PromptSet | None = None, clock: Callable[[], float] = time.monotonic) -> TaskResult:
    """Run one task in ``mode``; the TaskResult that counts, its trace and endpoint summary
    attached. Endpoint failures end the task (``detail["endpoint"]["error"]``; fatal ones should
    end the submission); the best kernel obtained before them still counts."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; modes are {list(MODES)}")
    prompts = prompts or PromptSet("ekb-prompt/1")
    run = _Run(w, mode, client, evaluate, budget, prompts, clock)
    base = TaskResult(w.id, backend_info.name, records.MISSING, level=w.level, family=w.family,
                      domains=list(w.domains), hidden=w.hidden)
    system = {"role": "system", "content": prompts.system(w, mode)}
    task = {"role": "user", "content": prompts.task(w, backend_info, mode, budget)}
    if mode == "direct":
        return _direct(run, base, [system, task])
    if mode == "agent":
        _agent(run, [system, task])
    else:
        _layered(run, [system, task])
    return run.result(base, rescore=True)


def _first_prompt(messages: list[dict]) -> str:
    return "\n\n".join(f"[{m['role']}]\n{m['content']}" for m in messages)


def _direct(run: _Run, base: TaskResult, messages: list[dict]) -> TaskResult:
    samples = []
    first: TaskResult | None = None
    ahead: InFlight | None = None  # the next sample's request, sent while this one is measured
    for i in range(run.budget.candidates):
        if not run.can_call():
            break
        turn = run.new_turn(change=f"sample {i + 1} of {run.budget.candidates}")
        turn.prompt = _first_prompt(messages) if i == 0 else f"(the same prompt; seed {i})"
        text = run.call(messages, turn, seed=i, sent=ahead)
        ahead = None
        if text is None:
            break
        if i + 1 < run.budget.candidates and run.can_call():
            ahead = run.send(messages, seed=i + 1)
        try:
            k = extract.kernel(text)
        except extract.NoKernel as e:
            turn.outcome, turn.note = "no_kernel", str(e)
            samples.append({"sample": i + 1, "status": "no_kernel"})
            run.measured += 1  # a sample is a sample: it is spent whether it held a kernel or not
        else:
            r = run.measure(turn, Candidate(k.format, k.source))
            samples.append({"sample": i + 1, "status": r.status, "speedup": r.speedup.get(Baseline.TVM_DEFAULT)})
            if i == 0:
                first = r
        if i == 0:
            turn.best = True
        run.finish_turn(turn)
    run.drop(ahead)
    result = first if first is not None else base
    if first is None:
        result.reason = (f"endpoint {run.error}" if run.error and not samples else
                         f"sample 1 held no kernel: {run.turns[0].note}" if run.turns else "no sample")
    result.trace = [t.to_json() for t in run.turns]
    k = len(samples)
    result.detail["endpoint"] = {
        "mode": "direct", "model": run.client.model, "prompt": run.prompts.describe(),
        "budget": run.budget.to_json(), "candidates_measured": sum(s["status"] != "no_kernel" for s in samples),
        "requests": run.requests, "tokens": run.tokens, "best_candidate": 1 if first is not None else None,
        "samples": samples, "k": k,
        "correct@k": any(s["status"] == records.CORRECT for s in samples),
        "fast@1.0@k": any(s["status"] == records.CORRECT and (s.get("speedup") or 0) >= 1.0 for s in samples),
        "elapsed_s": round(run.clock() - run.t0, 3),
        "error": {"kind": run.error.kind, "message": run.error.message, "fatal": run.error.fatal}
        if run.error else None,
    }
    return result


def _agent(run: _Run, messages: list[dict]) -> None:
    n_reply = 0
    while run.can_call() and run.can_measure():
        n_reply += 1
        turn = run.new_turn(change=f"turn {n_reply}")
        turn.prompt = _first_prompt(messages) if n_reply == 1 else messages[-1]["content"]
        text = run.call(messages, turn)
        if text is None:
            return
        messages.append({"role": "assistant", "content": text})
        try:
            k = extract.kernel(text)
        except extract.NoKernel as e:
            turn.outcome, turn.note = "no_kernel", str(e)
            messages.append({"role": "user", "content": run.prompts.no_kernel(n_reply, str(e))})
            run.finish_turn(turn)
            continue
        if k.source in run.seen:
            turn.outcome = "skipped"
            turn.note = f"the same kernel as candidate {run.seen[k.source]}; not measured again"
            messages.append({"role": "user", "content": run.prompts.no_kernel(n_reply, turn.note)})
            run.finish_turn(turn)
            continue
        r = run.measure(turn, Candidate(k.format, k.source))
        run.finish_turn(turn)
        left = run.budget.candidates - run.measured
        messages.append({"role": "user", "content": run.prompts.feedback(
            run.measured, r, _best_text(run.best, run.best_n), left)})


def _empty_layers() -> dict[str, list]:
    return {layer: [] for layer in LAYERS}


def _document(layers: dict[str, list]) -> dict:
    return {"format": "layered-trace", "version": 1, "layers": layers}


def _layered(run: _Run, messages: list[dict]) -> None:
    """Passes over compute → schedule → memory until the budget ends or a whole pass measures
    nothing new. In the first pass one candidate is kept for each later layer (when the budget
    has at least one per layer); a later pass
    revisits the layers on top of the best document (its later layers dropped, as they name
    loops the revisited layer defines)."""
    best_layers = _empty_layers()
    pending = ""  # feedback on the last candidate, sent with the next question
    n_reply = 0
    for first_pass in itertools.chain([True], itertools.repeat(False)):
        measured_before = run.measured
        for si, layer in enumerate(LAYERS):
            pending, n_reply, best_layers = _stage(run, messages, si, layer, first_pass, pending, n_reply,
                                                   best_layers)
            if not run.can_call() or not run.can_measure():
                return
        if run.measured == measured_before:
            return


def _stage(run: _Run, messages: list[dict], si: int, layer: str, first_pass: bool, pending: str,
           n_reply: int, best_layers: dict) -> tuple[str, int, dict]:
    # one candidate kept for each later layer, when the budget has one for each
    later = len(LAYERS) - si - 1 if first_pass and run.budget.candidates >= len(LAYERS) else 0
    while run.can_call() and run.budget.candidates - run.measured > later:
        left = run.budget.candidates - run.measured - later
        base_layers = {name: (best_layers[name] if LAYERS.index(name) < si else [])
                       for name in LAYERS}
        best_note = "" if run.best is not None else "; none yet: the unscheduled computation"
        question = run.prompts.stage(layer, si + 1, left, _document(base_layers), best_note)
        if n_reply == 0:  # the first question goes with the task
            content = messages.pop()["content"] + "\n\n" + question
        else:
            content = (pending + "\n\n" + question).strip()
        messages.append({"role": "user", "content": content})
        pending = ""
        n_reply += 1
        turn = run.new_turn(layer=layer, change=f"turn {n_reply}: {layer} layer")
        turn.prompt = _first_prompt(messages) if n_reply == 1 else messages[-1]["content"]
        text = run.call(messages, turn)
        if text is None:
            break
        messages.append({"role": "assistant", "content": text})
        try:
            edit = extract.layer_edit(text, layer)
        except extract.NoKernel as e:
            turn.outcome, turn.note = "no_kernel", str(e)
            pending = run.prompts.no_kernel(n_reply, str(e))
            run.finish_turn(turn)
            continue
        turn.change += f", {len(edit.steps)} steps" + (" (advance)" if edit.advance else "")
        layers = {**base_layers, layer: edit.steps}
        source = json.dumps(_document(layers))
        if edit.steps == base_layers[layer] or source in run.seen:
            turn.outcome = "skipped"
            turn.note = ("no change to measure" if edit.steps == base_layers[layer] else
                         f"the same document as candidate {run.seen[source]}; not measured again")
            run.finish_turn(turn)
            if edit.advance:
                break
            pending = run.prompts.no_kernel(n_reply, turn.note + "; change the steps or set advance")
            continue
        r = run.measure(turn, Candidate("layered-trace", source))
        run.finish_turn(turn)
        if run.best_n == run.measured:
            best_layers = layers
        pending = run.prompts.feedback(run.measured, r, _best_text(run.best, run.best_n),
                                       run.budget.candidates - run.measured)
        if edit.advance:
            break
    return pending, n_reply, best_layers
