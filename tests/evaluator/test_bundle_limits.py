"""Bounded bundle validation (evaluator/formats/bundle.py): hostile bundles, each class of them
refused with its own message, and validation of every one finishing within a fixed time and
memory whatever the bundle's shape.

The hostile cases are measured in a fresh subprocess (wall time of ``load_bundle`` with
``time.perf_counter``, peak resident memory of the whole process from ``VmHWM``), with the real
static checks (``evaluator.formats.FORMATS``; none of them needs TVM).
"""

from __future__ import annotations

import base64
import io
import json
import os
import random
import struct
import subprocess
import sys
import tarfile
import textwrap
import time
import warnings
import zipfile
from pathlib import Path

import pytest

from evaluator.formats import bundle as bundle_mod
from evaluator.formats.bundle import BundleError, Limits, load_bundle

MiB = 1024 * 1024
ROOT = Path(__file__).resolve().parents[2]
W1 = "matmul/matmul@m256n256k256"
W2 = "matmul/matmul@m64n64k64"
WORKLOADS = {W1, W2}

# The bound every hostile bundle must stay within (the defaults of Limits allow 10 s).
TIME_BOUND_S = 3.0
MEMORY_BOUND_MIB = 300


# --------------------------------------------------------------------------- building bundles


def rnd(n: int, seed: int = 0) -> str:
    """n characters of incompressible text (base64 of random bytes)."""
    r = random.Random(seed)
    return base64.b64encode(r.randbytes(n * 3 // 4 + 3)).decode()[:n]


def layered_trace(size: int, seed: int = 0, *, compressible: bool = False) -> str:
    """A valid layered-trace document of about ``size`` bytes (padded in its description)."""
    doc = {"format": "layered-trace", "version": 1, "layers": {"compute": [], "schedule": [], "memory": []},
           "description": ""}
    pad = max(0, size - len(json.dumps(doc)))
    doc["description"] = ("ab" * pad)[:pad] if compressible else rnd(pad, seed)
    return json.dumps(doc)


def trace_lines(size: int) -> str:
    """A valid trace (JSON Lines) of about ``size`` bytes."""
    lines, total, i = [], 0, 0
    while total < size:
        line = json.dumps({"step": i, "layer": "other", "change": f"step {i}", "ir": rnd(150_000, i)})
        lines.append(line)
        total += len(line) + 1
        i += 1
    return "\n".join(lines) + "\n"


def manifest(entries) -> str:
    return json.dumps({"schema": "edgekernelbench/bundle@1", "name": "hostile", "entries": entries})


def shared_entries(n: int, file: str = "s.json", fmt: str = "layered-trace", trace: str | None = None):
    """n valid entries (one workload, distinct rpc backends) that all name the same file."""
    out = []
    for i in range(n):
        e = {"workload": W1, "backend": f"rpc:board-{i}", "format": fmt, "file": file}
        if trace:
            e["trace"] = trace
        out.append(e)
    return out


def one_entry(file: str = "s.json"):
    return [{"workload": W1, "backend": "cpu-llvm", "format": "layered-trace", "file": file}]


def _b(v) -> bytes:
    return v.encode() if isinstance(v, str) else v


def make_zip(path: Path, members, *, stored: bool = False) -> Path:
    """A zip of (name, data) pairs, in order; repeated names are written as given. ``stored``:
    uncompressed, for content that would otherwise trip the compression-ratio check."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about duplicate names
        with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED) as zf:
            for name, data in members:
                zf.writestr(name, _b(data))
    return path


def make_tgz(path: Path, members) -> Path:
    with tarfile.open(path, "w:gz") as tf:
        for name, data in members:
            data = _b(data)
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return path


def make(kind: str, path: Path, members) -> Path:
    return make_zip(path.with_suffix(".zip"), members) if kind == "zip" else make_tgz(path.with_suffix(".tgz"), members)


def directory_only_zip(path: Path, n: int) -> Path:
    """A zip holding nothing but a central directory of n empty members (the cheapest member an
    archive can hold: 47-51 bytes each), so ~400,000 of them fit in the 20 MiB archive cap."""
    records = []
    for i in range(n):
        name = f"{i:x}".encode()
        records.append(struct.pack("<4s4B4HL2L5H2L", b"PK\x01\x02", 20, 3, 20, 0, 0, 0, 0, 0, 0, 0, 0,
                                   len(name), 0, 0, 0, 0, 0x81A4 << 16, 0) + name)
    cd = b"".join(records)
    count = min(n, 0xFFFF)
    eocd = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, count, count, len(cd), 0, 0)
    path.write_bytes(cd + eocd)
    return path


# --------------------------------------------------------------------------- measuring


_CHILD = textwrap.dedent("""
    import json, sys, time
    from evaluator.formats import FORMATS
    from evaluator.formats.bundle import BundleError, Limits, load_bundle

    def peak_mib():
        try:
            with open("/proc/self/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    path, workloads, limits = sys.argv[1], set(json.loads(sys.argv[2])), Limits(**json.loads(sys.argv[3]))
    out = {"ok": False, "errors": []}
    t = time.perf_counter()
    try:
        b = load_bundle(path, formats=FORMATS, workload_exists=workloads.__contains__, limits=limits)
        out["ok"] = True
        out["entries"] = len(b.entries)
        out["distinct_sources"] = len({id(e.source) for e in b.entries})
    except BundleError as e:
        out["errors"] = e.errors
    out["seconds"] = time.perf_counter() - t
    out["peak_mib"] = peak_mib()
    print(json.dumps(out))
""")


def measure(path: Path, **limits) -> dict:
    """Validate ``path`` in a fresh interpreter; the result, its errors, time and peak memory."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(path), json.dumps(sorted(WORKLOADS)),
                           json.dumps(limits)], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def bounded(res: dict) -> dict:
    assert res["seconds"] < TIME_BOUND_S, f"validation took {res['seconds']:.2f} s"
    assert res["peak_mib"] < MEMORY_BOUND_MIB, f"validation peaked at {res['peak_mib']:.0f} MiB"
    return res


def rejected(path: Path, *needles: str, **limits) -> list[str]:
    """Validate in a subprocess; assert it is refused within the bounds with a message holding
    every needle; return the messages."""
    res = bounded(measure(path, **limits))
    assert not res["ok"], "the bundle was accepted"
    errs = res["errors"]
    assert any(all(n in e for n in needles) for e in errs), errs[:5] + errs[-2:]
    return errs


class CountingFormat:
    def __init__(self, errors=(), sleep: float = 0.0):
        self.errors, self.sleep, self.calls = list(errors), sleep, 0

    def check(self, text: str) -> list[str]:
        self.calls += 1
        if self.sleep:
            time.sleep(self.sleep)
        return list(self.errors)


def load_here(path, formats=None, **limits):
    return load_bundle(path, formats=formats or {"layered-trace": CountingFormat(), "tvmscript": CountingFormat()},
                       workload_exists=WORKLOADS.__contains__, limits=Limits(**limits))


def errors_here(path, formats=None, **limits) -> list[str]:
    with pytest.raises(BundleError) as ei:
        load_here(path, formats, **limits)
    return ei.value.errors


# --------------------------------------------------------------------------- the caps themselves


def test_caps_are_named_module_constants():
    lim = Limits()
    assert (lim.max_archive_bytes, lim.max_total_uncompressed_bytes, lim.max_file_bytes, lim.max_trace_bytes) == (
        bundle_mod.MAX_ARCHIVE_BYTES, bundle_mod.MAX_TOTAL_UNCOMPRESSED_BYTES, bundle_mod.MAX_FILE_BYTES,
        bundle_mod.MAX_TRACE_BYTES)
    assert (lim.max_members, lim.max_entries, lim.max_compression_ratio) == (
        bundle_mod.MAX_MEMBERS, bundle_mod.MAX_ENTRIES, bundle_mod.MAX_COMPRESSION_RATIO)
    assert (lim.max_path_chars, lim.max_path_depth, lim.max_checked_bytes, lim.max_seconds) == (
        bundle_mod.MAX_PATH_CHARS, bundle_mod.MAX_PATH_DEPTH, bundle_mod.MAX_CHECKED_BYTES,
        bundle_mod.MAX_VALIDATION_SECONDS)
    assert bundle_mod.MAX_VALIDATION_SECONDS <= 10 and bundle_mod.MAX_CHECKED_BYTES <= 64 * MiB


# --------------------------------------------------------------------------- duplicate member names


def test_zip_of_3000_members_with_one_name(tmp_path):
    """The reported case: a ~520 KB zip whose 3,000 members all name the same file."""
    src = layered_trace(21_000, compressible=True)
    z = make_zip(tmp_path / "dup.zip", [("manifest.json", manifest(one_entry("schedules/s.json")))]
                 + [("schedules/s.json", src)] * 3000)
    assert z.stat().st_size < 1 * MiB
    errs = rejected(z, "archive member 'schedules/s.json' appears 3000 times", "duplicate member")
    assert has(errs, f"entry 1 ({W1}, cpu-llvm): file 'schedules/s.json' was rejected: duplicate member "
                     "(it appears 3000 times in the archive)")
    assert len(errs) == 2  # one message for the 3,000 copies, one for the entry


def test_tar_gz_of_3000_members_with_one_name(tmp_path):
    t = make_tgz(tmp_path / "dup.tgz", [("manifest.json", manifest(one_entry()))]
                 + [("s.json", layered_trace(1000, seed=i)) for i in range(3000)])
    errs = rejected(t, "archive member 's.json' appears 3000 times", "duplicate member")
    assert len(errs) == 2


def test_duplicates_name_their_other_spellings(tmp_path):
    z = make_zip(tmp_path / "b.zip", [("manifest.json", manifest(one_entry())), ("s.json", layered_trace(100)),
                                      ("./s.json", "x"), ("a//../s.json", "y"), ("s.json", "z")])
    errs = errors_here(z)
    assert any(e.startswith("archive member 'a//../s.json': path escapes") for e in errs)
    assert "archive member 's.json' appears 3 times (also as './s.json'): duplicate member " \
           "(the same path may appear only once)" in errs


# --------------------------------------------------------------------------- many entries, one file


def test_5000_entries_pointing_to_one_1mb_source(tmp_path):
    z = make_zip(tmp_path / "b.zip", [("manifest.json", manifest(shared_entries(5000))),
                                      ("s.json", layered_trace(MiB))])
    errs = rejected(z, "manifest.json: 'entries' has 5000 entries; the limit is 4000")
    assert len(errs) == 1


@pytest.mark.parametrize("kind", ["zip", "tgz"])
def test_4000_entries_sharing_one_source_and_trace_validate_fast(tmp_path, kind):
    """Valid: 4,000 entries (the entry cap) all naming one 1 MB file and one 3 MB trace. Before
    bounded validation, 3,000 such entries took 6.5 s and 3 GiB, 4,000 with the trace 42 s and
    11 GiB: each entry decoded, checked and parsed its own copy."""
    b = make(kind, tmp_path / "b", [("manifest.json", manifest(shared_entries(4000, trace="t.jsonl"))),
                                    ("s.json", layered_trace(MiB)), ("t.jsonl", trace_lines(3 * MiB))])
    res = bounded(measure(b))
    assert res["ok"], res["errors"][:5]
    assert res["entries"] == 4000 and res["distinct_sources"] == 1


def test_shared_file_is_decoded_checked_and_parsed_once(tmp_path):
    fmts = {"layered-trace": CountingFormat(), "tvmscript": CountingFormat()}
    entries = shared_entries(300, trace="t.jsonl") + [
        {"workload": W2, "backend": f"rpc:b{i}", "format": "tvmscript", "file": "s.json"} for i in range(300)]
    files = [("manifest.json", manifest(entries)), ("s.json", layered_trace(5000)), ("t.jsonl", trace_lines(1000))]
    b = load_here(make_zip(tmp_path / "b.zip", files), fmts)
    assert len(b.entries) == 600
    assert fmts["layered-trace"].calls == 1 and fmts["tvmscript"].calls == 1  # once per format
    assert len({id(e.source) for e in b.entries}) == 1
    assert len({id(e.trace) for e in b.entries if e.trace is not None}) == 1


def test_same_content_under_two_paths_is_checked_once(tmp_path):
    fmts = {"layered-trace": CountingFormat(), "tvmscript": CountingFormat()}
    entries = [{"workload": W1, "backend": f"rpc:b{i}", "format": "layered-trace", "file": f"s{i % 2}.json"}
               for i in range(10)]
    same = layered_trace(2000)
    load_here(make_zip(tmp_path / "b.zip", [("manifest.json", manifest(entries)), ("s0.json", same),
                                            ("s1.json", same)]), fmts)
    assert fmts["layered-trace"].calls == 1


def test_shared_file_problems_are_reported_per_entry_but_capped(tmp_path):
    fmts = {"layered-trace": CountingFormat([f"problem {i}" for i in range(50)]), "tvmscript": CountingFormat()}
    z = make_zip(tmp_path / "b.zip", [("manifest.json", manifest(shared_entries(4000))),
                                      ("s.json", layered_trace(100))])
    errs = errors_here(z, fmts)
    assert fmts["layered-trace"].calls == 1
    assert len(errs) == bundle_mod.MAX_REPORTED_ERRORS + 1
    assert errs[0] == f"entry 1 ({W1}, rpc:board-0): problem 0"
    assert errs[-1] == f"... and {4000 * 50 - bundle_mod.MAX_REPORTED_ERRORS} more problems"


# --------------------------------------------------------------------------- many small distinct files


def test_zip_with_400000_empty_members(tmp_path):
    """~20 MiB of nothing but central-directory records: counted without building 400,000
    ZipInfo objects (before: about 2.5 s and 300 MiB just to list them)."""
    z = directory_only_zip(tmp_path / "b.zip", 380_000)
    assert z.stat().st_size < Limits().max_archive_bytes
    errs = rejected(z, "archive has 380000 members; the limit is 6000")
    assert len(errs) == 1


@pytest.mark.parametrize("kind", ["zip", "tgz"])
def test_one_member_over_the_member_cap(tmp_path, kind):
    members = [("manifest.json", manifest(one_entry())), ("s.json", layered_trace(100))]
    members += [(f"n/{i}.txt", rnd(300, i)) for i in range(5999)]  # not compressible past 100:1
    b = make(kind, tmp_path / "b", members)
    want = "archive has 6001 members; the limit is 6000" if kind == "zip" else \
        "archive has more than 6000 members; the limit is 6000"
    assert rejected(b, want) == [want]


@pytest.mark.parametrize("kind", ["zip", "tgz"])
def test_4000_entries_with_4000_distinct_files_validate_fast(tmp_path, kind):
    entries = [{"workload": W1, "backend": f"rpc:b{i}", "format": "layered-trace", "file": f"s/{i}.json"}
               for i in range(4000)]
    members = [("manifest.json", manifest(entries))]
    members += [(f"s/{i}.json", layered_trace(2000, seed=i)) for i in range(4000)]
    res = bounded(measure(make(kind, tmp_path / "b", members)))
    assert res["ok"], res["errors"][:5]
    assert res["entries"] == 4000 and res["distinct_sources"] == 4000


@pytest.mark.parametrize("kind", ["zip", "tgz"])
def test_distinct_files_over_the_total_size(tmp_path, kind):
    chunk = [rnd(3600, i) for i in range(4)]
    members = [("manifest.json", manifest(one_entry())), ("s.json", layered_trace(100))]
    members += [(f"d/{i}.txt", chunk[i % 4] * 4 + str(i)) for i in range(4700)]  # 4,700 x 14 KB = 65 MiB
    b = make(kind, tmp_path / "b", members)
    assert b.stat().st_size < Limits().max_archive_bytes
    if kind == "zip":
        rejected(b, "archive expands to 64.6 MiB; the limit is 64 MiB")
    else:
        rejected(b, "bundle files add up to more than 64 MiB uncompressed; the limit is 64 MiB")


def test_checked_bytes_cap(tmp_path):
    entries = [{"workload": W1, "backend": f"rpc:b{i}", "format": "layered-trace", "file": f"s{i}.json"}
               for i in range(10)]
    members = [("manifest.json", manifest(entries))] + [(f"s{i}.json", layered_trace(30_000, i)) for i in range(10)]
    errs = errors_here(make_zip(tmp_path / "b.zip", members), max_checked_bytes=100_000)
    assert errs[-1] == ("validation stopped: the entries' files to check add up to more than 100000 bytes "
                        "(each distinct file and format counted once); the limit is 100000 bytes")


def test_one_file_under_every_format_counts_once_per_format(tmp_path):
    fmts = {f"f{i}": CountingFormat() for i in range(5)}
    entries = [{"workload": W1, "backend": f"rpc:b{i}", "format": f"f{i % 5}", "file": "s.json"} for i in range(50)]
    z = make_zip(tmp_path / "b.zip", [("manifest.json", manifest(entries)), ("s.json", "x" * 30_000)])
    assert len(load_here(z, fmts, max_checked_bytes=150_000).entries) == 50  # 5 x 30,000 bytes
    assert [f.calls for f in fmts.values()] == [1] * 5
    errs = errors_here(z, {f"f{i}": CountingFormat() for i in range(5)}, max_checked_bytes=149_999)
    assert errs[-1].startswith("validation stopped: the entries' files to check add up to more than 149999 bytes")


# --------------------------------------------------------------------------- deeply nested paths


@pytest.mark.parametrize("kind", ["zip", "tgz"])
def test_paths_20000_directories_deep(tmp_path, kind):
    """100 members each 20,000 directories deep (before: the zip ran out of memory, working out
    every member's parent directories)."""
    members = [("manifest.json", manifest(one_entry())), ("s.json", layered_trace(100))]
    members += [(f"d{i}/" + "/".join(rnd(20_000, i)) + "/f", b"") for i in range(100)]
    errs = rejected(make(kind, tmp_path / "b", members), "path is 400", "characters long; the limit is 1024")
    assert len(errs) == 100
    assert all(len(e) < 400 for e in errs)  # the name is shown cut short


@pytest.mark.parametrize("kind", ["zip", "tgz"])
def test_path_depth_limit(tmp_path, kind):
    ok = "/".join(["d"] * 31) + "/f.txt"  # 32 levels: accepted
    deep = "/".join(["d"] * 32) + "/g.txt"  # 33 levels
    members = [("manifest.json", manifest(one_entry())), ("s.json", layered_trace(100)), (ok, "x"), (deep, "y")]
    errs = errors_here(make(kind, tmp_path / "b", members))
    assert errs == [f"archive member {deep!r}: path is nested 33 levels deep; the limit is 32"]


def test_deep_directory_tree_is_not_walked(tmp_path):
    root = tmp_path / "b"
    root.mkdir()
    (root / "manifest.json").write_text(manifest(one_entry()))
    (root / "s.json").write_text(layered_trace(100))
    deep = root.joinpath(*["d"] * 40)
    deep.mkdir(parents=True)
    (deep / "f.txt").write_text("x")
    errs = errors_here(root)
    assert errs == ["bundle path '" + "/".join(["d"] * 33) + "': path is nested 33 levels deep; the limit is 32"]


def test_long_paths_and_values_are_cut_short_in_messages(tmp_path):
    long = "x" * 5000
    z = make_zip(tmp_path / "b.zip", [("manifest.json", manifest(one_entry(long))), ("s.json", layered_trace(100)),
                                      (long, "x")])
    errs = errors_here(z)
    assert errs[0].startswith("archive member 'xxxx") and errs[0].endswith(
        "... (5000 characters): path is 5000 characters long; the limit is 1024")
    assert errs[1].endswith("... (5000 characters) is missing from the bundle")
    assert all(len(e) < 400 for e in errs)


# --------------------------------------------------------------------------- huge manifests


def test_manifest_over_the_file_cap(tmp_path):
    m = manifest(shared_entries(3000)) + " " * (2 * MiB)
    errs = rejected(make_zip(tmp_path / "b.zip", [("manifest.json", m + rnd(200_000)), ("s.json", "{}")]),
                    "manifest.json: is", "the limit is 2 MiB")
    assert len(errs) == 1


def test_manifest_nested_2_mib_deep(tmp_path):
    m = "[" * (MiB - 10) + "]" * (MiB - 10)
    errs = rejected(make_zip(tmp_path / "b.zip", [("manifest.json", m)], stored=True),
                    "manifest.json: invalid JSON: nested too deeply")
    assert len(errs) == 1


def test_manifest_with_a_million_entries(tmp_path):
    m = json.dumps({"schema": "edgekernelbench/bundle@1", "name": "h", "entries": [{}] * 600_000},
                   separators=(",", ":"))
    assert len(m) < 2 * MiB
    errs = rejected(make_zip(tmp_path / "b.zip", [("manifest.json", m)], stored=True),
                    "manifest.json: 'entries' has 600000 entries; the limit is 4000")
    assert len(errs) == 1


def test_manifest_of_2_mib_of_bad_entries(tmp_path):
    """3,999 entries, each with a 300-character unknown key and a 40-character unknown format:
    every problem is counted, 200 are kept, long values are cut short."""
    entries = [{"workload": W1, "backend": f"rpc:b{i}", "format": rnd(40, -i - 1), "file": "s.json",
                rnd(300, i): 1} for i in range(3999)]
    z = make_zip(tmp_path / "b.zip", [("manifest.json", manifest(entries)), ("s.json", layered_trace(MiB))])
    assert 1.5 * MiB < len(manifest(entries)) < 2 * MiB
    errs = rejected(z, f"entry 1 ({W1}, rpc:b0): unknown key", "... (300 characters)")
    assert len(errs) == 201 and errs[-1] == f"... and {2 * 3999 - 200} more problems"


def test_many_distinct_workloads_formats_and_files(tmp_path):
    entries = [{"workload": f"{W1}-{i}", "backend": f"rpc:b{i}", "format": f"fmt-{i}", "file": f"missing/{i}.json",
                "launch": {"entry": "k", "args": ["A"] * 64}} for i in range(4000)]
    errs = rejected(make_zip(tmp_path / "b.zip", [("manifest.json", manifest(entries))]),
                    f"entry 1 ({W1}-0, rpc:b0): unknown workload '{W1}-0'")
    assert errs[-1] == f"... and {3 * 4000 - 200} more problems"


# --------------------------------------------------------------------------- the wall-clock budget


def test_wall_clock_budget_stops_slow_checks(tmp_path):
    fmts = {"layered-trace": CountingFormat(sleep=0.05), "tvmscript": CountingFormat()}
    entries = [{"workload": W1, "backend": f"rpc:b{i}", "format": "layered-trace", "file": f"s{i}.json"}
               for i in range(100)]
    members = [("manifest.json", manifest(entries))] + [(f"s{i}.json", layered_trace(300, i)) for i in range(100)]
    z = make_zip(tmp_path / "b.zip", members)
    t = time.perf_counter()
    errs = errors_here(z, fmts, max_seconds=0.5)
    assert time.perf_counter() - t < 1.5
    assert errs[-1] == "validation stopped: the bundle needs more than 0.5 s to check; the limit is 0.5 s"
    assert fmts["layered-trace"].calls < 30


@pytest.mark.parametrize("kind", ["zip", "tgz", "dir"])
def test_wall_clock_budget_covers_reading(tmp_path, kind):
    members = [("manifest.json", manifest(one_entry())), ("s.json", layered_trace(100))]
    if kind == "dir":
        path = tmp_path / "b"
        path.mkdir()
        for name, data in members:
            (path / name).write_text(data)
    else:
        path = make(kind, tmp_path / "b", members)
    errs = errors_here(path, max_seconds=0)
    assert errs == ["validation stopped: the bundle needs more than 0 s to check; the limit is 0 s"]


# --------------------------------------------------------------------------- helpers


def has(errors: list[str], *needles: str) -> bool:
    return any(all(n in e for n in needles) for e in errors)
