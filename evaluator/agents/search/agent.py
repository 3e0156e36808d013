"""The built-in search agent: a model that needs no LLM, behind the same chat API.

It reads the conversation like a model would — the task (workload id, target), the stage in
layered mode with the current document, and the ``RESULT {...}`` line after each of its earlier
replies — and answers with the next ``layered-trace`` to measure. It keeps no state between
calls: its own earlier replies carry the configuration they were rendered from (``search
{...}`` in their note or description), so a conversation replays to the same decisions.

The search (:class:`Searcher`): candidates are the current best configuration with one block's
parameters replaced (every block, every combination of that block's parameters), plus the same
around the prior's favourite. Each is scored by a prior (a hand-written estimate of log speedup
over ``tvm-default``: register tile size, vector width, parallel chunks, local accumulation,
sized to the vector unit the prompt's target names) corrected by the measured error of the
nearest measured configurations (log speedup minus prior, weighted by distance; a failed
candidate counts as far below its prior). The best-scoring unmeasured candidate that renders is
proposed. Measurements come only from the conversation, i.e. from the budget the portal grants;
nothing is timed here.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import math
import re
from dataclasses import dataclass

from evaluator import suite
from evaluator.agents.search.space import TINY, Invalid, Space, VectorUnit, compute_plan, layers_equal
from evaluator.ir.layered_trace import LAYERS
from evaluator.vocabulary import Status

NAME = "ekb-search"
_TASK = re.compile(r"^Task: (\S+)\s*$", re.M)
_TARGET = re.compile(r"^Target: (\{.*\})\s*$", re.M)
_STAGE = re.compile(r"^Layer: (compute|schedule|memory) \(stage \d of 3; this layer may still use (\d+) "
                    r"measured candidates\)", re.M)
_RESULT = re.compile(r"^RESULT (\{.*\})\s*$", re.M)
_NOTE = re.compile(r"search (\{.*\})")
_FENCE = re.compile(r"```json\s*\n(.*?)```", re.S)
FAILED_PENALTY = 1.0  # log-speedup below its prior that a failed candidate counts as


class AgentError(ValueError):
    """The conversation is not one this agent can answer (the reply says why)."""


@dataclass
class Past:
    """One earlier reply of ours and what its measurement said."""

    stage: str | None  # layered stage, None in full-document modes
    compute: str  # digest of the compute layer it was built on
    config: dict
    outcome: dict | None  # the RESULT object, None when it was not measured


@functools.lru_cache(maxsize=32)
def _workload_space(workload_id: str, compute_json: str, cores: int, unit: VectorUnit = VectorUnit()) -> Space:
    w = suite.get_workload(workload_id)
    return Space(w.canonical_module(), json.loads(compute_json), cores, unit)


def _digest(obj) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:12]


class Searcher:
    """Scores and picks configurations of one space."""

    def __init__(self, space: Space):
        self.space = space
        self.blocks = {bs.info.name: bs for bs in space.blocks}

    # --- prior ---------------------------------------------------------------------------
    def prior(self, config: dict) -> float:
        total = 0.0
        for bs in self.space.blocks:
            p = {k.split(":", 1)[1]: v for k, v in config.items() if k.split(":", 1)[0] == bs.info.name}
            total += bs.weight * self._block_prior(bs, p)
        return total

    def _block_prior(self, bs, p: dict) -> float:
        b = bs.info
        if bs.kind == "spatial":
            if b.gather:  # a gather gains nothing from vector lanes; unrolling overlaps its loads
                s = 0.05 if p.get("vec", 16) == 1 else -0.1
                s += 0.01 if p.get("unroll", 1) > 1 else 0.0
            elif b.volume < TINY and p.get("vec") == b.extents[-1]:
                s = 0.02  # a short row of a tiny block as one vector: see Space's tiny blocks
            else:
                lanes = self.space.unit.lanes
                s = {lanes // 2: -0.03, lanes: 0.0, 2 * lanes: 0.01}.get(
                    p.get("vec", 16), 0.0 if p.get("vec", 16) > 2 * lanes else -0.1)
                s -= 0.01 if p.get("unroll", 1) > 1 else 0.0
            s += 0.01 if p.get("shape") == "flat" else 0.0
            if not p.get("parallel", True):
                s += 0.05 if b.volume < 16384 else -0.3 if b.volume > 65536 else -0.1
            return s
        if bs.kind == "tile":
            n = b.n_spatial
            inner = {int(k[1:]): v for k, v in p.items() if k.startswith("t")}
            lanes = math.prod(inner.values()) if inner else 1
            vector = b.spatial_unit and (n - 1) in inner
            unit = self.space.unit
            regs = lanes / unit.lanes if vector else lanes
            # a long reduction keeps a register tile of accumulators busy (12 of AVX-512's 32
            # registers, 6 of AVX2's 16); a small window has little to reuse, and a big tile only
            # spreads its strided loads (max-pool2d 2x2: a 16-vector tile cached locally 0.72x
            # tvm-default, one or two vectors written in place 1.9-2.4x)
            goal = 2 if b.window else 12 * unit.registers / 32
            s = 0.6 - 0.25 * abs(math.log2(max(regs, 0.25) / goal))
            if vector:
                tv = inner[n - 1]
                s -= 0.1 if tv % unit.lanes else 0.0
                s -= 0.2 if tv < unit.lanes // 2 else 0.0
                # a window's row read whole, not cut into vectors with a remainder (a depthwise
                # 3x3's 28-wide rows: 1.0x tvm-default whole, 0.4x in 14-lane halves)
                s += 0.05 if b.window and tv == b.extents[n - 1] else 0.0
            chunks = math.prod(e // inner.get(i, 1) for i, e in enumerate(b.extents[:n]))
            s -= 0.4 if chunks < 2 * self.space.cores else 0.1 if chunks < 8 else 0.0
            # a window's few values per output are reduced in place, a long reduction's in a local tile
            mem = {"none": 0.1, "init": 0.05} if b.window else {"cache": 0.4, "init": 0.1}
            s += mem.get(p.get("mem", "none"), 0.0)
            return s
        if bs.kind == "rf":
            return 0.4 + {1: -0.1, 2: -0.03, 4: 0.0, 8: -0.02}.get(p.get("rows", 1), 0.0) + (
                0.15 if p.get("mem") == "fuse" else 0.0)
        return 0.0

    # --- candidates ----------------------------------------------------------------------
    def block_combos(self, name: str, memory: bool) -> list[dict]:
        bs = self.blocks[name]
        keys = {k: v for k, v in bs.options.items()}
        if memory and len(bs.memory) > 1:
            keys["mem"] = bs.memory
        names = list(keys)
        combos = [dict(zip(names, vals)) for vals in itertools.product(*(keys[k] for k in names))]
        return sorted(combos, key=lambda c: -self._block_prior(bs, c))

    def favourite(self, memory: bool) -> dict:
        config = {}
        for name in self.blocks:
            combos = self.block_combos(name, memory)
            if combos:
                config.update({f"{name}:{k}": v for k, v in combos[0].items()})
        return config

    def neighbours(self, base: dict, memory: bool) -> list[dict]:
        out = []
        for name in self.blocks:
            for combo in self.block_combos(name, memory):
                c = {k: v for k, v in base.items() if not k.startswith(name + ":")}
                c.update({f"{name}:{k}": v for k, v in combo.items()})
                out.append(c)
        return out

    # --- scoring against what was measured -------------------------------------------------
    def distance(self, a: dict, b: dict) -> float:
        d = 0.0
        for k in set(a) | set(b):
            va, vb = a.get(k, "none"), b.get(k, "none")
            if va == vb:
                continue
            choices = self.space.keys(memory=True).get(k)
            if choices and va in choices and vb in choices and isinstance(va, int):
                d += min(2, abs(choices.index(va) - choices.index(vb)))
            else:
                d += 1
        return d

    def observed(self, past: Past) -> float:
        prior = self.prior(past.config)
        o = past.outcome or {}
        if o.get("status") == Status.CORRECT and o.get("speedup"):
            return math.log(max(o["speedup"], 1e-3))
        return prior - FAILED_PENALTY

    def predict(self, config: dict, measured: list[Past]) -> float:
        num = den = 0.0
        for m in measured:
            dist = self.distance(config, m.config)
            if dist > 3:
                continue
            w = 0.6 ** dist
            num += w * (self.observed(m) - self.prior(m.config))
            den += w
        return self.prior(config) + (num / max(1.0, den))

    def pick(self, measured: list[Past], proposed: list[dict], memory: bool,
             restrict=None, base: dict | None = None) -> tuple[dict, dict]:
        """The best-scoring configuration not proposed before that renders: (config, layers)."""
        best_m = max((m for m in measured if (m.outcome or {}).get("status") == Status.CORRECT),
                     key=lambda m: m.outcome.get("speedup") or 0.0, default=None)
        fav = self.favourite(memory)
        start = base or (best_m.config if best_m else fav)
        pool = [start] + self.neighbours(start, memory) + [fav] + self.neighbours(fav, memory)
        if restrict:
            pool = [c for c in pool if restrict(c)]
        seen_docs = []
        for c in proposed:
            try:
                seen_docs.append(self.space.render(c, memory))
            except Invalid:
                pass
        unique = {json.dumps(c, sort_keys=True): c for c in pool}
        ranked = sorted(unique.values(), key=lambda c: -self.predict(c, measured))
        for c in ranked:
            if any(c == p for p in proposed):
                continue
            try:
                layers = self.space.render(c, memory)
            except Invalid:
                continue
            if any(layers_equal(layers, s) for s in seen_docs):
                continue
            return c, layers
        raise AgentError("every candidate of this space has been measured")


class SearchAgent:
    """The responder behind model name ``ekb-search``."""

    name = NAME

    def reply(self, messages: list[dict], params: dict) -> str:
        text = "\n".join(m.get("content", "") for m in messages if m.get("role") in ("system", "user"))
        task = _TASK.search(text)
        if not task:
            raise AgentError("no 'Task: <workload id>' line in the conversation")
        target = _TARGET.search(text)
        cores, unit = 2, VectorUnit()
        if target:
            try:
                doc = json.loads(target.group(1))
                cores, unit = int(doc.get("num-cores", 2)), VectorUnit.of(doc)
            except (ValueError, AttributeError):
                pass
        try:
            w = suite.get_workload(task.group(1))
        except KeyError:
            raise AgentError(f"unknown workload {task.group(1)!r}") from None
        if w.level == "L3":
            raise AgentError("the search agent schedules single kernels (L1/L2); model graphs (L3) are not supported")
        last_user = next((m["content"] for m in reversed(messages) if m.get("role") == "user"), "")
        stage = _STAGE.search(last_user)
        past = self._history(messages)
        if stage:
            return self._layered(task.group(1), cores, unit, stage.group(1), int(stage.group(2)), last_user, past)
        seed = params.get("seed") if isinstance(params.get("seed"), int) else 0
        return self._full(task.group(1), cores, unit, past, seed)

    # --- reading the conversation --------------------------------------------------------
    @staticmethod
    def _history(messages: list[dict]) -> list[Past]:
        out = []
        for i, m in enumerate(messages):
            if m.get("role") != "assistant":
                continue
            meta = _meta(m.get("content", ""))
            if meta is None:
                continue
            outcome = None
            nxt = messages[i + 1]["content"] if i + 1 < len(messages) else ""
            res = _RESULT.search(nxt)
            if res:
                try:
                    outcome = json.loads(res.group(1))
                except json.JSONDecodeError:
                    outcome = None
            out.append(Past(meta.get("stage"), meta.get("c", ""), meta.get("cfg", {}), outcome))
        return out

    # --- direct and agent modes: whole documents ---------------------------------------------
    def _full(self, workload: str, cores: int, unit: VectorUnit, past: list[Past], seed: int) -> str:
        compute = compute_plan(suite.get_workload(workload).canonical_module())
        try:
            space = _workload_space(workload, json.dumps(compute), cores, unit)
        except Invalid as e:
            # nothing to search (an opaque body): TVM's own lowering is the only candidate
            doc = {"format": "layered-trace", "version": 1, "description": f"nothing to schedule: {e}",
                   "layers": {name: [] for name in LAYERS}}
            return f"Nothing to schedule here ({e}).\n```json\n{json.dumps(doc, indent=1)}\n```"
        s = Searcher(space)
        c_id = _digest(compute)
        mine = [p for p in past if p.compute == c_id and p.stage is None]
        measured = [p for p in mine if p.outcome]
        proposed = [p.config for p in mine]
        # Independent samples (direct mode) are the 1st, 2nd, … choice with nothing measured.
        config = layers = None
        for _ in range(seed + 1):
            config, layers = s.pick(measured, proposed, memory=True)
            proposed.append(config)
        doc = {"format": "layered-trace", "version": 1,
               "description": "search " + json.dumps({"c": c_id, "cfg": config}, sort_keys=True),
               "layers": layers}
        return (f"Proposal {len(mine) + 1}: predicted {math.exp(s.predict(config, measured)):.2f}× "
                f"tvm-default.\n```json\n{json.dumps(doc, indent=1)}\n```")

    # --- layered mode: one layer at a time ---------------------------------------------------
    def _layered(self, workload: str, cores: int, unit: VectorUnit, layer: str, left: int, question: str,
                 past: list[Past]) -> str:
        current = _current_document(question)
        if layer == "compute":
            steps = compute_plan(suite.get_workload(workload).canonical_module())
            if current.get("compute") == steps:
                return _layer_reply(layer, [], True, {"stage": layer, "c": _digest(steps), "cfg": {}},
                                    "The compute layer is already what the analysis chooses.")
            why = ("inline the elementwise producers; rfactor the row reductions so their "
                   "contiguous axis vectorises" if steps else "nothing to change in the compute layer")
            return _layer_reply(layer, steps, True, {"stage": layer, "c": _digest(steps), "cfg": {}}, why)
        compute = current.get("compute", [])
        try:
            space = _workload_space(workload, json.dumps(compute), cores, unit)
        except Invalid:
            return _layer_reply(layer, [], True, {"stage": layer, "c": "", "cfg": {}},
                                "the current compute layer does not apply; nothing to add")
        s = Searcher(space)
        c_id = _digest(compute)
        mine = [p for p in past if p.compute == c_id and p.stage in ("schedule", "memory")]
        measured = [p for p in mine if p.outcome]
        if layer == "schedule":
            proposed = [p.config for p in mine if p.stage == "schedule"]
            mem_variants = max(0, math.prod(len(bs.memory) for bs in space.blocks) - 1)
            keep = min(2, mem_variants)  # measurements left for the memory stage
            try:
                config, layers = s.pick(measured, proposed, memory=False)
            except AgentError:
                return _layer_reply(layer, current.get("schedule", []), True,
                                    {"stage": layer, "c": c_id, "cfg": {}}, "the schedule space is exhausted")
            advance = left <= keep or left <= 1
            return _layer_reply(layer, layers["schedule"], advance,
                                {"stage": layer, "c": c_id, "cfg": config},
                                f"predicted {math.exp(s.predict(config, measured)):.2f}× tvm-default")
        # memory: the schedule of the current document, with memory choices added
        base = next((p.config for p in mine if p.stage == "schedule" and _renders_to(
            space, p.config, current.get("schedule", []))), None)
        if base is None:
            return _layer_reply(layer, [], True, {"stage": layer, "c": c_id, "cfg": {}},
                                "the current schedule is not one of mine; leaving memory as it is")
        proposed = [p.config for p in mine if p.stage == "memory"] + [base]
        keys = [k for k in space.keys(memory=True) if k.endswith(":mem")]
        # search from the best memory choice measured so far (one block's choice changes at a time)
        tried = [p for p in mine if p.stage == "memory" and (p.outcome or {}).get("status") == Status.CORRECT
                 and all(p.config.get(k) == v for k, v in base.items())]
        start = max(tried, key=lambda p: p.outcome.get("speedup") or 0.0).config if tried else base
        try:
            config, layers = s.pick(measured, proposed, memory=True, base=start,
                                    restrict=lambda c: all(c.get(k) == v for k, v in base.items()
                                                           if not k.endswith(":mem")) and
                                    any(c.get(k, "none") != "none" for k in keys))
        except AgentError:
            return _layer_reply(layer, [], True, {"stage": layer, "c": c_id, "cfg": base},
                                "no memory choice left to try")
        return _layer_reply(layer, layers["memory"], left <= 1, {"stage": layer, "c": c_id, "cfg": config},
                            f"predicted {math.exp(s.predict(config, measured)):.2f}× tvm-default")


def _meta(reply: str) -> dict | None:
    """The ``search {...}`` record in one of our replies (note or description of its JSON)."""
    for block in _FENCE.findall(reply):
        try:
            doc = json.loads(block)
        except json.JSONDecodeError:
            continue
        text = doc.get("note") or doc.get("description") or "" if isinstance(doc, dict) else ""
        m = _NOTE.match(text) if isinstance(text, str) else None
        if m:
            try:
                meta = json.loads(m.group(1))
            except json.JSONDecodeError:
                return None
            return meta if isinstance(meta, dict) else None
    return None


def _renders_to(space: Space, config: dict, schedule: list) -> bool:
    try:
        return space.render(config, memory=False)["schedule"] == schedule
    except Invalid:
        return False


def _current_document(question: str) -> dict:
    """The layers of the 'Current document' block of a stage question."""
    m = _FENCE.search(question.split("Current document", 1)[-1])
    if not m:
        return {name: [] for name in LAYERS}
    try:
        doc = json.loads(m.group(1))
    except json.JSONDecodeError:
        return {name: [] for name in LAYERS}
    layers = doc.get("layers", {}) if isinstance(doc, dict) else {}
    return {name: layers.get(name, []) for name in LAYERS}


def _layer_reply(layer: str, steps: list, advance: bool, meta: dict, why: str) -> str:
    body = {"layer": layer, "steps": steps, "advance": advance,
            "note": "search " + json.dumps(meta, sort_keys=True)}
    return f"{layer} layer: {why}.\n```json\n{json.dumps(body, indent=1)}\n```"
