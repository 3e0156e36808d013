"""Submission bundles: load, check and describe one bundle (a directory, ``.zip`` or ``.tar.gz``).

A bundle holds ``manifest.json`` at its root (an archive may instead hold a single top-level
folder that contains it)::

    {
      "schema": "edgekernelbench/bundle@1",
      "name": "hand-tuned",
      "description": "optional text",
      "entries": [
        {"workload": "matmul/matmul@m256n256k256", "backend": "cpu-llvm",
         "format": "layered-trace", "file": "schedules/matmul.json",
         "trace": "traces/matmul.jsonl"}
      ]
    }

:func:`load_bundle` never extracts anything to disk: every member is read into memory with
caps checked before and while reading (member count, declared and real sizes, compression
ratio, names, member types). It collects every problem it can find and raises a single
:class:`BundleError`; each message names where the problem is.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from evaluator.formats.strict_json import DuplicateKey, pairs_hook, reject_constant
from evaluator.formats.strict_json import type_name as _kind
from evaluator.formats.trace import TraceError, parse_trace

__all__ = ["SCHEMA", "BACKEND_RE", "Limits", "BundleError", "Entry", "Bundle", "load_bundle"]

SCHEMA = "edgekernelbench/bundle@1"
MiB = 1024 * 1024

NAME_RE = re.compile(r"[A-Za-z0-9._-]{1,64}")
BACKEND_RE = re.compile(r"cpu-llvm|opencl|cuda|rpc:[A-Za-z0-9._-]{1,64}")
MAX_DESCRIPTION = 2000
MANIFEST = "manifest.json"
MANIFEST_KEYS = ("schema", "name", "description", "entries")
ENTRY_KEYS = ("workload", "backend", "format", "file", "trace", "launch")
ARCHIVE_KINDS = "a directory, a .zip archive, or a .tar.gz/.tgz archive"

# Compression ratios are only judged for data past this size: tiny, very regular files
# (a JSON file of mostly spaces, say) can legitimately compress far better than 100:1.
RATIO_FLOOR_BYTES = 1 * MiB
# At most this many messages go into one BundleError (the rest are counted).
MAX_REPORTED_ERRORS = 200
_CHUNK = 64 * 1024
_DRIVE_RE = re.compile(r"[A-Za-z]:")


@dataclass(frozen=True)
class Limits:
    max_archive_bytes: int = 20 * MiB
    max_total_uncompressed_bytes: int = 64 * MiB
    max_file_bytes: int = 2 * MiB
    max_members: int = 6000
    max_entries: int = 4000  # the whole suite on several backends
    max_compression_ratio: float = 100
    max_trace_bytes: int = 4 * MiB


class BundleError(ValueError):
    """An invalid bundle. ``errors`` lists every problem found; str() joins them with newlines."""

    def __init__(self, errors: list[str] | str):
        self.errors = [errors] if isinstance(errors, str) else list(errors)
        super().__init__("\n".join(self.errors))

    def __str__(self) -> str:
        return "\n".join(self.errors)


@dataclass(frozen=True)
class Entry:
    index: int  # 1-based position in the manifest's "entries"
    workload: str
    backend: str
    format: str
    file: str  # normalised path inside the bundle
    source: str  # the file's content, UTF-8 decoded
    trace: list[dict] | None
    # raw-source formats only: entry point, argument order and launch configuration
    launch: dict | None = None

    @property
    def label(self) -> str:
        return f"entry {self.index} ({self.workload}, {self.backend})"


@dataclass(frozen=True)
class Bundle:
    name: str
    description: str
    entries: tuple[Entry, ...]
    sha256: str
    schema: str = SCHEMA


# --------------------------------------------------------------------------- helpers


def _size(n: int) -> str:
    """A measured size: exact bytes below 1 MiB, else MiB with one decimal."""
    return f"{n} bytes" if n < MiB else f"{n / MiB:.1f} MiB"


def _limit(n: int | float) -> str:
    """A configured limit: whole MiB when it is one, else exact bytes below 1 MiB."""
    n = int(n)
    if n >= MiB:
        return f"{n // MiB} MiB" if n % MiB == 0 else f"{n / MiB:.1f} MiB"
    return f"{n} bytes"


def _ratio(r: float) -> str:
    return f"{r:.0f}:1"


def _show(s: str) -> str:
    """A string from the manifest as shown inside a label: plain when printable, else repr."""
    return s if s.isprintable() and len(s) <= 200 else repr(s[:200])


def normalize_path(name: str) -> tuple[str | None, str | None]:
    """``(normalised, None)`` for a safe relative POSIX path, else ``(None, problem)``.

    Empty and ``.`` components are dropped, so ``./a//b`` becomes ``a/b`` and ``./`` becomes "".
    """
    if "\x00" in name:
        return None, "NUL byte in path"
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return None, "path is not valid UTF-8"
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        return None, "control character in path"
    if "\\" in name:
        return None, "backslash in path (use '/')"
    if name.startswith("/"):
        return None, "absolute path"
    if _DRIVE_RE.match(name):
        return None, "absolute path (drive letter)"
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        return None, "path escapes the bundle"
    return "/".join(parts), None


def _decode_utf8(data: bytes) -> tuple[str | None, str | None]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return None, f"is not valid UTF-8 (invalid byte 0x{data[e.start]:02x} at offset {e.start})"
    return text.removeprefix("\ufeff"), None


def _read_capped(f, cap: int) -> bytes | None:
    """Read ``f`` to its end, but never more than ``cap + 1`` bytes; None when it holds more."""
    buf = bytearray()
    while True:
        chunk = f.read(min(_CHUNK, cap + 1 - len(buf)))
        if not chunk:
            return bytes(buf)
        buf += chunk
        if len(buf) > cap:
            return None


# --------------------------------------------------------------------------- reading members


class _Fatal(Exception):
    """Reading the container cannot go on; the reader's errors say why."""


class _Reader:
    """The files of one bundle, read into memory, with every problem met on the way."""

    def __init__(self, limits: Limits, noun: str):
        self.limits = limits
        self.noun = noun  # "archive member" or "bundle path"
        self.errors: list[str] = []
        self.files: dict[str, bytes] = {}
        self.dirs: set[str] = set()
        self.rejected: dict[str, str] = {}  # normalised path -> why (already reported)
        self.oversized: dict[str, int | None] = {}  # normalised path -> size (None: unknown, > cap)
        self.names: dict[str, str] = {}  # normalised path -> name as found, for messages
        self.total = 0
        # Traces may be larger than other files; which file is a trace is known only from the
        # manifest, so reading is capped at the larger limit and sizes are judged afterwards.
        self.read_cap = max(limits.max_file_bytes, limits.max_trace_bytes)
        self.members = 0

    def where(self, raw: str) -> str:
        return f"{self.noun} {raw!r}"

    def fatal(self, message: str) -> None:
        self.errors.append(message)
        raise _Fatal

    def count_member(self) -> None:
        self.members += 1
        if self.members > self.limits.max_members:
            self.fatal(f"bundle has more than {self.limits.max_members} members (files and "
                       f"directories); the limit is {self.limits.max_members}")

    def reject(self, raw: str, path: str | None, why: str) -> None:
        self.errors.append(f"{self.where(raw)}: {why}")
        if path:
            self.rejected.setdefault(path, why)
            self.files.pop(path, None)

    def name(self, raw: str) -> str | None:
        """The normalised path of a member, or None (reported) when its name is unsafe."""
        path, problem = normalize_path(raw)
        if problem:
            self.reject(raw, None, problem)
            return None
        return path

    def _claim(self, raw: str, path: str) -> bool:
        if path in self.files or path in self.dirs or path in self.rejected or path in self.oversized:
            self.reject(raw, path, "duplicate member (the same path appears more than once)")
            return False
        self.names[path] = raw
        return True

    def add_dir(self, raw: str, path: str) -> None:
        if path and path not in self.dirs and self._claim(raw, path):
            self.dirs.add(path)

    def add_oversized(self, raw: str, path: str, size: int | None) -> None:
        if self._claim(raw, path):
            self.oversized[path] = size

    def budget(self) -> int:
        return self.limits.max_total_uncompressed_bytes - self.total

    def over_budget(self) -> None:
        self.fatal(f"bundle files add up to more than {_limit(self.limits.max_total_uncompressed_bytes)} "
                   f"uncompressed; the limit is {_limit(self.limits.max_total_uncompressed_bytes)}")

    def add_file(self, raw: str, path: str, data: bytes) -> None:
        if self._claim(raw, path):
            self.files[path] = data
            self.total += len(data)
            if self.total > self.limits.max_total_uncompressed_bytes:
                self.over_budget()

    def finish(self) -> None:
        """Reject files that also serve as a directory of other members."""
        parents = set()
        for p in list(self.files) + list(self.dirs):
            parts = p.split("/")
            parents.update("/".join(parts[:i]) for i in range(1, len(parts)))
        for p in sorted(parents & (set(self.files) | set(self.oversized))):
            self.reject(self.names.get(p, p), p, "is both a file and a directory")
            self.oversized.pop(p, None)

    def strip_single_folder(self) -> None:
        """Accept an archive whose members all sit under one folder holding manifest.json."""
        if MANIFEST in self.files or MANIFEST in self.rejected or MANIFEST in self.oversized:
            return
        every = set(self.files) | self.dirs | set(self.rejected) | set(self.oversized)
        tops = {p.split("/")[0] for p in every} - {"__MACOSX"}
        if len(tops) != 1:
            return
        top = tops.pop()
        if f"{top}/{MANIFEST}" not in (set(self.files) | set(self.rejected) | set(self.oversized)):
            return
        prefix = top + "/"

        def strip(d: dict) -> dict:
            return {k[len(prefix):]: v for k, v in d.items() if k.startswith(prefix)}

        self.files = strip(self.files)
        self.rejected = strip(self.rejected)
        self.oversized = strip(self.oversized)
        self.names = strip(self.names)
        self.dirs = {p[len(prefix):] for p in self.dirs if p.startswith(prefix)}


def _read_zip(data: bytes, r: _Reader) -> None:
    lim = r.limits
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as e:
        r.fatal(f"archive: not a valid zip archive ({e})")
    if len(infos) > lim.max_members:
        r.fatal(f"archive has {len(infos)} members; the limit is {lim.max_members}")

    # First pass: names, types and declared sizes, reading nothing.
    to_read: list[tuple[zipfile.ZipInfo, str]] = []
    for info in infos:
        raw = info.orig_filename
        path = r.name(raw)
        if path is None:
            continue
        mode = (info.external_attr >> 16) & 0xFFFF
        ftype = stat.S_IFMT(mode)
        if stat.S_ISLNK(mode):
            r.reject(raw, path, "symbolic links are not allowed")
            continue
        if ftype and ftype not in (stat.S_IFREG, stat.S_IFDIR):
            r.reject(raw, path, "special files (devices, FIFOs, sockets) are not allowed")
            continue
        if info.is_dir() or ftype == stat.S_IFDIR:
            r.add_dir(raw, path)
            continue
        if not path:
            r.reject(raw, None, "a file member needs a name")
            continue
        if info.flag_bits & 0x1:
            r.reject(raw, path, "encrypted members are not allowed")
            continue
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > RATIO_FLOOR_BYTES and ratio > lim.max_compression_ratio:
            r.reject(raw, path, f"expands to {_size(info.file_size)} (ratio {_ratio(ratio)}): looks like "
                                f"a zip bomb; the limit is {_ratio(lim.max_compression_ratio)}")
            continue
        if info.file_size > r.read_cap:
            r.add_oversized(raw, path, info.file_size)
            continue
        to_read.append((info, path))

    declared = sum(i.file_size for i, _ in to_read)
    if declared > lim.max_total_uncompressed_bytes:
        r.fatal(f"archive expands to {_size(declared)}; the limit is {_limit(lim.max_total_uncompressed_bytes)}")
    overall = declared / max(len(data), 1)
    if declared > RATIO_FLOOR_BYTES and overall > lim.max_compression_ratio:
        r.fatal(f"archive expands to {_size(declared)} (ratio {_ratio(overall)}): looks like a zip bomb; "
                f"the limit is {_ratio(lim.max_compression_ratio)}")

    # Second pass: read, never trusting the headers: every read is capped.
    for info, path in to_read:
        raw = info.orig_filename
        ratio_cap = max(RATIO_FLOOR_BYTES, int(lim.max_compression_ratio * max(info.compress_size, 1)))
        budget = r.budget()
        cap = min(r.read_cap, budget, ratio_cap)
        try:
            with zf.open(info) as f:
                content = _read_capped(f, cap)
        except (zipfile.BadZipFile, OSError, EOFError, zlib.error, NotImplementedError, RuntimeError,
                ValueError) as e:
            r.reject(raw, path, f"cannot be read: corrupt or unsupported data ({e})")
            continue
        if content is None:
            if cap == ratio_cap:
                r.reject(raw, path, f"expands to more than {_size(ratio_cap)} although its header says "
                                    f"{_size(info.file_size)}: looks like a zip bomb; the limit is "
                                    f"{_ratio(lim.max_compression_ratio)}")
            elif cap == r.read_cap:
                r.add_oversized(raw, path, None)
            else:
                r.over_budget()
            continue
        if len(content) != info.file_size:
            r.reject(raw, path, f"corrupt: its header says {info.file_size} bytes but it holds {len(content)}")
            continue
        r.add_file(raw, path, content)


def _gunzip_capped(data: bytes, r: _Reader) -> bytes:
    lim = r.limits
    # A tar holds headers and padding besides file data; leave room for them.
    total_cap = lim.max_total_uncompressed_bytes + (lim.max_members + 4) * 2048 + 20 * 512
    ratio_cap = max(RATIO_FLOOR_BYTES, int(lim.max_compression_ratio * len(data)))
    cap = min(total_cap, ratio_cap)
    out = bytearray()
    rest = data
    try:
        while rest:
            d = zlib.decompressobj(wbits=31)
            pending = rest
            while True:
                chunk = d.decompress(pending, cap + 1 - len(out))
                out += chunk
                if len(out) > cap:
                    if cap == ratio_cap:
                        r.fatal(f"archive expands to more than {_size(cap)} (ratio over "
                                f"{_ratio(lim.max_compression_ratio)}): looks like a gzip bomb; the limit "
                                f"is {_ratio(lim.max_compression_ratio)}")
                    r.fatal(f"archive expands to more than {_limit(lim.max_total_uncompressed_bytes)}; "
                            f"the limit is {_limit(lim.max_total_uncompressed_bytes)}")
                pending = d.unconsumed_tail
                if d.eof:
                    rest = d.unused_data
                    break
                if not pending and not chunk:
                    r.fatal("archive: the gzip data is truncated")
            if not rest.strip(b"\0"):  # trailing zero padding, as gzip itself allows
                break
    except zlib.error as e:
        r.fatal(f"archive: not valid gzip data ({e})")
    return bytes(out)


def _read_tgz(data: bytes, r: _Reader) -> None:
    if data[:2] != b"\x1f\x8b":
        r.fatal("archive: not gzip-compressed (a .tar.gz/.tgz bundle must be a gzip-compressed tar)")
    raw_tar = _gunzip_capped(data, r)
    try:
        tf = tarfile.open(fileobj=io.BytesIO(raw_tar), mode="r:")
    except tarfile.TarError as e:
        r.fatal(f"archive: not a valid tar archive ({e})")
    count = 0
    while True:
        try:
            m = tf.next()
        except (tarfile.TarError, EOFError, ValueError, UnicodeError) as e:
            r.fatal(f"archive: corrupt tar data ({e})")
        if m is None:
            break
        count += 1
        if count > r.limits.max_members:
            r.fatal(f"archive has more than {r.limits.max_members} members; the limit is {r.limits.max_members}")
        raw = m.name
        path = r.name(raw)
        if path is None:
            continue
        if m.issym():
            r.reject(raw, path, "symbolic links are not allowed")
        elif m.islnk():
            r.reject(raw, path, "hard links are not allowed")
        elif m.ischr() or m.isblk():
            r.reject(raw, path, "device files are not allowed")
        elif m.isfifo():
            r.reject(raw, path, "FIFOs are not allowed")
        elif m.issparse():
            r.reject(raw, path, "sparse files are not allowed")
        elif m.isdir():
            r.add_dir(raw, path)
        elif not m.isreg():
            r.reject(raw, path, f"unsupported member type {m.type!r}: only regular files and directories are allowed")
        elif not path:
            r.reject(raw, None, "a file member needs a name")
        elif m.size > r.read_cap:
            r.add_oversized(raw, path, m.size)
        else:
            cap = min(r.read_cap, r.budget())
            try:
                f = tf.extractfile(m)
                content = _read_capped(f, cap) if f is not None else None
            except (tarfile.TarError, OSError, EOFError, ValueError) as e:
                r.reject(raw, path, f"cannot be read: corrupt data ({e})")
                continue
            if f is None:
                r.reject(raw, path, "cannot be read")
            elif content is None:
                if cap == r.read_cap:
                    r.add_oversized(raw, path, None)
                else:
                    r.over_budget()
            else:
                r.add_file(raw, path, content)


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


def _read_dir(root: str, r: _Reader) -> None:
    stack = [("", root)]
    while stack:
        rel, here = stack.pop()
        try:
            with os.scandir(here) as it:
                found = sorted(it, key=lambda de: de.name)
        except OSError as e:
            r.errors.append(f"{r.where(rel or '.')}: cannot list directory ({e.strerror})")
            continue
        for de in found:
            raw = f"{rel}/{de.name}" if rel else de.name
            r.count_member()
            path = r.name(raw)
            if path is None:
                continue
            try:
                if de.is_symlink():
                    r.reject(raw, path, "symbolic links are not allowed")
                    continue
                if de.is_dir(follow_symlinks=False):
                    r.add_dir(raw, path)
                    stack.append((raw, de.path))
                    continue
                if not de.is_file(follow_symlinks=False):
                    r.reject(raw, path, "not a regular file (devices, FIFOs and sockets are not allowed)")
                    continue
                if de.stat(follow_symlinks=False).st_size > r.read_cap:
                    r.add_oversized(raw, path, de.stat(follow_symlinks=False).st_size)
                    continue
                cap = min(r.read_cap, r.budget())
                fd = os.open(de.path, os.O_RDONLY | _NOFOLLOW)
                with os.fdopen(fd, "rb") as f:
                    if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                        r.reject(raw, path, "not a regular file")
                        continue
                    content = _read_capped(f, cap)
            except OSError as e:
                r.reject(raw, path, f"cannot be read ({e.strerror or e})")
                continue
            if content is None:
                if cap == r.read_cap:
                    r.add_oversized(raw, path, None)
                else:
                    r.over_budget()
                continue
            r.add_file(raw, path, content)


def _dir_digest(files: Mapping[str, bytes]) -> str:
    """sha256 of a canonical serialisation of a directory's files, sorted by path."""
    h = hashlib.sha256(b"edgekernelbench-bundle-dir@1\0")
    for p in sorted(files):
        data = files[p]
        h.update(p.encode("utf-8") + b"\0" + str(len(data)).encode("ascii") + b"\0")
        h.update(data)
    return h.hexdigest()


def _open(path: str, limits: Limits) -> tuple[_Reader, str]:
    """Read every member of the bundle at ``path``; return the reader and the bundle's sha256."""
    shown = repr(path)
    if os.path.isdir(path):
        if os.path.islink(path):
            raise BundleError(f"bundle {shown}: symbolic links are not allowed")
        r = _Reader(limits, "bundle path")
        try:
            _read_dir(path, r)
            r.finish()
        except _Fatal:
            raise BundleError(r.errors) from None
        return r, _dir_digest(r.files)

    if not os.path.exists(path):
        raise BundleError(f"bundle {shown} does not exist")
    if not os.path.isfile(path):
        raise BundleError(f"bundle {shown}: not a regular file or directory; expected {ARCHIVE_KINDS}")
    lower = os.path.basename(path).lower()
    if lower.endswith(".zip"):
        reader = _read_zip
    elif lower.endswith((".tar.gz", ".tgz")):
        reader = _read_tgz
    else:
        raise BundleError(f"bundle {shown}: unsupported bundle type; expected {ARCHIVE_KINDS}")

    size = os.stat(path).st_size
    too_big = f"archive is {_size(size)}; the limit is {_limit(limits.max_archive_bytes)}"
    if size > limits.max_archive_bytes:
        raise BundleError(too_big)
    with open(path, "rb") as f:
        data = _read_capped(f, limits.max_archive_bytes)
    if data is None:
        raise BundleError(f"archive is more than {_limit(limits.max_archive_bytes)}; "
                          f"the limit is {_limit(limits.max_archive_bytes)}")
    r = _Reader(limits, "archive member")
    try:
        reader(data, r)
        r.finish()
    except _Fatal:
        raise BundleError(r.errors) from None
    r.strip_single_folder()
    return r, hashlib.sha256(data).hexdigest()


# --------------------------------------------------------------------------- manifest


def _suite_workload_exists(workload_id: str) -> bool:
    from evaluator import suite

    try:
        suite.get_workload(workload_id)
    except suite.UnknownWorkload:
        return False
    return True


def _parse_manifest(r: _Reader, errors: list[str]) -> Any:
    """The manifest's JSON document, or None (errors reported) when it cannot be had."""
    lim = r.limits
    if MANIFEST in r.rejected:
        errors.append(f"{MANIFEST}: cannot be used ({r.rejected[MANIFEST]})")
        return None
    if MANIFEST in r.oversized or (MANIFEST in r.files and len(r.files[MANIFEST]) > lim.max_file_bytes):
        size = r.oversized.get(MANIFEST) if MANIFEST in r.oversized else len(r.files[MANIFEST])
        shown = _size(size) if size is not None else f"more than {_limit(r.read_cap)}"
        errors.append(f"{MANIFEST}: is {shown}; the limit is {_limit(lim.max_file_bytes)}")
        return None
    if MANIFEST not in r.files:
        nested = sorted(p for p in r.files if p.endswith("/" + MANIFEST))
        hint = ""
        if nested:
            hint = (f" (found {nested[0]!r}: the manifest must sit at the root, or an archive must hold "
                    f"a single top-level folder that contains it)")
        errors.append(f"{MANIFEST} is missing from the bundle root{hint}")
        return None
    text, problem = _decode_utf8(r.files[MANIFEST])
    if problem:
        errors.append(f"{MANIFEST}: {problem}")
        return None
    try:
        return json.loads(text, object_pairs_hook=pairs_hook, parse_constant=reject_constant)
    except json.JSONDecodeError as e:
        errors.append(f"{MANIFEST}: invalid JSON at line {e.lineno} column {e.colno}: {e.msg}")
    except DuplicateKey as e:
        errors.append(f"{MANIFEST}: invalid JSON: duplicate key {e.args[0]!r}")
    except RecursionError:
        errors.append(f"{MANIFEST}: invalid JSON: nested too deeply")
    except ValueError as e:
        errors.append(f"{MANIFEST}: invalid JSON: {e}")
    return None


def load_bundle(
    path: str | os.PathLike,
    *,
    formats: Mapping[str, Any] | None = None,
    workload_exists: Callable[[str], bool] | None = None,
    limits: Limits = Limits(),
) -> Bundle:
    """Load and check the bundle at ``path`` (a directory, ``.zip``, ``.tar.gz`` or ``.tgz``).

    ``formats`` maps a format name to an object whose ``check(text) -> list[str]`` returns static
    errors for an entry's file (default: ``evaluator.formats.FORMATS``). ``workload_exists`` says
    whether a workload id is in the suite, hidden ones included (default: the suite itself).
    Raises :class:`BundleError` listing every problem found.
    """
    if formats is None:
        from evaluator.formats import FORMATS

        formats = FORMATS
    if workload_exists is None:
        workload_exists = _suite_workload_exists

    r, digest = _open(os.fspath(path), limits)
    errors = r.errors
    doc = _parse_manifest(r, errors)
    if doc is None:
        raise _error(errors)
    if not isinstance(doc, dict):
        errors.append(f"{MANIFEST}: the top level must be a JSON object, got {_kind(doc)}")
        raise _error(errors)

    where = MANIFEST
    for key in doc:
        if key not in MANIFEST_KEYS:
            errors.append(f"{where}: unknown key {key!r} (allowed: {', '.join(MANIFEST_KEYS)})")

    schema = doc.get("schema")
    if "schema" not in doc:
        errors.append(f"{where}: missing 'schema' (expected {SCHEMA!r})")
    elif schema != SCHEMA:
        shown = repr(schema) if isinstance(schema, str) else _kind(schema)
        errors.append(f"{where}: unsupported schema {shown}; expected {SCHEMA!r}")

    name = doc.get("name")
    if "name" not in doc:
        errors.append(f"{where}: missing 'name'")
    elif not isinstance(name, str) or not NAME_RE.fullmatch(name):
        shown = repr(name) if isinstance(name, str) else _kind(name)
        errors.append(f"{where}: 'name' must be 1-64 characters of A-Z a-z 0-9 . _ -, got {shown}")

    description = doc.get("description", "")
    if description is None:
        description = ""
    if not isinstance(description, str):
        errors.append(f"{where}: 'description' must be a string, got {_kind(description)}")
    elif len(description) > MAX_DESCRIPTION:
        errors.append(f"{where}: 'description' is {len(description)} characters; the limit is {MAX_DESCRIPTION}")

    raw_entries = doc.get("entries")
    if "entries" not in doc:
        errors.append(f"{where}: missing 'entries'")
        raw_entries = []
    elif not isinstance(raw_entries, list):
        errors.append(f"{where}: 'entries' must be an array, got {_kind(raw_entries)}")
        raw_entries = []
    elif not raw_entries:
        errors.append(f"{where}: 'entries' is empty; a bundle needs at least one entry")
    elif len(raw_entries) > limits.max_entries:
        errors.append(f"{where}: 'entries' has {len(raw_entries)} entries; the limit is {limits.max_entries}")
        raw_entries = []

    entries: list[Entry] = []
    seen: dict[tuple[str, str], int] = {}
    known_workloads: dict[str, bool] = {}
    file_refs: set[str] = set()
    for index, spec in enumerate(raw_entries, start=1):
        entry = _check_entry(index, spec, r, formats, workload_exists, known_workloads, seen, file_refs, errors)
        if entry is not None:
            entries.append(entry)

    # Files no entry references are allowed (a README, say) but still size-limited. When the
    # entries could not be read, which files are traces (with their larger limit) is unknown:
    # then only files past every limit are reported.
    refs_known = bool(raw_entries)
    for p in sorted(set(r.files) | set(r.oversized)):
        if p in file_refs or p == MANIFEST:
            continue
        size = r.oversized.get(p) if p in r.oversized else len(r.files[p])
        if p in r.oversized or (refs_known and size > limits.max_file_bytes):
            shown = _size(size) if size is not None else f"more than {_limit(r.read_cap)}"
            errors.append(f"{r.where(r.names.get(p, p))}: is {shown}; the limit is {_limit(limits.max_file_bytes)}")

    if errors:
        raise _error(errors)
    return Bundle(name=name, description=description, entries=tuple(entries), sha256=digest, schema=SCHEMA)


def _error(errors: list[str]) -> BundleError:
    if len(errors) > MAX_REPORTED_ERRORS:
        more = len(errors) - MAX_REPORTED_ERRORS
        errors = errors[:MAX_REPORTED_ERRORS] + [f"... and {more} more problems"]
    return BundleError(errors)


def _bundle_text(
    r: _Reader, raw: Any, what: str, label: str, limit: int, file_refs: set[str], errors: list[str]
) -> tuple[str | None, str | None]:
    """``(normalised path, text)`` of a file an entry names; text None (reported) when unusable."""
    if not isinstance(raw, str):
        errors.append(f"{label}: {what!r} must be a string (a path inside the bundle), got {_kind(raw)}")
        return None, None
    path, problem = normalize_path(raw)
    if problem:
        errors.append(f"{label}: {what} {raw!r} is not a valid path inside the bundle: {problem}")
        return None, None
    if not path:
        errors.append(f"{label}: {what!r} must not be empty")
        return None, None
    file_refs.add(path)
    if path in r.rejected:
        errors.append(f"{label}: {what} {raw!r} was rejected: {r.rejected[path]}")
        return path, None
    if path in r.dirs:
        errors.append(f"{label}: {what} {raw!r} is a directory, not a file")
        return path, None
    if path in r.oversized or (path in r.files and len(r.files[path]) > limit):
        size = r.oversized.get(path) if path in r.oversized else len(r.files[path])
        shown = _size(size) if size is not None else f"more than {_limit(r.read_cap)}"
        errors.append(f"{label}: {what} {raw!r} is {shown}; the limit is {_limit(limit)}")
        return path, None
    if path not in r.files:
        errors.append(f"{label}: {what} {raw!r} is missing from the bundle")
        return path, None
    text, problem = _decode_utf8(r.files[path])
    if problem:
        errors.append(f"{label}: {what} {raw!r} {problem}")
        return path, None
    return path, text


def _check_entry(
    index: int,
    spec: Any,
    r: _Reader,
    formats: Mapping[str, Any],
    workload_exists: Callable[[str], bool],
    known_workloads: dict[str, bool],
    seen: dict[tuple[str, str], int],
    file_refs: set[str],
    errors: list[str],
) -> Entry | None:
    if not isinstance(spec, dict):
        errors.append(f"entry {index}: must be a JSON object, got {_kind(spec)}")
        return None
    n_before = len(errors)
    workload, backend, fmt = spec.get("workload"), spec.get("backend"), spec.get("format")
    shown = [_show(v) for v in (workload, backend) if isinstance(v, str)]
    label = f"entry {index} ({', '.join(shown)})" if shown else f"entry {index}"

    for key in spec:
        if key not in ENTRY_KEYS:
            errors.append(f"{label}: unknown key {key!r} (allowed: {', '.join(ENTRY_KEYS)})")
    for key in ("workload", "backend", "format", "file"):
        if key not in spec:
            errors.append(f"{label}: missing {key!r}")
        elif not isinstance(spec[key], str):
            errors.append(f"{label}: {key!r} must be a string, got {_kind(spec[key])}")

    if isinstance(workload, str):
        if not workload:
            errors.append(f"{label}: 'workload' must not be empty")
        else:
            if workload not in known_workloads:
                known_workloads[workload] = bool(workload_exists(workload))
            if not known_workloads[workload]:
                errors.append(f"{label}: unknown workload {workload!r}")
    if isinstance(backend, str) and not BACKEND_RE.fullmatch(backend):
        errors.append(f"{label}: unknown backend {backend!r} (expected 'cpu-llvm', 'opencl', 'cuda' or "
                      f"'rpc:<key>' with a key of 1-64 characters of A-Z a-z 0-9 . _ -)")
    if isinstance(workload, str) and isinstance(backend, str):
        first = seen.setdefault((workload, backend), index)
        if first != index:
            errors.append(f"{label}: duplicate of entry {first} (the same workload and backend)")
    if isinstance(fmt, str) and fmt not in formats:
        known = ", ".join(sorted(formats)) or "none"
        errors.append(f"{label}: unknown format {fmt!r} (known: {known})")

    path, source = (None, None)
    if "file" in spec and isinstance(spec["file"], str):
        path, source = _bundle_text(r, spec["file"], "file", label, r.limits.max_file_bytes, file_refs, errors)

    if source is not None and isinstance(fmt, str) and fmt in formats:
        try:
            problems = list(formats[fmt].check(source))
        except Exception as e:  # a checker bug must not hide the other problems
            problems = [f"internal error while checking format {fmt!r}: {type(e).__name__}: {e}"]
        errors.extend(f"{label}: {p}" for p in problems)

    launch = spec.get("launch")
    if isinstance(fmt, str) and fmt in formats:
        check_launch = getattr(formats[fmt], "check_launch", None)
        if check_launch is None:
            if launch is not None:
                errors.append(f"{label}: 'launch' is only for raw-source formats, not {fmt!r}")
        else:
            errors.extend(f"{label}: launch: {p}" for p in check_launch(launch))

    trace = None
    raw_trace = spec.get("trace")
    if raw_trace is not None:
        tpath, ttext = _bundle_text(r, raw_trace, "trace", label, r.limits.max_trace_bytes, file_refs, errors)
        if ttext is not None:
            try:
                trace = parse_trace(ttext, max_bytes=r.limits.max_trace_bytes)
            except TraceError as e:
                errors.extend(f"{label}: trace {raw_trace!r}: {m}" for m in e.errors)

    if len(errors) > n_before:
        return None
    return Entry(index=index, workload=workload, backend=backend, format=fmt, file=path, source=source,
                 trace=trace, launch=launch)
