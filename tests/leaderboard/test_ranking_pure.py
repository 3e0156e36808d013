"""leaderboard.ranking's pure parts, with hand-made rows and no database: scoring one row
(``entry_metrics``, ``baseline_records``), ranking a board's rows (``rank``) and the caches."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import pytest

from leaderboard.ranking.cache import DecodedEntries, MeasuredBaselines
from leaderboard.ranking.scoring import (HIST_RANGE, NO_GENERALISATION, SIG_KEYS, SPEED_KEYS, Entry, baseline_notices,
                                         baseline_records, entry_metrics, hist_bin, measured_baselines,
                                         own_generalisations, rank)

REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Task:
    id: str
    domains: tuple[str, ...] = ("vision",)
    hidden: bool = False


TASKS = [Task("add@a", ("vision",)), Task("mul@a", ("vision", "audio")), Task("fft@a", ("audio",)),
         Task("gemm@a", ("language",))]


def rec(speedup: float | None = None, status: str = "correct", ci=None, roofline=None, vs="tvm-default") -> dict:
    """One task's record, its speedup against ``vs`` (and its 95 % CI, if any)."""
    return {"status": status, "speedup": {vs: speedup} if speedup is not None else {},
            "speedup_ci": {vs: list(ci)} if ci else {}, "roofline_fraction": roofline}


def sub(sid: int, name: str, by_task: dict, owner: str = "", created_at: str = "", verified: bool = False) -> Entry:
    metrics, hist = entry_metrics(by_task, TASKS)
    return Entry(metrics, hist, submission_id=sid, name=name, owner=owner or name,
                 created_at=created_at or f"2024-01-{sid:02d}T00:00:00+00:00", verified=verified)


def base(name: str, samples: dict | None = None) -> Entry:
    metrics, hist = entry_metrics(baseline_records(name, samples or {}, TASKS), TASKS)
    return Entry(metrics, hist, baseline=name)


def every(speedup: float, **kw) -> dict:
    return {w.id: rec(speedup, **kw) for w in TASKS}


def ranked(entries, **kw):
    kw.setdefault("baseline", "tvm-default")
    kw.setdefault("p", 1.0)
    kw.setdefault("measured", measured_baselines(entries))
    return rank(entries, **kw)


# ----------------------------------------------------------------------------- one row


def test_missing_failed_and_suspect_tasks_count_as_wrong():
    by_task = {"add@a": rec(2.0, roofline=0.4), "mul@a": rec(1.0, roofline=0.2),
               "fft@a": rec(3.0, status="suspect", roofline=0.9)}  # gemm@a: missing
    metrics, hist = entry_metrics(by_task, TASKS)
    s = metrics["baselines"]["tvm-default"]
    assert metrics["tasks"] == 4 and metrics["attempted"] == 3
    assert s["correct"] == 2 and s["correct@1"] == 0.5
    assert s["fast@1.0"] == 0.5 and s["fast@1.5"] == 0.25 and s["fast@2.0"] == 0.25
    assert s["geomean_correct"] == pytest.approx(math.sqrt(2.0))
    assert s["geomean_deployable"] == pytest.approx(2.0 ** 0.25)  # wrong and missing count 1.0
    assert metrics["roofline_median"] == pytest.approx(0.3)  # over the correct tasks only
    # per domain: counts at each p, against each baseline
    assert metrics["domains"]["vision"] == {"tasks": 2, "correct": 2,
                                            "fast": {"tvm-default": [2, 2, 2, 1, 1], "tvm-tuned": [0] * 5,
                                                     "vendor": [0] * 5}}
    assert metrics["domains"]["audio"]["correct"] == 1 and metrics["domains"]["language"]["tasks"] == 1
    # the histogram bins correct tasks only: 2x is bin 4 (four bins per octave), 1x bin 0
    assert hist == {"tvm-default": {"4": 1, "0": 1}}


def test_a_row_without_a_correct_task():
    metrics, hist = entry_metrics({"add@a": rec(5.0, status="wrong_output"), "mul@a": rec(status="timeout")}, TASKS)
    s = metrics["baselines"]["tvm-default"]
    assert s["correct@1"] == 0.0 and s["fast@0.5"] == 0.0 and s["fast_sig@0.5"] == 0.0
    assert s["geomean_correct"] is None and s["geomean_deployable"] == 1.0
    assert metrics["roofline_median"] is None and hist == {}
    empty, _ = entry_metrics({}, [])
    assert empty["baselines"]["tvm-default"]["correct@1"] == 0.0
    assert empty["baselines"]["tvm-default"]["geomean_deployable"] is None


def test_significant_fast_and_ties_come_from_the_interval():
    metrics, _ = entry_metrics({"add@a": rec(1.3, ci=(1.1, 1.5)), "mul@a": rec(1.3, ci=(0.9, 1.6)),
                                "fft@a": rec(1.3)}, TASKS)
    s = metrics["baselines"]["tvm-default"]
    assert s["fast@1.0"] == 0.75 and s["fast_sig@1.0"] == 0.25 and s["fast_sig@0.8"] == 0.5
    assert s["ties@1.0"] == 0.25


def test_hist_bins_are_clamped():
    assert hist_bin(1.0) == 0 and hist_bin(2.0) == 4 and hist_bin(0.5) == -4 and hist_bin(1.18) == 0
    assert hist_bin(1e12) == HIST_RANGE - 1 and hist_bin(1e-12) == -HIST_RANGE


def test_baseline_records_from_the_samples():
    samples = {"add@a": ({"tvm-default": 2.0, "vendor": 4.0, "tvm-tuned": 1.0}, 0.5),
               "mul@a": ({"tvm-default": 1.5}, None)}
    default = baseline_records("tvm-default", samples, TASKS)
    # the reference build is correct everywhere, 1x against itself, also where nothing timed it
    assert set(default) == {w.id for w in TASKS}
    assert default["add@a"]["speedup"] == {"tvm-default": 1.0, "vendor": 2.0, "tvm-tuned": 0.5}
    assert default["add@a"]["roofline_fraction"] == 0.25 and default["gemm@a"]["roofline_fraction"] is None
    assert default["gemm@a"]["speedup"] == {"tvm-default": 1.0}
    # another baseline covers only the tasks where it was timed: t_B / t_X = s_B / s_X
    vendor = baseline_records("vendor", samples, TASKS)
    assert set(vendor) == {"add@a"}
    assert vendor["add@a"]["speedup"] == {"tvm-default": 0.5, "vendor": 1.0, "tvm-tuned": 0.25}
    assert vendor["add@a"]["speedup_ci"] == {"vendor": [1.0, 1.0]}
    assert baseline_records("tvm-tuned", {}, TASKS) == {}


# ----------------------------------------------------------------------------- ranking


def test_rank_by_fast_p_then_correct_then_the_deployable_geomean():
    entries = [
        sub(1, "steady", every(0.9)),  # correct everywhere, never faster
        sub(2, "slowpoke", {"add@a": rec(1.0), "mul@a": rec(1.0)}),
        sub(3, "sprinter", {"add@a": rec(2.0), "mul@a": rec(2.0)}),  # slowpoke's Fast@1 and Correct@1, faster
        base("vendor"), base("tvm-tuned"), base("tvm-default"),
    ]
    rows, _ = ranked(entries)
    assert [(r.name, r.rank) for r in rows] == [("tvm-default", 1), ("sprinter", 2), ("slowpoke", 3), ("steady", 4),
                                                ("vendor", 5)]
    assert [r.kind for r in rows] == ["baseline", "submission", "submission", "submission", "baseline"]
    # at p = 0.8 steady is fast on every task too: second, behind tvm-default's higher geomean
    rows, _ = ranked(entries, p=0.8)
    assert [r.name for r in rows][:2] == ["tvm-default", "steady"]
    sprinter = next(r for r in rows if r.name == "sprinter")
    assert sprinter.submission_id == 3 and sprinter.owner == "sprinter" and sprinter.domains == {
        "vision": 1.0, "audio": 0.5, "language": 0.0}


def test_ties_go_to_baselines_in_their_order_then_to_who_got_there_first():
    samples = {w.id: ({"tvm-default": 1.0, "vendor": 1.0, "tvm-tuned": 1.0}, None) for w in TASKS}
    entries = [sub(9, "late", every(1.0), created_at="2024-03-01T00:00:00+00:00"),
               sub(5, "twin-b", every(1.0), created_at="2024-02-01T00:00:00+00:00"),
               sub(4, "twin-a", every(1.0), created_at="2024-02-01T00:00:00+00:00"),
               base("vendor", samples), base("tvm-tuned", samples), base("tvm-default", samples)]
    rows, _ = ranked(entries)
    assert [r.name for r in rows] == ["tvm-default", "tvm-tuned", "vendor", "twin-a", "twin-b", "late"]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]


def test_against_a_baseline_never_timed_there_are_no_speedups():
    entries = [sub(1, "fast", {"add@a": rec(3.0), "mul@a": rec(3.0)}), sub(2, "correct", every(0.5)),
               base("tvm-default"), base("tvm-tuned"), base("vendor")]
    measured = measured_baselines(entries)
    assert measured == ["tvm-default"]
    rows, hist = ranked(entries, baseline="vendor", with_histogram=True)
    by_name = {r.name: r for r in rows}
    for r in rows:
        assert all(r.summary[k] is None for k in SPEED_KEYS), r
        assert set(r.domains.values()) == {None}
    # ranked by Correct@1 alone; tvm-tuned has no row until something timed it
    assert [r.name for r in rows] == ["tvm-default", "correct", "fast", "vendor"]
    assert by_name["correct"].summary["correct@1"] == 1.0 and hist == {}
    notices = baseline_notices("vendor", measured)
    assert any(n.startswith("no vendor results on this board: speedups against vendor") for n in notices)
    assert "no tvm-tuned results on this board yet: it has no row" in notices


def test_a_baseline_timed_elsewhere_on_the_board_has_a_row():
    entries = [sub(1, "a", every(1.2)), base("tvm-default"), base("tvm-tuned"), base("vendor")]
    measured = measured_baselines(entries, measured_elsewhere={"tvm-tuned"})
    assert measured == ["tvm-default", "tvm-tuned"]
    rows, _ = ranked(entries, measured=measured)
    assert {r.name for r in rows} == {"a", "tvm-default", "tvm-tuned", "vendor"}
    assert baseline_notices("tvm-default", measured) == []
    # a baseline that attempted a task of the slice counts as measured by itself
    timed = [base("vendor", {"add@a": ({"tvm-default": 1.0, "vendor": 2.0}, None)})]
    assert measured_baselines(timed) == ["tvm-default", "vendor"]


def test_significant_columns_only_where_an_interval_is_known():
    samples = {w.id: ({"tvm-default": 1.0, "vendor": 2.0}, None) for w in TASKS}
    entries = [sub(1, "a", every(1.3, ci=(1.1, 1.5))), base("tvm-default", samples), base("vendor", samples)]
    rows = {r.name: r for r in ranked(entries)[0]}
    assert rows["a"].summary["fast_sig@1.0"] == 1.0
    assert rows["tvm-default"].summary["fast_sig@1.0"] == 1.0 and rows["tvm-default"].summary["ties@1.0"] == 1.0
    # a baseline against another: no interval, so – rather than a 0 that claims "never faster"
    assert all(rows["vendor"].summary[k] is None for k in SIG_KEYS)
    assert rows["vendor"].summary["fast@1.0"] == 0.0  # t_default / t_vendor = 0.5
    # an entry stored before intervals existed has none either
    old = sub(2, "old", every(1.3))
    for s in old.metrics["baselines"].values():
        for k in SIG_KEYS:
            del s[k]
    rows = {r.name: r for r in ranked([old, base("tvm-default")])[0]}
    assert all(rows["old"].summary[k] is None for k in SIG_KEYS) and rows["old"].summary["fast@1.0"] == 1.0


def test_best_and_latest_per_team():
    entries = [sub(1, "v1", every(2.0), owner="team", created_at="2024-01-01T00:00:00+00:00"),
               sub(2, "v2", every(1.1), owner="team", created_at="2024-02-01T00:00:00+00:00"),
               sub(3, "solo", every(1.5), owner="other"), base("tvm-default"), base("vendor")]
    assert [r.name for r in ranked(entries)[0]] == ["v1", "solo", "v2", "tvm-default", "vendor"]
    best, _ = ranked(entries, view="best")
    assert [(r.name, r.rank) for r in best] == [("v1", 1), ("solo", 2), ("tvm-default", 3), ("vendor", 4)]
    latest, _ = ranked(entries, view="latest")
    assert [(r.name, r.rank) for r in latest] == [("solo", 1), ("v2", 2), ("tvm-default", 3), ("vendor", 4)]


def test_display_sort_keeps_ranks_and_puts_missing_values_last():
    entries = [sub(1, "b-roof", {"add@a": rec(2.0, roofline=0.9)}), sub(2, "a-none", every(0.9)),
               sub(3, "c-roof", every(1.2, roofline=0.1)), base("tvm-default"), base("vendor")]
    by_rank, _ = ranked(entries)
    ranks = {r.name: r.rank for r in by_rank}
    rows, _ = ranked(entries, sort="roofline")
    assert [r.name for r in rows] == ["b-roof", "c-roof", "tvm-default", "a-none", "vendor"]
    assert {r.name: r.rank for r in rows} == ranks
    rows, _ = ranked(entries, sort="roofline", order="asc")
    assert [r.name for r in rows][:2] == ["c-roof", "b-roof"]  # rows without a value stay last
    rows, _ = ranked(entries, sort="name")
    assert [r.name for r in rows] == ["a-none", "b-roof", "c-roof", "tvm-default", "vendor"]
    rows, _ = ranked(entries, sort="correct", order="asc")
    assert [r.summary["correct@1"] for r in rows] == sorted(r.summary["correct@1"] for r in rows)


def test_histogram_adds_up_the_ranked_submissions_against_the_chosen_baseline():
    entries = [sub(1, "a", {"add@a": rec(2.0), "mul@a": rec(1.0)}), sub(2, "b", {"add@a": rec(2.0)}),
               base("tvm-default")]
    assert ranked(entries, with_histogram=True)[1] == {0: 1, 4: 2}
    assert ranked(entries)[1] == {}  # only added up when asked for


def test_generalisation_on_submission_rows_only():
    verified_share = {"generalisation": 0.5, "generalisation_fast": 0.25, "generalisation_patterns": 4}
    entries = [sub(1, "a", every(1.0), verified=True), sub(2, "b", every(1.0)), base("tvm-default")]
    rows = {r.name: r for r in ranked(entries, generalisations={1: verified_share})[0]}
    assert {k: rows["a"].summary[k] for k in verified_share} == verified_share
    for name in ("b", "tvm-default"):
        assert {k: rows[name].summary[k] for k in NO_GENERALISATION} == NO_GENERALISATION
    # a verified board's rows carry their own; one stored before the metric existed has none
    entries[1].metrics.pop("generalisation")
    own = own_generalisations(entries)
    assert own == {1: entries[0].metrics["generalisation"], 2: NO_GENERALISATION}
    assert rows["a"].verified and not rows["b"].verified


def test_rows_serialise_to_json():
    rows, _ = ranked([sub(7, "a", every(1.0), owner="alice", created_at="2024-05-01T00:00:00+00:00"),
                      base("tvm-default")])
    a = next(r for r in rows if r.kind == "submission").to_json()
    assert {k: a[k] for k in ("rank", "kind", "name", "submission_id", "owner", "created_at", "verified")} == {
        "rank": 2, "kind": "submission", "name": "a", "submission_id": 7, "owner": "alice",
        "created_at": "2024-05-01T00:00:00+00:00", "verified": False}
    assert a["summary"]["fast@1.0"] == 1.0 and a["domains"]["vision"] == 1.0


def test_scoring_runs_without_django():
    """The scoring module loaded on its own, in a process with no settings: nothing from Django,
    DRF or the portal comes with it."""
    code = textwrap.dedent("""
        import importlib.util, sys
        spec = importlib.util.spec_from_file_location("board_scoring", "leaderboard/ranking/scoring.py")
        m = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        loaded = sorted(n for n in sys.modules if n.split(".")[0] in ("django", "rest_framework", "portal", "config")
                        or n.startswith("leaderboard"))
        assert not loaded, loaded
        metrics, _ = m.entry_metrics({}, [])
        print(metrics["tasks"])
    """)
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "0", out.stderr


# ----------------------------------------------------------------------------- caches


@dataclass
class FakeBoard:
    pk: int
    version: int
    updated_at: datetime


def test_decoded_entries_keep_the_latest_slices():
    cache = DecodedEntries(max_slices=2)
    cache.keep((1, "public", ""), {10: ("t", {}, {})})
    cache.keep((1, "public", "level=L1"), {11: ("t", {}, {})})
    assert cache.get((1, "public", ""))  # read: now the most recent
    cache.keep((2, "public", ""), {12: ("t", {}, {})})
    assert len(cache) == 2 and cache.get((1, "public", "level=L1")) == {}  # the least recently read went
    cache.keep((1, "public", ""), {13: ("t", {}, {})})  # what the slice holds now replaces what it held
    assert cache.get((1, "public", "")) == {13: ("t", {}, {})}
    cache.clear()
    assert len(cache) == 0


def test_measured_baselines_are_stale_once_the_board_moves():
    cache = MeasuredBaselines()
    at = datetime(2024, 1, 1, tzinfo=timezone.utc)
    cache.keep(FakeBoard(1, 3, at), {"vendor"})
    assert cache.get(FakeBoard(1, 3, at)) == {"vendor"}
    assert cache.get(FakeBoard(1, 4, at)) is None  # a refresh bumps the version
    assert cache.get(FakeBoard(1, 3, datetime(2024, 1, 2, tzinfo=timezone.utc))) is None
    assert cache.get(FakeBoard(2, 3, at)) is None
