"""The built-in search agent as a model: its replies parse and apply to the workload, and what
it proposes next follows the measurements the conversation reports (no builds here: the
measured loop is in test_agents_modes.py and bench/agent_layered.py)."""

from __future__ import annotations

import json
import math
import re

import pytest

from evaluator import suite
from evaluator.agents import extract
from evaluator.agents.budget import Budget
from evaluator.agents.prompts import PromptSet
from evaluator.agents.search.agent import AgentError, SearchAgent, Searcher, _meta, _workload_space
from evaluator.agents.search.space import VectorUnit, compute_plan
from evaluator.backends import get_backend
from evaluator.ir import layered_trace

PROMPTS = PromptSet("ekb-prompt/1")
INFO = get_backend("cpu-llvm").info()


def opening(w, mode="agent"):
    return [{"role": "system", "content": PROMPTS.system(w, mode)},
            {"role": "user", "content": PROMPTS.task(w, INFO, mode, Budget(candidates=8))}]


def result_line(n, status="correct", speedup=None):
    res = {"candidate": n, "status": status}
    if speedup is not None:
        res.update(speedup=speedup, time_ms=1.0)
    return f"Candidate {n}: …\nRESULT {json.dumps(res, sort_keys=True)}"


def one_per_family():
    seen, out = set(), []
    for w in suite.workloads():
        if w.level != "L3" and w.family not in seen:
            seen.add(w.family)
            out.append(w.id)
    return out


@pytest.mark.parametrize("wid", one_per_family())
def test_first_proposal_applies_to_the_workload(wid):
    w = suite.get_workload(wid)
    reply = SearchAgent().reply(opening(w, "direct"), {"seed": 0})
    k = extract.kernel(reply)
    assert k.format == "layered-trace"
    layered_trace.apply(w.canonical_module(), json.loads(k.source))  # raises if a step does not apply


def config_of(reply: str) -> dict:
    return _meta(reply)["cfg"]


@pytest.mark.parametrize("wid", ["matmul/matmul@m128n512k128", "softmax/softmax@m256n512"])
def test_the_search_follows_the_measurements(wid):
    """A fast first candidate makes the next proposal one of its close variants; a failed or
    slow one sends the search elsewhere."""
    w = suite.get_workload(wid)
    agent = SearchAgent()
    messages = opening(w)
    r1 = agent.reply(messages, {})
    c1 = config_of(r1)
    compute = json.loads(extract.kernel(r1).source)["layers"]["compute"]
    searcher = Searcher(_workload_space(w.id, json.dumps(compute), 2))

    def after(line):
        return config_of(agent.reply(messages + [{"role": "assistant", "content": r1},
                                                 {"role": "user", "content": line}], {}))

    good, slow, failed = after(result_line(1, speedup=5.0)), after(result_line(1, speedup=0.5)), \
        after(result_line(1, "compile_error"))
    assert c1 not in (good, slow, failed)
    assert searcher.distance(c1, good) == 1
    assert searcher.distance(c1, slow) > 1 and searcher.distance(c1, failed) > 1
    # the conversation is the state: replaying it gives the same decision
    assert after(result_line(1, speedup=5.0)) == good


def test_a_failed_candidate_is_not_proposed_again():
    w = suite.get_workload("conv2d/conv2d-nchw@n1c32h28w28k32r3s1")
    agent = SearchAgent()
    messages = opening(w)
    r1 = agent.reply(messages, {})
    messages += [{"role": "assistant", "content": r1},
                 {"role": "user", "content": result_line(1, "compile_error")}]
    r2 = agent.reply(messages, {})
    assert extract.kernel(r2).source != extract.kernel(r1).source


def test_layered_stages():
    w = suite.get_workload("reduction/sum-lastaxis@m512n1024")
    agent = SearchAgent()
    empty = {"format": "layered-trace", "version": 1, "layers": {"compute": [], "schedule": [], "memory": []}}
    messages = opening(w, "layered")
    messages[-1]["content"] += "\n\n" + PROMPTS.stage("compute", 1, 6, empty, "")
    edit = extract.layer_edit(agent.reply(messages, {}), "compute")
    assert edit.advance and [s["op"] for s in edit.steps] == ["get_loops", "split", "rfactor"]
    doc = {**empty, "layers": {"compute": edit.steps, "schedule": [], "memory": []}}
    messages += [{"role": "assistant", "content": "```json\n{}\n```"},
                 {"role": "user", "content": PROMPTS.stage("schedule", 2, 5, doc, "")}]
    sched = extract.layer_edit(agent.reply(messages, {}), "schedule")
    assert not sched.advance and any(s["op"] == "vectorize" for s in sched.steps)
    layered_trace.apply(w.canonical_module(), {**doc, "layers": {**doc["layers"], "schedule": sched.steps}})


def test_model_graphs_are_declined_with_a_reason():
    w = suite.get_workload("model/anomaly-autoencoder@b1")
    with pytest.raises(AgentError, match=re.escape("model graphs (L3) are not supported")):
        SearchAgent().reply(opening(w), {})


def test_a_gather_is_proposed_scalar_and_unrolled_not_vectorised():
    """A bilinear resize reads through clamped, computed indices: vector lanes only serialise its
    loads (vectorised, it ran at half tvm-default's speed), so the first proposal keeps it scalar,
    unrolled and parallel; a point-wise block still gets vector lanes."""
    w = suite.get_workload("resize/resize-bilinear-align-corners@n1c32h33w33oh65ow65")
    [block] = Searcher(_workload_space(w.id, "[]", 2)).space.blocks
    assert block.info.gather and 1 in block.options["vec"]
    steps = extract.kernel(SearchAgent().reply(opening(w, "direct"), {"seed": 0}))
    ops = [s["op"] for s in json.loads(steps.source)["layers"]["schedule"]]
    assert "vectorize" not in ops and {"parallel", "unroll"} <= set(ops)
    plain = suite.get_workload("elementwise/prelu-channel@n1c64h56w56")
    assert not Searcher(_workload_space(plain.id, "[]", 2)).space.blocks[0].info.gather
    ops = [s["op"] for s in json.loads(extract.kernel(SearchAgent().reply(opening(plain, "direct"),
                                                                           {"seed": 0})).source)["layers"]["schedule"]]
    assert "vectorize" in ops


def test_producers_of_an_opaque_body_are_inlined_and_the_body_is_left_alone():
    """A scatter is one opaque block (a loop nest of its own) fed by two spatial blocks: the
    compute layer inlines the producers as tvm-default does, and never tries to inline the opaque
    body itself (which TVM refuses, and which used to throw the whole plan away)."""
    w = suite.get_workload("index/segment-sum@n2048d64s128")
    assert compute_plan(w.canonical_module()) == [{"op": "compute_inline", "block": "T_zeros"},
                                                  {"op": "compute_inline", "block": "T_rows"}]


def test_a_tiny_blocks_short_row_is_proposed_as_one_vector():
    """cmvn's 98x40 normalisation is under the tiny-block size (no parallel loop): vectorised 8
    lanes at a time it ran in 5.7 us where the whole 40-wide row, or scalar code, ran in 1.25 us
    (tvm-default's: 0.4 us). The first proposal vectorises the whole row; 8 lanes and scalar code
    stay in the space for the measurements to choose."""
    w = suite.get_workload("norm/cmvn@t98f40")
    block = next(b for b in Searcher(_workload_space(w.id, "[]", 2)).space.blocks if b.info.name == "T_cmvn")
    assert block.kind == "spatial" and block.options["parallel"] == [False]
    assert set(block.options["vec"]) == {40, 8, 1}
    schedule = json.loads(extract.kernel(SearchAgent().reply(opening(w, "direct"), {"seed": 0})).source)
    steps = schedule["layers"]["schedule"]
    mine = [s for s in steps if "T_cmvn" in json.dumps(s) or any(str(v).startswith("b2_") for v in s.values())]
    # the row is not cut into 8-lane pieces: split, if at all, into whole 40-wide rows
    assert all(s["factors"] == [None, 40] for s in mine if s["op"] == "split"), mine
    assert any(s["op"] == "vectorize" for s in mine), mine


def test_a_tiny_blocks_loops_are_proposed_fused():
    """qavg-pool2d's 64x12x2 average is a tiny block: row by row (two lanes at a time under two
    outer loops) it ran in 9 us, its loops fused into one in 3 us (tvm-default's 7.5 us). The
    first proposal fuses them; row by row stays in the space."""
    w = suite.get_workload("quant/qavg-pool2d@n1c64h24w4k2")
    s = Searcher(_workload_space(w.id, "[]", 2))
    block = next(b for b in s.space.blocks if b.info.name == "T_avg_pool")
    assert block.kind == "spatial" and block.options["shape"] == ["flat", "rows"]
    assert s.favourite(True)["T_avg_pool:shape"] == "flat"
    layers = s.space.render(s.favourite(True))
    tag = f"b{s.space.blocks.index(block)}"
    assert {"op": "fuse", "loops": [f"{tag}_l{i}" for i in range(4)], "into": f"{tag}_flat"} in layers["schedule"]


def test_a_small_window_is_tiled_in_a_vector_or_two_without_a_local_accumulator():
    """A 2x2 max pooling has four values to reduce per output: a matmul's register tile (16
    vectors accumulated in a local buffer) ran at 0.72x tvm-default, one or two vectors written
    in place at 1.9-2.4x. The first proposal for a small window is the latter; a matmul's long
    reduction keeps its register tile and local accumulator."""
    pool = Searcher(_workload_space("pool/max-pool2d@n1c16h64w64k2s2", "[]", 2))
    [block] = pool.space.blocks
    assert block.kind == "tile" and block.info.window
    fav = pool.favourite(True)
    assert fav["pool_max:t3"] == 32 and fav["pool_max:t1"] * fav["pool_max:t2"] <= 2, fav
    layers = pool.space.render(fav)
    assert not any(s["op"] == "cache_write" for s in layers["memory"]), layers["memory"]
    mm = Searcher(_workload_space("matmul/matmul@m128n512k128", "[]", 2))
    assert not mm.space.blocks[0].info.window
    fav = mm.favourite(True)
    assert any(s["op"] == "cache_write" for s in mm.space.render(fav)["memory"])
    inner = [v for k, v in fav.items() if k.split(":")[1].startswith("t")]
    assert math.prod(inner) // 16 >= 8, fav  # still a register tile of several vectors


def test_vectors_and_register_tiles_are_sized_to_the_targets_vector_unit():
    """The prompt's target names the ISA: AVX2 has half AVX-512's lanes and half its registers, so
    the first proposal's register tile holds fewer lanes there; a target that does not say is
    taken as AVX-512, as before."""
    assert VectorUnit.of({"kind": "llvm", "mcpu": "x86-64-v4"}) == VectorUnit() == VectorUnit.of({"kind": "llvm"})
    assert VectorUnit.of({"mcpu": "x86-64-v3"}) == VectorUnit(8, 16)
    assert VectorUnit.of({"mtriple": "aarch64-linux-gnu", "mattr": ["+neon"]}) == VectorUnit(4, 32)

    def tile_lanes(unit):
        fav = Searcher(_workload_space("matmul/matmul@m128n512k128", "[]", 2, unit)).favourite(True)
        return math.prod(v for k, v in fav.items() if k.split(":")[1].startswith("t"))

    avx512, avx2 = tile_lanes(VectorUnit()), tile_lanes(VectorUnit.of({"mcpu": "x86-64-v3"}))
    assert avx2 < avx512 and 3 <= avx2 / 8 <= 12, (avx2, avx512)

    w = suite.get_workload("matmul/matmul@m128n512k128")
    for mcpu, lanes in (("x86-64-v4", avx512), ("x86-64-v3", avx2)):
        messages = opening(w, "direct")
        messages[1]["content"] = re.sub(r'"mcpu": "[^"]*"', f'"mcpu": "{mcpu}"', messages[1]["content"])
        assert f'"mcpu": "{mcpu}"' in messages[1]["content"]
        cfg = config_of(SearchAgent().reply(messages, {"seed": 0}))
        assert math.prod(v for k, v in cfg.items() if k.split(":")[1].startswith("t")) == lanes, (mcpu, cfg)
