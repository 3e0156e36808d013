"""The compile farm's build cache (``farm.build_key``, ``BuiltCandidate``): the same entry for the
same workload, target, software and limits is built once. Every build here is the real sandboxed
one; what tells a reused build from a new one is the kept rows and the record's ``build_reused``.
"""

from __future__ import annotations

import json

import pytest

from portal_helpers import BACKEND, EXAMPLES, RELU_DEFAULT, bundle_zip, make_user, manifest, served_tasks, upload, \
    zip_bytes

pytestmark = pytest.mark.usefixtures("isolated_media", "fresh_throttle_cache")
H200 = {"arch": "sm_90", "host": {"kind": "llvm", "mtriple": "x86_64-linux-gnu", "mcpu": "x86-64-v3"}}


def _submit(user, data: bytes):
    from portal.submissions import create_submission

    return create_submission(user, upload(data), enqueue=False)


def _relu(extra: bytes = b"") -> bytes:
    """RELU_DEFAULT's entry, its schedule's bytes followed by ``extra`` (same meaning, new source)."""
    source = (EXAMPLES / RELU_DEFAULT.source).read_bytes() + extra
    return zip_bytes({"manifest.json": manifest([RELU_DEFAULT.entry()]), RELU_DEFAULT.member: source})


def _build(sub, backend: str = BACKEND):
    """The build job; the measurement it queues is not run."""
    from portal import farm
    from portal.models import Build

    farm.build_backend(sub.pk, backend)
    return {b.workload: b for b in Build.objects.filter(submission=sub, backend=backend)}


@pytest.fixture
def queued(monkeypatch) -> list:
    from portal import jobs

    out: list = []
    monkeypatch.setattr(jobs, "dispatch_measure", lambda *args: out.append(args))
    return out


@pytest.mark.django_db
def test_a_resubmitted_entry_is_not_built_again_and_gets_the_same_results(monkeypatch):
    from portal import farm, jobs
    from portal.models import BuiltCandidate, Result, Submission

    monkeypatch.setattr(jobs, "dispatch_measure", lambda pk, backend, track: farm.measure_backend(pk, backend, track))
    monkeypatch.setattr(jobs, "dispatch_land", lambda pk, backend, track: farm.land_backend(pk, backend, track))
    alice = make_user("alice")
    first, second = _submit(alice, bundle_zip(RELU_DEFAULT, name="one")), _submit(alice, bundle_zip(RELU_DEFAULT))

    built = _build(first)[RELU_DEFAULT.workload]
    assert not built.failed and "build_reused" not in built.record["detail"]
    kept = BuiltCandidate.objects.get()
    assert kept.owner_id == alice.pk and kept.candidate == built.candidate  # built in her session

    again = _build(second)[RELU_DEFAULT.workload]
    assert BuiltCandidate.objects.count() == 1  # nothing new was built
    assert again.record["detail"]["build_reused"] is True and again.candidate == built.candidate
    assert again.record["steps_s"] == built.record["steps_s"]  # the build's own, not a new one's

    for sub in (first, second):
        sub.refresh_from_db()
        assert sub.state == Submission.State.FINISHED, sub.error
    status = {s.pk: dict(Result.objects.filter(submission=s).values_list("workload", "status"))
              for s in (first, second)}
    assert status[first.pk] == status[second.pk] and status[first.pk][RELU_DEFAULT.workload] == "correct"


@pytest.mark.django_db
def test_another_submitter_shares_a_build_only_once_it_is_made_in_a_fresh_process(queued):
    """A build made in one submitter's session (its process ran their earlier builds) serves them
    only; the next submitter of the same entry gets it built again in a fresh process, which
    every later submitter shares."""
    from portal.models import BuiltCandidate

    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    own = _build(_submit(alice, bundle_zip(RELU_DEFAULT)))[RELU_DEFAULT.workload]
    fresh = _build(_submit(bob, bundle_zip(RELU_DEFAULT)))[RELU_DEFAULT.workload]
    assert "build_reused" not in fresh.record["detail"]
    assert sorted(BuiltCandidate.objects.values_list("owner_id", flat=True), key=str) == sorted([alice.pk, None],
                                                                                                  key=str)
    shared = _build(_submit(carol, bundle_zip(RELU_DEFAULT)))[RELU_DEFAULT.workload]
    assert shared.record["detail"]["build_reused"] is True and BuiltCandidate.objects.count() == 2
    assert own.candidate == fresh.candidate == shared.candidate  # one build's bytes, whoever made them


@pytest.mark.django_db
def test_a_changed_source_or_tvm_version_is_a_new_key_and_a_new_build(queued, monkeypatch):
    from portal import provenance
    from portal.models import BuiltCandidate

    alice = make_user("alice")
    _build(_submit(alice, _relu()))
    changed = _build(_submit(alice, _relu(b"\n")))[RELU_DEFAULT.workload]  # one byte more, same schedule
    assert "build_reused" not in changed.record["detail"] and BuiltCandidate.objects.count() == 2

    # the version as the build machine's provenance reads it (what the key is made of)
    real = provenance._tvm()  # noqa: SLF001
    monkeypatch.setattr(provenance, "_tvm", lambda: {**real, "tvm": real["tvm"] + ".next"})
    other = _build(_submit(alice, _relu()))[RELU_DEFAULT.workload]
    assert "build_reused" not in other.record["detail"] and BuiltCandidate.objects.count() == 3
    assert not other.failed


def _cuda_entry() -> bytes:
    """The cuda-source example's first entry among the tasks the tests' portal serves."""
    served = {w.id for w in served_tasks()}
    doc = json.loads((EXAMPLES / "cuda-source" / "manifest.json").read_text())
    entry = next(e for e in doc["entries"] if e["workload"] in served)
    return zip_bytes({"manifest.json": manifest([entry]), entry["file"]: (EXAMPLES / "cuda-source" /
                                                                          entry["file"]).read_bytes()})


@pytest.mark.django_db
def test_another_target_is_a_new_key_and_a_new_build(queued, settings):
    """cuda builds for the arch EKB_BUILD_TARGETS names (no GPU needed): another arch, another build."""
    from portal.models import BuiltCandidate

    alice = make_user("alice")
    settings.EKB_BUILD_TARGETS = {"cuda": H200}
    (first,) = [b for b in _build(_submit(alice, _cuda_entry()), "cuda").values() if not b.failed]
    settings.EKB_BUILD_TARGETS = {"cuda": {**H200, "arch": "sm_80"}}
    second = _build(_submit(alice, _cuda_entry()), "cuda")[first.workload]
    assert not second.failed and "build_reused" not in second.record["detail"]
    assert second.target["arch"] == "sm_80" and BuiltCandidate.objects.count() == 2


@pytest.mark.django_db
def test_a_build_that_ran_out_of_time_is_not_kept(queued, monkeypatch):
    """A build stopped by its time limit says nothing about the entry: built again next time."""
    from evaluator import pipeline
    from evaluator.harness.protocol import Limits, Protocol
    from portal.models import BuiltCandidate

    # the farm's protocol with a build limit no build meets (a process start alone is longer)
    monkeypatch.setattr(pipeline, "Protocol", lambda: Protocol(limits=Limits(build_s=0.05)))
    alice = make_user("alice")
    for sub in (_submit(alice, bundle_zip(RELU_DEFAULT)), _submit(alice, bundle_zip(RELU_DEFAULT))):
        built = _build(sub)[RELU_DEFAULT.workload]
        assert built.failed and built.record["status"] == "timeout", built.record
        assert "build_reused" not in built.record["detail"]
    assert not BuiltCandidate.objects.exists()
