"""A stored Result has a speedup column for every baseline, filled from the evaluator's record."""

from __future__ import annotations

import pytest

from portal_helpers import BACKEND, make_submission, make_user, served_tasks

pytestmark = pytest.mark.django_db


def test_every_baseline_has_its_column():
    from evaluator.vocabulary import Baseline
    from portal.models import Result

    for b in Baseline:
        assert Result._meta.get_field("speedup_" + b.value.replace("-", "_")).null


@pytest.mark.parametrize("speedup", [{"tvm-default": 2.0, "tvm-tuned": 1.25, "vendor": 0.5}, {"tvm-default": 2.0}])
def test_store_fills_each_baseline_column(speedup):
    from evaluator.records import TaskResult
    from portal import evaluation
    from portal.models import Result

    sub = make_submission(make_user("cols"), "cols", state="running")
    w = served_tasks()[0]
    r = TaskResult(w.id, BACKEND, "correct", speedup=speedup, level=w.level, domains=list(w.domains))
    assert evaluation.store(sub, r, announce=False)
    row = Result.objects.get(submission=sub)
    assert (row.speedup_tvm_default, row.speedup_tvm_tuned, row.speedup_vendor) == (
        speedup.get("tvm-default"), speedup.get("tvm-tuned"), speedup.get("vendor"))
