"""Bundle loading and validation (evaluator/formats/bundle.py), without TVM or the suite."""

from __future__ import annotations

import hashlib
import io
import json
import os
import stat
import struct
import tarfile
import zipfile
from pathlib import Path

import pytest

from evaluator.formats.bundle import Bundle, BundleError, Entry, Limits, load_bundle

MiB = 1024 * 1024
W1 = "matmul/matmul@m256n256k256"
W2 = "matmul/matmul@m64n64k64"
WORKLOADS = {W1, W2}
TRACE = (
    '{"step": 0, "layer": "compute", "change": "naive loop nest", "latency_ms": 12.5, "correct": true}\n'
    '{"step": 1, "layer": "schedule", "change": "tile i,j by 32", "ir": "...", "latency_ms": 3.1}\n'
)


class FakeFormat:
    def __init__(self, errors=()):
        self.errors = list(errors)
        self.seen: list[str] = []

    def check(self, text: str) -> list[str]:
        self.seen.append(text)
        return list(self.errors)


def fake_formats(**scripted):
    fmts = {"layered-trace": FakeFormat(), "tvmscript": FakeFormat()}
    fmts.update({k.replace("_", "-"): FakeFormat(v) for k, v in scripted.items()})
    return fmts


def manifest(**over):
    m = {
        "schema": "edgekernelbench/bundle@1",
        "name": "hand-tuned",
        "description": "test bundle",
        "entries": [
            {"workload": W1, "backend": "cpu-llvm", "format": "layered-trace",
             "file": "schedules/matmul.json", "trace": "traces/matmul.jsonl"},
            {"workload": W2, "backend": "rpc:pi4-01", "format": "tvmscript", "file": "src/small.py"},
        ],
    }
    m.update(over)
    return m


def files_for(m=None, **extra) -> dict[str, bytes | str]:
    files: dict[str, bytes | str] = {
        "manifest.json": json.dumps(manifest() if m is None else m, indent=2),
        "schedules/matmul.json": '{"steps": []}',
        "traces/matmul.jsonl": TRACE,
        "src/small.py": "# tvmscript\n",
        "README.md": "notes",
    }
    files.update(extra)
    return files


def _b(v):
    return v.encode() if isinstance(v, str) else v


def make_dir(root: Path, files) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(_b(data))
    return root


def make_zip(path: Path, files, prefix: str = "") -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(prefix + name, _b(data))
    return path


def tar_add(tf: tarfile.TarFile, name: str, data: bytes | str = b"", **attrs):
    info = tarfile.TarInfo(name)
    data = _b(data)
    info.size = len(data)
    for k, v in attrs.items():
        setattr(info, k, v)
    if info.type in (tarfile.REGTYPE, tarfile.AREGTYPE):
        tf.addfile(info, io.BytesIO(data))
    else:
        info.size = 0
        tf.addfile(info)


def make_tgz(path: Path, files, prefix: str = "", extra=None) -> Path:
    with tarfile.open(path, "w:gz") as tf:
        for name, data in files.items():
            tar_add(tf, prefix + name, data)
        for name, attrs in (extra or {}).items():
            tar_add(tf, name, **attrs)
    return path


def load(path, *, formats=None, limits=Limits(), workloads=WORKLOADS):
    return load_bundle(path, formats=formats or fake_formats(),
                       workload_exists=lambda w: w in workloads, limits=limits)


def errors_of(path, **kw) -> list[str]:
    with pytest.raises(BundleError) as ei:
        load(path, **kw)
    err = ei.value
    assert str(err) == "\n".join(err.errors)
    return err.errors


def has(errors: list[str], *needles: str) -> bool:
    return any(all(n in e for n in needles) for e in errors)


# --------------------------------------------------------------------------- valid bundles


def check_valid(b: Bundle):
    assert isinstance(b, Bundle)
    assert b.name == "hand-tuned" and b.description == "test bundle"
    assert b.schema == "edgekernelbench/bundle@1"
    assert len(b.entries) == 2
    e1, e2 = b.entries
    assert isinstance(e1, Entry)
    assert (e1.index, e1.workload, e1.backend, e1.format) == (1, W1, "cpu-llvm", "layered-trace")
    assert e1.file == "schedules/matmul.json" and e1.source == '{"steps": []}'
    assert e1.label == f"entry 1 ({W1}, cpu-llvm)"
    assert [s["step"] for s in e1.trace] == [0, 1] and e1.trace[0]["layer"] == "compute"
    assert (e2.index, e2.backend, e2.trace, e2.source) == (2, "rpc:pi4-01", None, "# tvmscript\n")
    assert len(b.sha256) == 64


def test_valid_directory(tmp_path):
    fmts = fake_formats()
    root = make_dir(tmp_path / "b", files_for())
    b = load(root, formats=fmts)
    check_valid(b)
    assert fmts["layered-trace"].seen == ['{"steps": []}']
    assert fmts["tvmscript"].seen == ["# tvmscript\n"]
    # The directory digest is canonical: same content → same digest, any change → another.
    assert load(make_dir(tmp_path / "copy", files_for())).sha256 == b.sha256
    (root / "README.md").write_text("changed")
    assert load(root).sha256 != b.sha256


def test_valid_zip(tmp_path):
    z = make_zip(tmp_path / "b.zip", files_for())
    b = load(z)
    check_valid(b)
    assert b.sha256 == hashlib.sha256(z.read_bytes()).hexdigest()


@pytest.mark.parametrize("suffix", [".tar.gz", ".tgz"])
def test_valid_tar_gz(tmp_path, suffix):
    t = make_tgz(tmp_path / f"b{suffix}", files_for())
    b = load(t)
    check_valid(b)
    assert b.sha256 == hashlib.sha256(t.read_bytes()).hexdigest()


def test_single_top_level_folder(tmp_path):
    check_valid(load(make_zip(tmp_path / "b.zip", files_for(), prefix="hand-tuned/")))
    check_valid(load(make_tgz(tmp_path / "b.tgz", files_for(), prefix="hand-tuned/")))
    # Two top-level folders: no manifest at the root.
    files = {**{f"a/{k}": v for k, v in files_for().items()}, "b/x.txt": "x"}
    errs = errors_of(make_zip(tmp_path / "two.zip", files))
    assert has(errs, "manifest.json is missing from the bundle root", "a/manifest.json")


def test_zip_with_dot_slash_and_directory_members(tmp_path):
    z = tmp_path / "b.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("schedules/", b"")
        for name, data in files_for().items():
            zf.writestr("./" + name, _b(data))
    check_valid(load(z))


# --------------------------------------------------------------------------- manifest problems


def test_bad_json(tmp_path):
    root = make_dir(tmp_path / "b", files_for(**{"manifest.json": '{\n  "schema": "x"\n  "name": 1\n}'}))
    errs = errors_of(root)
    assert errs == ["manifest.json: invalid JSON at line 3 column 3: Expecting ',' delimiter"]


def test_manifest_duplicate_key_and_not_object(tmp_path):
    errs = errors_of(make_dir(tmp_path / "a", files_for(**{"manifest.json": '{"name": "a", "name": "b"}'})))
    assert has(errs, "manifest.json", "duplicate key 'name'")
    errs = errors_of(make_dir(tmp_path / "b", files_for(**{"manifest.json": "[1, 2]"})))
    assert has(errs, "manifest.json", "must be a JSON object", "array")


def test_missing_manifest(tmp_path):
    files = files_for()
    del files["manifest.json"]
    for path in (make_dir(tmp_path / "b", files), make_zip(tmp_path / "b.zip", files)):
        errs = errors_of(path)
        assert errs == ["manifest.json is missing from the bundle root"]


def test_wrong_schema(tmp_path):
    errs = errors_of(make_dir(tmp_path / "b", files_for(manifest(schema="edgekernelbench/bundle@9"))))
    assert errs == ["manifest.json: unsupported schema 'edgekernelbench/bundle@9'; "
                    "expected 'edgekernelbench/bundle@1'"]
    m = manifest()
    del m["schema"]
    errs = errors_of(make_dir(tmp_path / "c", files_for(m)))
    assert has(errs, "manifest.json: missing 'schema'")


def test_unknown_keys(tmp_path):
    m = manifest(version=2)
    m["entries"][1]["flags"] = "-O3"
    errs = errors_of(make_dir(tmp_path / "b", files_for(m)))
    assert has(errs, "manifest.json: unknown key 'version'")
    assert has(errs, f"entry 2 ({W2}, rpc:pi4-01): unknown key 'flags'")
    assert len(errs) == 2


def test_bad_name_description_entries(tmp_path):
    errs = errors_of(make_dir(tmp_path / "b", files_for(manifest(name="has space", description="x" * 2001))))
    assert has(errs, "manifest.json: 'name' must be 1-64 characters", "'has space'")
    assert has(errs, "manifest.json: 'description' is 2001 characters; the limit is 2000")
    errs = errors_of(make_dir(tmp_path / "c", files_for(manifest(entries=[]))))
    assert has(errs, "manifest.json: 'entries' is empty")
    errs = errors_of(make_dir(tmp_path / "d", files_for()), limits=Limits(max_entries=1))
    assert has(errs, "manifest.json: 'entries' has 2 entries; the limit is 1")


def test_entry_missing_and_mistyped_fields(tmp_path):
    m = manifest(entries=[{"workload": W1, "backend": 7, "file": "schedules/matmul.json"}, "nope"])
    errs = errors_of(make_dir(tmp_path / "b", files_for(m)))
    assert has(errs, f"entry 1 ({W1}): 'backend' must be a string, got a number")
    assert has(errs, f"entry 1 ({W1}): missing 'format'")
    assert has(errs, "entry 2: must be a JSON object, got a string")


def test_unknown_workload(tmp_path):
    m = manifest()
    m["entries"][0]["workload"] = "matmul/nope@x"
    errs = errors_of(make_dir(tmp_path / "b", files_for(m)))
    assert errs == ["entry 1 (matmul/nope@x, cpu-llvm): unknown workload 'matmul/nope@x'"]


def test_unknown_format(tmp_path):
    m = manifest()
    m["entries"][1]["format"] = "fortran"
    errs = errors_of(make_dir(tmp_path / "b", files_for(m)))
    assert errs == [f"entry 2 ({W2}, rpc:pi4-01): unknown format 'fortran' (known: layered-trace, tvmscript)"]


@pytest.mark.parametrize("backend", ["gpu", "rpc:", "rpc:has space", "rpc:" + "k" * 65, "CUDA", "cuda\n"])
def test_unknown_backend_syntax(tmp_path, backend):
    m = manifest()
    m["entries"][0]["backend"] = backend
    errs = errors_of(make_dir(tmp_path / "b", files_for(m)))
    assert len(errs) == 1
    assert errs[0].startswith("entry 1 (") and f"unknown backend {backend!r}" in errs[0]
    assert "'rpc:<key>'" in errs[0]


@pytest.mark.parametrize("backend", ["cpu-llvm", "opencl", "cuda", "rpc:a.b_c-1", "rpc:" + "k" * 64])
def test_accepted_backends(tmp_path, backend):
    m = manifest()
    m["entries"][0]["backend"] = backend
    assert load(make_dir(tmp_path / "b", files_for(m))).entries[0].backend == backend


def test_duplicate_workload_backend(tmp_path):
    m = manifest()
    m["entries"].append(dict(m["entries"][0], format="tvmscript", file="src/small.py"))
    del m["entries"][2]["trace"]
    errs = errors_of(make_dir(tmp_path / "b", files_for(m)))
    assert errs == [f"entry 3 ({W1}, cpu-llvm): duplicate of entry 1 (the same workload and backend)"]


def test_missing_file(tmp_path):
    files = files_for()
    del files["schedules/matmul.json"]
    errs = errors_of(make_dir(tmp_path / "b", files))
    assert errs == [f"entry 1 ({W1}, cpu-llvm): file 'schedules/matmul.json' is missing from the bundle"]


def test_entry_file_path_escapes(tmp_path):
    m = manifest()
    m["entries"][0]["file"] = "../outside.json"
    m["entries"][1]["file"] = "/etc/passwd"
    errs = errors_of(make_dir(tmp_path / "b", files_for(m)))
    assert has(errs, "entry 1 (", "file '../outside.json'", "path escapes the bundle")
    assert has(errs, "entry 2 (", "file '/etc/passwd'", "absolute path")


def test_entry_file_is_directory(tmp_path):
    m = manifest()
    m["entries"][0]["file"] = "schedules"
    errs = errors_of(make_dir(tmp_path / "b", files_for(m)))
    assert has(errs, "entry 1 (", "file 'schedules' is a directory")


def test_non_utf8_file(tmp_path):
    errs = errors_of(make_dir(tmp_path / "b", files_for(**{"src/small.py": b"x = '\xff\xfe'\n"})))
    assert errs == [f"entry 2 ({W2}, rpc:pi4-01): file 'src/small.py' is not valid UTF-8 "
                    "(invalid byte 0xff at offset 5)"]


def test_non_utf8_manifest(tmp_path):
    errs = errors_of(make_dir(tmp_path / "b", files_for(**{"manifest.json": b'{"name": "\xc3"}'})))
    assert errs == ["manifest.json: is not valid UTF-8 (invalid byte 0xc3 at offset 10)"]


def test_format_check_error_has_entry_label(tmp_path):
    fmts = fake_formats(tvmscript=["line 2: unknown intrinsic 'T.foo'", "no prim_func named 'main'"])
    errs = errors_of(make_dir(tmp_path / "b", files_for()), formats=fmts)
    assert errs == [
        f"entry 2 ({W2}, rpc:pi4-01): line 2: unknown intrinsic 'T.foo'",
        f"entry 2 ({W2}, rpc:pi4-01): no prim_func named 'main'",
    ]


def test_format_checker_crash_is_reported(tmp_path):
    class Boom:
        def check(self, text):
            raise RuntimeError("kaput")

    fmts = {**fake_formats(), "tvmscript": Boom()}
    errs = errors_of(make_dir(tmp_path / "b", files_for()), formats=fmts)
    assert has(errs, f"entry 2 ({W2}, rpc:pi4-01): internal error while checking format 'tvmscript'", "kaput")


def test_trace_errors_have_entry_label(tmp_path):
    bad = TRACE + '{"step": 1, "layer": "vibes", "change": "x"}\n'
    errs = errors_of(make_dir(tmp_path / "b", files_for(**{"traces/matmul.jsonl": bad})))
    label = f"entry 1 ({W1}, cpu-llvm): trace 'traces/matmul.jsonl': line 3:"
    assert has(errs, label, "'layer' must be one of")
    assert has(errs, label, "not greater than the previous step 1")


def test_missing_trace_file(tmp_path):
    files = files_for()
    del files["traces/matmul.jsonl"]
    errs = errors_of(make_dir(tmp_path / "b", files))
    assert errs == [f"entry 1 ({W1}, cpu-llvm): trace 'traces/matmul.jsonl' is missing from the bundle"]


def test_several_errors_together(tmp_path):
    m = manifest(extra=True)
    m["entries"][0]["workload"] = "nope/nope@1"
    m["entries"][1]["backend"] = "tpu"
    m["entries"].append({"workload": W1, "backend": "cuda", "format": "layered-trace", "file": "gone.json"})
    fmts = fake_formats(layered_trace=["bad schedule"])
    errs = errors_of(make_dir(tmp_path / "b", files_for(m)), formats=fmts)
    assert has(errs, "manifest.json: unknown key 'extra'")
    assert has(errs, "entry 1 (nope/nope@1, cpu-llvm): unknown workload 'nope/nope@1'")
    assert has(errs, "entry 1 (nope/nope@1, cpu-llvm): bad schedule")
    assert has(errs, f"entry 2 ({W2}, tpu): unknown backend 'tpu'")
    assert has(errs, f"entry 3 ({W1}, cuda): file 'gone.json' is missing from the bundle")
    assert len(errs) == 5


# --------------------------------------------------------------------------- archive safety


def test_zip_path_traversal_and_absolute(tmp_path):
    z = make_zip(tmp_path / "b.zip", {**files_for(), "../evil.py": "x", "/etc/passwd": "x",
                                      "a/../../b.py": "x", "c:/win.ini": "x", "back\\slash.txt": "x"})
    errs = errors_of(z)
    assert "archive member '../evil.py': path escapes the bundle" in errs
    assert "archive member '/etc/passwd': absolute path" in errs
    assert "archive member 'a/../../b.py': path escapes the bundle" in errs
    assert "archive member 'c:/win.ini': absolute path (drive letter)" in errs
    assert has(errs, "archive member 'back\\\\slash.txt'", "backslash")
    assert not (tmp_path / "evil.py").exists()


def test_tar_path_traversal_and_absolute(tmp_path):
    t = make_tgz(tmp_path / "b.tgz", {**files_for(), "../evil.py": "x", "/etc/passwd": "x"})
    errs = errors_of(t)
    assert "archive member '../evil.py': path escapes the bundle" in errs
    assert "archive member '/etc/passwd': absolute path" in errs
    assert not (tmp_path / "evil.py").exists()


def test_zip_nul_in_name(tmp_path):
    # zipfile drops everything after a NUL when writing: write a placeholder, then patch it in.
    z = make_zip(tmp_path / "b.zip", {**files_for(), "ok.txtQ.py": "x"})
    data = z.read_bytes()
    assert data.count(b"ok.txtQ.py") == 2  # local header and central directory
    z.write_bytes(data.replace(b"ok.txtQ.py", b"ok.txt\x00.py"))
    assert has(errors_of(z), "archive member 'ok.txt\\x00.py'", "NUL byte")


def test_tar_symlink_member(tmp_path):
    t = make_tgz(tmp_path / "b.tgz", files_for(), extra={"link": dict(type=tarfile.SYMTYPE, linkname="/etc/passwd")})
    assert errors_of(t) == ["archive member 'link': symbolic links are not allowed"]


def test_tar_symlink_member_referenced_by_entry(tmp_path):
    files = files_for()
    del files["src/small.py"]
    t = make_tgz(tmp_path / "b.tgz", files,
                 extra={"src/small.py": dict(type=tarfile.SYMTYPE, linkname="../../etc/passwd")})
    errs = errors_of(t)
    assert "archive member 'src/small.py': symbolic links are not allowed" in errs
    assert has(errs, f"entry 2 ({W2}, rpc:pi4-01): file 'src/small.py' was rejected", "symbolic links")


def test_tar_hardlink_and_device_members(tmp_path):
    t = make_tgz(tmp_path / "b.tgz", files_for(), extra={
        "hard": dict(type=tarfile.LNKTYPE, linkname="README.md"),
        "dev": dict(type=tarfile.CHRTYPE, devmajor=1, devminor=3),
        "fifo": dict(type=tarfile.FIFOTYPE),
    })
    errs = errors_of(t)
    assert "archive member 'hard': hard links are not allowed" in errs
    assert "archive member 'dev': device files are not allowed" in errs
    assert "archive member 'fifo': FIFOs are not allowed" in errs


def test_zip_symlink_member(tmp_path):
    z = make_zip(tmp_path / "b.zip", files_for())
    with zipfile.ZipFile(z, "a") as zf:
        info = zipfile.ZipInfo("link")
        info.create_system = 3
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(info, "/etc/passwd")
    assert errors_of(z) == ["archive member 'link': symbolic links are not allowed"]


def test_directory_symlinks(tmp_path):
    outside = make_dir(tmp_path / "outside", {"secret.txt": "s"})
    root = make_dir(tmp_path / "b", files_for())
    os.symlink(outside, root / "linked_dir")
    os.symlink(outside / "secret.txt", root / "schedules" / "link.json")
    errs = errors_of(root)
    assert "bundle path 'linked_dir': symbolic links are not allowed" in errs
    assert "bundle path 'schedules/link.json': symbolic links are not allowed" in errs
    assert len(errs) == 2


def test_directory_symlink_as_entry_file(tmp_path):
    outside = make_dir(tmp_path / "outside", {"secret.txt": "s"})
    files = files_for()
    del files["src/small.py"]
    root = make_dir(tmp_path / "b", files)
    (root / "src").mkdir()
    os.symlink(outside / "secret.txt", root / "src" / "small.py")
    errs = errors_of(root)
    assert has(errs, f"entry 2 ({W2}, rpc:pi4-01): file 'src/small.py' was rejected", "symbolic links")


def test_duplicate_members(tmp_path):
    t = tmp_path / "b.tgz"
    with tarfile.open(t, "w:gz") as tf:
        for name, data in files_for().items():
            tar_add(tf, name, data)
        tar_add(tf, "./README.md", "again")
    # One message per repeated path, naming its count and other spellings; no copy is used.
    assert errors_of(t) == ["archive member 'README.md' appears 2 times (also as './README.md'): "
                            "duplicate member (the same path may appear only once)"]


def test_archive_over_size_limit(tmp_path):
    z = make_zip(tmp_path / "b.zip", files_for(**{"blob.bin": os.urandom(5000)}))
    errs = errors_of(z, limits=Limits(max_archive_bytes=1000))
    assert errs == [f"archive is {z.stat().st_size} bytes; the limit is 1000 bytes"]

    t = make_tgz(tmp_path / "big.tgz", files_for(**{"blob.bin": os.urandom(MiB + MiB // 2)}))
    errs = errors_of(t, limits=Limits(max_archive_bytes=1 * MiB))
    assert len(errs) == 1 and errs[0].startswith("archive is 1.5 MiB; the limit is 1 MiB")


def test_zip_bomb_member(tmp_path):
    z = make_zip(tmp_path / "b.zip", files_for(**{"big.json": bytes(8 * MiB)}))
    errs = errors_of(z)
    assert len(errs) == 1
    msg = errs[0]
    assert msg.startswith("archive member 'big.json': expands to 8.0 MiB (ratio ")
    assert "looks like a zip bomb; the limit is 100:1" in msg


def test_zip_lying_header(tmp_path):
    """A central directory that claims 100 bytes for megabytes of data: never read past it."""
    z = make_zip(tmp_path / "b.zip", files_for(**{"big.json": bytes(4 * MiB)}))
    data = bytearray(z.read_bytes())
    info = zipfile.ZipFile(z).getinfo("big.json")
    # Patch both the local header and the central directory record of big.json.
    struct.pack_into("<I", data, info.header_offset + 22, 100)
    pos = 0
    while True:
        pos = data.find(b"PK\x01\x02", pos)
        assert pos >= 0
        name_len = struct.unpack_from("<H", data, pos + 28)[0]
        if bytes(data[pos + 46:pos + 46 + name_len]) == b"big.json":
            struct.pack_into("<I", data, pos + 24, 100)
            break
        pos += 4
    z.write_bytes(bytes(data))
    assert zipfile.ZipFile(z).getinfo("big.json").file_size == 100
    errs = errors_of(z)
    assert len(errs) == 1
    assert errs[0].startswith("archive member 'big.json': cannot be read: corrupt")


def test_tar_gz_bomb(tmp_path):
    t = make_tgz(tmp_path / "b.tgz", files_for(**{"zeros.bin": bytes(16 * MiB)}))
    errs = errors_of(t)
    assert len(errs) == 1
    assert errs[0].startswith("archive expands to more than")
    assert "looks like a gzip bomb; the limit is 100:1" in errs[0]


def test_total_uncompressed_limit(tmp_path):
    extra = {f"data/{i}.bin": os.urandom(3000) for i in range(5)}
    errs = errors_of(make_tgz(tmp_path / "b.tgz", files_for(**extra)),
                     limits=Limits(max_total_uncompressed_bytes=10_000))
    assert has(errs, "bundle files add up to more than 10000 bytes uncompressed; the limit is 10000 bytes")
    errs = errors_of(make_zip(tmp_path / "b.zip", files_for(**extra)),
                     limits=Limits(max_total_uncompressed_bytes=10_000))
    assert has(errs, "archive expands to", "the limit is 10000 bytes")
    errs = errors_of(make_dir(tmp_path / "d", files_for(**extra)),
                     limits=Limits(max_total_uncompressed_bytes=10_000))
    assert has(errs, "bundle files add up to more than 10000 bytes")


def test_too_many_members(tmp_path):
    extra = {f"notes/{i}.txt": "x" for i in range(10)}
    lim = Limits(max_members=8)
    assert has(errors_of(make_zip(tmp_path / "b.zip", files_for(**extra)), limits=lim),
               "archive has 15 members; the limit is 8")
    assert has(errors_of(make_tgz(tmp_path / "b.tgz", files_for(**extra)), limits=lim),
               "archive has more than 8 members; the limit is 8")
    assert has(errors_of(make_dir(tmp_path / "d", files_for(**extra)), limits=lim),
               "bundle has more than 8 members", "the limit is 8")


def test_file_size_limits(tmp_path):
    lim = Limits(max_file_bytes=1000, max_trace_bytes=3000)
    big_trace = TRACE + "".join(
        json.dumps({"step": i, "layer": "other", "change": "y" * 50}) + "\n" for i in range(2, 30))
    assert 1000 < len(big_trace) < 3000
    files = files_for(**{"schedules/matmul.json": "x" * 1500, "README.md": "r" * 1200,
                         "traces/matmul.jsonl": big_trace})
    errs = errors_of(make_dir(tmp_path / "b", files), limits=lim)
    assert errs == [
        f"entry 1 ({W1}, cpu-llvm): file 'schedules/matmul.json' is 1500 bytes; the limit is 1000 bytes",
        "bundle path 'README.md': is 1200 bytes; the limit is 1000 bytes",
    ]
    files["traces/matmul.jsonl"] = big_trace * 2
    errs = errors_of(make_zip(tmp_path / "b.zip", files), limits=lim)
    assert has(errs, f"entry 1 ({W1}, cpu-llvm): trace 'traces/matmul.jsonl' is {len(big_trace) * 2} bytes; "
                     "the limit is 3000 bytes")


def test_unsupported_archive_type(tmp_path):
    p = tmp_path / "b.rar"
    p.write_bytes(b"Rar!\x1a\x07\x00")
    errs = errors_of(p)
    assert len(errs) == 1
    assert "unsupported bundle type" in errs[0] and ".zip" in errs[0] and ".tar.gz/.tgz" in errs[0]
    assert errors_of(tmp_path / "missing.zip") == [f"bundle {str(tmp_path / 'missing.zip')!r} does not exist"]


def test_corrupt_archives(tmp_path):
    z = tmp_path / "b.zip"
    z.write_bytes(b"this is not a zip")
    assert has(errors_of(z), "archive: not a valid zip archive")
    t = tmp_path / "b.tar.gz"
    t.write_bytes(b"plain text")
    assert has(errors_of(t), "archive: not gzip-compressed")


def test_never_extracts(tmp_path, monkeypatch):
    def boom(*a, **k):
        raise AssertionError("extractall must not be used")

    monkeypatch.setattr(tarfile.TarFile, "extractall", boom)
    monkeypatch.setattr(tarfile.TarFile, "extract", boom)
    monkeypatch.setattr(zipfile.ZipFile, "extractall", boom)
    monkeypatch.setattr(zipfile.ZipFile, "extract", boom)
    check_valid(load(make_tgz(tmp_path / "b.tgz", files_for())))
    check_valid(load(make_zip(tmp_path / "b.zip", files_for())))
