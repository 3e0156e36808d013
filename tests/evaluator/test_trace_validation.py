"""Optimization-trace validation (evaluator/formats/trace.py)."""

from __future__ import annotations

import json

import pytest

from evaluator.formats.trace import MAX_LINES, TraceError, parse_trace

BIG = 4 * 1024 * 1024


def line(**kw) -> str:
    rec = {"step": 0, "layer": "compute", "change": "naive"}
    rec.update(kw)
    return json.dumps({k: v for k, v in rec.items() if v is not ...})


def errors_of(text: str, max_bytes: int = BIG) -> list[str]:
    with pytest.raises(TraceError) as ei:
        parse_trace(text, max_bytes=max_bytes)
    assert str(ei.value) == "\n".join(ei.value.errors)
    return ei.value.errors


def test_valid_trace():
    text = "\n".join([
        line(step=0, latency_ms=10, correct=True, note="baseline"),
        "",
        line(step=1, layer="schedule", change="tile", ir="@T.prim_func ...", latency_ms=2.5, correct=None),
        "   ",
        line(step=5, layer="memory", change="cache_read", latency_ms=None, prompt="p", reply="r"),
        line(step=6, layer="other", change="done") + "\r",
    ]) + "\n"
    recs = parse_trace(text, max_bytes=BIG)
    assert [r["step"] for r in recs] == [0, 1, 5, 6]
    assert recs[1]["ir"] == "@T.prim_func ..." and recs[2]["latency_ms"] is None


def test_bad_json_line():
    errs = errors_of(line(step=0) + "\n" + '{"step": 1, "layer": "compute",}' + "\n")
    assert errs == ["line 2: invalid JSON at column 32: Expecting property name enclosed in double quotes"]


def test_nan_and_duplicate_keys_rejected():
    errs = errors_of('{"step": 0, "layer": "compute", "change": "x", "latency_ms": NaN}\n'
                     '{"step": 1, "step": 2, "layer": "compute", "change": "x"}')
    assert errs[0].startswith("line 1: invalid JSON") and "NaN" in errs[0]
    assert errs[1] == "line 2: duplicate key 'step'"


def test_not_an_object():
    assert errors_of("[1, 2]") == ["line 1: each line must be a JSON object, got an array"]


def test_missing_keys():
    errs = errors_of(json.dumps({"step": 0}) + "\n" + json.dumps({"layer": "compute", "change": "x"}))
    assert errs == ["line 1: missing 'layer'", "line 1: missing 'change'", "line 2: missing 'step'"]


def test_unknown_key():
    errs = errors_of(line(speedup=3))
    assert len(errs) == 1 and errs[0].startswith("line 1: unknown key 'speedup' (allowed: ")


@pytest.mark.parametrize("field, value, message", [
    ("step", -1, "line 1: 'step' must be an integer ≥ 0"),
    ("step", 1.5, "line 1: 'step' must be an integer ≥ 0"),
    ("step", True, "line 1: 'step' must be an integer ≥ 0"),
    ("step", "0", "line 1: 'step' must be an integer ≥ 0"),
    ("layer", "vibes", "line 1: 'layer' must be one of 'compute', 'schedule', 'memory', 'other'; got 'vibes'"),
    ("layer", 3, "line 1: 'layer' must be one of 'compute', 'schedule', 'memory', 'other'; got a number"),
    ("change", 5, "line 1: 'change' must be a string, got a number"),
    ("change", "c" * 2001, "line 1: 'change' is 2001 characters; the limit is 2000"),
    ("ir", ["x"], "line 1: 'ir' must be a string, got an array"),
    ("ir", "i" * 200_001, "line 1: 'ir' is 200001 characters; the limit is 200000"),
    ("latency_ms", -0.5, "line 1: 'latency_ms' must be a number ≥ 0 or null"),
    ("latency_ms", "3ms", "line 1: 'latency_ms' must be a number ≥ 0 or null"),
    ("latency_ms", False, "line 1: 'latency_ms' must be a number ≥ 0 or null"),
    ("correct", "yes", "line 1: 'correct' must be true, false or null"),
    ("correct", 1, "line 1: 'correct' must be true, false or null"),
    ("note", None, "line 1: 'note' must be a string, got null"),
    ("note", "n" * 2001, "line 1: 'note' is 2001 characters; the limit is 2000"),
    ("prompt", "p" * 100_001, "line 1: 'prompt' is 100001 characters; the limit is 100000"),
    ("reply", {}, "line 1: 'reply' must be a string, got an object"),
])
def test_wrong_types(field, value, message):
    assert errors_of(line(**{field: value})) == [message]


def test_non_increasing_steps():
    text = "\n".join([line(step=0), line(step=2), line(step=2), line(step=1), line(step=3)])
    errs = errors_of(text)
    assert errs == [
        "line 3: 'step' 2 is not greater than the previous step 2 (line 2); steps must be strictly increasing",
        "line 4: 'step' 1 is not greater than the previous step 2 (line 3); steps must be strictly increasing",
    ]


def test_too_many_lines():
    text = "\n".join(line(step=i) for i in range(MAX_LINES + 1))
    assert errors_of(text) == [f"trace has {MAX_LINES + 1} lines; the limit is {MAX_LINES}"]
    # Exactly at the limit is fine, and blank lines do not count.
    ok = "\n\n".join(line(step=i) for i in range(MAX_LINES))
    assert len(parse_trace(ok, max_bytes=BIG)) == MAX_LINES


def test_too_big():
    text = line(note="n" * 1500)
    assert errors_of(text, max_bytes=1000) == [f"trace is {len(text)} bytes; the limit is 1000 bytes"]
    big = "\n".join(line(step=i, ir="x" * 100_000) for i in range(50))
    assert errors_of(big, max_bytes=BIG)[0].startswith("trace is 4.8 MiB; the limit is 4 MiB")


def test_size_counts_utf8_bytes():
    text = line(change="é" * 400)  # 400 characters, 800 bytes in UTF-8
    assert errors_of(text, max_bytes=700)[0].startswith("trace is ")


def test_empty_trace():
    assert errors_of("\n  \n") == ["trace has no steps (the file is empty)"]


def test_many_errors_collected_and_capped():
    text = "\n".join(line(step=i, layer="bad") for i in range(150))
    errs = errors_of(text)
    assert len(errs) == 101
    assert errs[0].startswith("line 1: 'layer' must be one of") and errs[99].startswith("line 100:")
    assert errs[-1] == "... and 50 more problems in this trace"
