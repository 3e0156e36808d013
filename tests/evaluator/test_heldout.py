"""Held-out workloads drawn from the deployment's secret (``evaluator.suite.heldout``): one or
more per pattern, at least 20 % of the suite, new shapes, bounded cost, different for every
secret, opaque ids, and nowhere in the repository."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from evaluator import suite
from evaluator.suite import heldout
from evaluator.suite.base import GraphPattern, Workload, WorkloadDef
from evaluator.suite.declare import shape_key, tag_of

ROOT = Path(__file__).resolve().parents[2]
ONE, TWO = "held-out-test-secret-one", "held-out-test-secret-two"


def _suite_json(secret: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in (heldout.SECRET_ENV, heldout.SECRET_FILE_ENV)}
    if secret is not None:
        env[heldout.SECRET_ENV] = secret
    return subprocess.run([sys.executable, "-m", "evaluator", "suite", "--json", "--all"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


def test_two_secrets_give_two_sets_each_covering_every_pattern():
    """`python -m evaluator suite --json --all` under two secrets: ≥ 1 held-out workload per
    pattern, ≥ 20 % held out, and different shapes."""
    a, b = (json.loads(_suite_json(s).stdout) for s in (ONE, TWO))
    for s in (a, b):
        assert s["hidden_per_pattern_min"] >= 1
        assert s["hidden_share"] >= 0.20 and s["hidden"] >= 0.20 * s["workloads"], s
        assert s["patterns"] == len(suite.patterns())
    assert a["hidden_shapes_digest"] != b["hidden_shapes_digest"]
    shapes = [{(w.pattern.id, repr(w.params)) for w in suite.held_out(s)} for s in (ONE, TWO)]
    assert len(shapes[0] ^ shapes[1]) > 0.5 * len(shapes[0])  # most shapes differ, not one


def _drawn(secret: str) -> list[WorkloadDef]:
    return [WorkloadDef(p, s) for p in suite.patterns() for s in heldout.draw(p, secret)]


def test_the_draw_is_deterministic_per_secret():
    """The suite's held-out set is the draw, then the held-out graphs' own layers; both the same
    every time they are made."""
    first = [(w.id, w.params) for w in suite.held_out(ONE)]
    drawn = [(w.id, w.params) for w in _drawn(ONE)]
    assert first[:len(drawn)] == drawn and len(first) > len(drawn)
    suite._held_out.cache_clear()  # made afresh, not read back from the cache
    assert [(w.id, w.params) for w in suite.held_out(ONE)] == first


def test_without_a_secret_nothing_is_drawn_and_the_cli_says_why():
    p = _suite_json(None)
    assert p.returncode == 2 and p.stdout == ""
    assert heldout.SECRET_ENV in p.stderr
    saved = os.environ.pop(heldout.SECRET_ENV)
    try:
        with pytest.raises(suite.HeldOutSecretMissing, match=heldout.SECRET_ENV):
            suite.workloads(include_hidden=True)
        assert all(not w.hidden for w in suite.workloads())  # the public suite needs no secret
    finally:
        os.environ[heldout.SECRET_ENV] = saved


def test_the_secret_may_come_from_a_file(tmp_path):
    f = tmp_path / "heldout-secret"
    f.write_text(TWO + "\n")
    saved = os.environ.pop(heldout.SECRET_ENV)
    os.environ[heldout.SECRET_FILE_ENV] = str(f)
    try:
        assert heldout.configured_secret() == TWO
        assert [w.id for w in suite.held_out()] == [w.id for w in suite.held_out(TWO)]
    finally:
        os.environ.pop(heldout.SECRET_FILE_ENV)
        os.environ[heldout.SECRET_ENV] = saved


@pytest.mark.parametrize("secret", [ONE, TWO])
def test_held_out_shapes_are_new_bounded_and_opaque(secret):
    public = {w.pattern.id: [] for w in suite.workloads()}
    for w in suite.workloads():
        public[w.pattern.id].append(w)
    held = suite.held_out(secret)
    drawn = Counter(w.pattern.id for w in _drawn(secret))
    per_pattern = Counter(w.pattern.id for w in held)
    for p in suite.patterns():
        assert drawn[p.id] == heldout.count_for(p) >= 1, p.id
        assert per_pattern[p.id] >= drawn[p.id], p.id  # and the held-out graphs' layers
    assert len({w.id for w in held}) == len(held)
    for w in held:
        mine = public[w.pattern.id]
        assert w.hidden and all(w.params != v.params for v in mine), w.id
        assert any(set(w.params) == set(v.params) for v in mine), w.id  # the pattern's own parameters
        # its id names no shape: neither its parameters' tag nor any value of them
        tag = w.id.split("@", 1)[1]
        assert tag != tag_of(w.params) and tag.startswith("x") and len(tag) == 13, w.id
        assert w.bytes <= min(heldout.MAX_BYTES, max(heldout.MAX_GROWTH * max(v.bytes for v in mine), 1 << 20)), w.id
        assert w.flops <= heldout.MAX_FLOPS, w.id
        assert all(d > 0 for t in w.inputs + w.outputs for d in t.shape), w.id
        assert set(w.domains) >= set(w.pattern.domains)


@pytest.mark.parametrize("secret", [ONE, TWO])
def test_held_out_graphs_are_their_layers(secret):
    """Every held-out model graph's layers are workloads of the suite under its secret — public
    where a public workload has the shape, held out (opaque id, once) where none has — and their
    FLOPs add up to the graph's exactly, as for the public graphs."""
    every = {w.id: w for w in suite.workloads(include_hidden=True, secret=secret)}
    public = {shape_key(w.pattern.id, w.params) for w in suite.workloads()}
    graphs = [w for w in suite.held_out(secret) if isinstance(w.pattern, GraphPattern)]
    assert len(graphs) >= len([p for p in suite.patterns() if isinstance(p, GraphPattern)])
    made = set()
    for g in graphs:
        layers = suite.layers_of(g, secret)
        assert [d["workload"] for d in g.describe(secret)["layers"]] == [w.id for w, _ in layers], g.id
        for w, _ in layers:
            assert every.get(w.id) is w and w.level in ("L1", "L2"), (g.id, w.id)
            assert w.hidden == (shape_key(w.pattern.id, w.params) not in public), (g.id, w.id)
            if w.hidden:
                assert tag_of(w.params) not in w.id and set(g.domains) <= set(w.domains), w.id
                assert all(d > 0 for t in w.inputs + w.outputs for d in t.shape), w.id  # it builds
                made.add(w.id)
        assert sum(n * w.flops for w, n in layers) == g.flops, g.id
    assert made  # the variants need shapes the public suite lacks (another class count, width, size)
    # a graph no draw made (VWW draws 3, 4, 5 or 10 classes) has a layer nothing is: named, not skipped
    vww = next(p for p in suite.patterns() if p.id == "model/mobilenet-v1-vww")
    with pytest.raises(suite.UnknownWorkload, match="classifier-head@n1c256h3w3k7"):
        suite.layers_of(WorkloadDef(vww, Workload("x0", {"classes": 7}, hidden=True)), secret)


def test_square_images_stay_square_and_transform_lengths_powers_of_two():
    for w in suite.held_out(ONE) + suite.held_out(TWO):
        p = w.params
        if "h" in p and "w" in p and all(s.params.get("h") == s.params.get("w") for s in w.pattern.workloads):
            assert p["h"] == p["w"], w.id
        if "nfft" in p and all(s.params["nfft"] & (s.params["nfft"] - 1) == 0 for s in w.pattern.workloads):
            assert p["nfft"] & (p["nfft"] - 1) == 0, w.id


def test_a_declared_shape_space_is_obeyed():
    vww = next(p for p in suite.patterns() if p.id == "model/mobilenet-v1-vww")
    for secret in (ONE, TWO, "three", "four"):
        (w,) = heldout.draw(vww, secret)
        assert w.params["classes"] in (3, 4, 5, 10)


def test_no_held_out_shape_or_list_is_in_the_repository():
    """The old list is gone, and no tracked file names a drawn shape as an id would."""
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    assert "evaluator/suite/hidden_workloads.py" not in tracked
    named = {f"{w.pattern.id}@{tag_of(w.params)}" for w in suite.held_out()} | {w.id for w in suite.held_out()}
    for rel in tracked:
        path = ROOT / rel
        if path.suffix not in (".py", ".md", ".json", ".html", ".txt", ".yaml", ".yml", ".csv") or not path.is_file():
            continue
        text = path.read_text(errors="replace")
        assert not [n for n in named if n in text], rel
