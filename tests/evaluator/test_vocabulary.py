"""The domain's words (``evaluator.vocabulary``) are defined once and read as plain strings."""

from __future__ import annotations

import json

from evaluator import baselines, records, scoring
from evaluator.backends import BACKENDS
from evaluator.vocabulary import BackendKind, Baseline, Status, Track, choices


def test_the_old_names_are_the_vocabulary():
    assert records.STATUSES == tuple(Status)
    assert records.CORRECT is Status.CORRECT and records.SUSPECT is Status.SUSPECT
    assert baselines.BASELINES == tuple(Baseline) == ("tvm-default", "tvm-tuned", "vendor")
    assert scoring.DEFAULT_BASELINE is Baseline.TVM_DEFAULT
    assert set(BACKENDS) == set(BackendKind)
    assert tuple(Track) == ("public", "verified")


def test_a_word_is_its_string_everywhere_it_is_shown_or_stored():
    assert Status.WRONG_RESULT == "wrong_result" and f"{Status.WRONG_RESULT}" == "wrong_result"
    assert repr(Baseline.VENDOR) == "'vendor'" and str([Track.PUBLIC]) == "['public']"
    assert {"tvm-default": 2.0}[Baseline.TVM_DEFAULT] == 2.0
    assert json.dumps({Baseline.TVM_TUNED: Status.CORRECT}) == '{"tvm-tuned": "correct"}'
    r = records.TaskResult("w", "cpu-llvm", Status.CORRECT, speedup={Baseline.TVM_DEFAULT: 1.5})
    assert json.loads(json.dumps(r.to_json()))["speedup"] == {"tvm-default": 1.5}


def test_choices_are_plain_strings_with_words_as_labels():
    assert choices(Status)[1] == ("wrong_result", "wrong result")
    assert all(type(v) is str for v, _ in choices(Baseline))
