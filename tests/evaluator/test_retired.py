"""Retired patterns and renamed workload ids (evaluator/suite/retired.py): the near-duplicates the
edge-suite issue names are out of every listing, count, draw and bundle, yet every stored id still
resolves; and every shape tag follows the one grammar the suite writes."""

import json
import re

import pytest

from evaluator import suite
from evaluator.formats.bundle import BundleError, load_bundle
from evaluator.suite import retired
from evaluator.suite.declare import tag_of

SECRET = "retired-test-secret"
# key-value pairs (a value is a number or an 'x'-joined tuple of them, 'neg' for a minus), then
# at most one '-<dtype>' suffix
TAG = re.compile(r"(?:[a-z]+(?:neg)?\d+(?:x(?:neg)?\d+)*)+(?:-(?:f16|bf16|i8|u8|i32))?")


def test_the_near_duplicates_are_retired_with_a_successor_that_is_served():
    assert set(retired.RETIRED) == {"fused/depthwise-separable", "elementwise/scale-shift-channel", "matmul/gram"}
    active = {p.id for p in suite.patterns()}
    for pid, why in retired.RETIRED.items():
        assert pid not in active
        assert why.successor in active and why.reason


def test_a_retired_pattern_is_not_listed_counted_sampled_served_or_drawn():
    gone = tuple(f"{p}@" for p in retired.RETIRED)
    listed = suite.workloads(include_hidden=True, secret=SECRET)
    assert not [w.id for w in listed if w.id.startswith(gone)]
    assert not [w.id for w in suite.sample(200) if w.id.startswith(gone)]
    assert not [w.id for w in suite.served("fused/*,elementwise/*,matmul/*") if w.id.startswith(gone)]
    assert suite.select(["matmul/gram@*"]) == []
    summary = suite.summary(include_hidden=True, secret=SECRET)
    assert summary["workloads"] == len(listed)
    assert "matmul/gram" not in {w.pattern.id for w in suite.held_out(SECRET)}
    with pytest.raises(ValueError, match="matches no public workload"):
        suite.served("matmul/gram@*")


def test_a_retired_workload_still_resolves_by_id_and_its_shapes_live_on():
    w = suite.get_workload("matmul/gram@m512n128")
    assert w.pattern.id == "matmul/gram"
    assert suite.retirement_of(w.id).successor == "matmul/syrk"
    assert suite.retirement_of("matmul/syrk@n256k128") is None
    # the retired shapes are the successors' now: the same products, the same sizes
    assert suite.get_workload("matmul/syrk@n128k512").flops == w.flops
    assert suite.get_workload("conv-block/depthwise-separable-bn@n1c32h56w56k64s1p1")
    assert suite.get_workload("norm/batch-norm-nchw@n1c128h28w28")


def test_a_renamed_id_resolves_to_its_new_one():
    for old, new in retired.RENAMED.items():
        assert suite.get_workload(old).id == new
        assert old not in {w.id for w in suite.workloads()}


@pytest.mark.parametrize("target", [{"workload": "fused/depthwise-separable@n1c64h25w5k64"},
                                    {"pattern": "elementwise/scale-shift-channel"}])
def test_a_bundle_entry_naming_a_retired_target_is_refused_with_the_reason_and_the_successor(tmp_path, target):
    (tmp_path / "s.json").write_text("{}")
    entry = {**target, "backend": "cpu-llvm", "format": "layered-trace", "file": "s.json"}
    (tmp_path / "manifest.json").write_text(json.dumps(
        {"schema": "edgekernelbench/bundle@1", "name": "old", "description": "", "entries": [entry]}))
    with pytest.raises(BundleError) as e:
        load_bundle(tmp_path)
    kind, name = next(iter(target.items()))
    successor = suite.retirement_of(name).successor
    assert f"{kind} {name!r} is retired (a near-duplicate" in str(e.value)
    assert f"name pattern {successor!r} instead" in str(e.value)


def test_every_shape_tag_follows_the_one_grammar():
    odd = [w.id for w in suite.workloads() if not TAG.fullmatch(w.id.split("@", 1)[1])]
    assert not odd, odd


def test_a_negative_parameter_is_written_neg_never_minus():
    assert tag_of({"c": 16, "zb": -100}) == "c16zbneg100"
    assert tag_of({"p": (0, -1), "dtype": "float16"}) == "p0xneg1-f16"
    assert TAG.fullmatch(tag_of({"zb": -100, "dtype": "int8"}))
