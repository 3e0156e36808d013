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
         "trace": "traces/matmul.jsonl"},
        {"pattern": "matmul/matmul", "backend": "cpu-llvm",
         "format": "layered-trace", "file": "schedules/matmul-any.json"}
      ]
    }

An entry names one ``workload`` or a whole ``pattern`` (every shape of it, public and held out);
:meth:`Bundle.entry_for` resolves a workload to its entry, a workload-level entry first.

:func:`load_bundle` never extracts anything to disk: every member is read into memory with
caps checked before and while reading (member count, declared and real sizes, compression
ratio, names, member types). It collects every problem it can find and raises a single
:class:`BundleError`; each message names where the problem is.

Validation is bounded: whatever the bundle's shape, checking it costs at most a fixed time and
memory (the ``MAX_*`` constants below, the defaults of :class:`Limits`). Every file is read,
decoded and hashed once, however many entries name it; a static check runs once per format and
file content, a trace is parsed once per content; a path that appears more than once in an
archive is refused without reading any copy; member count, entry count, path length and depth,
total bytes read and total bytes checked are capped; and the whole validation has a wall-clock
budget. Only the first :data:`MAX_REPORTED_ERRORS` messages are kept (the rest are counted).
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import re
import stat
import struct
import tarfile
import time
import zipfile
import zlib
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from evaluator import backends as backend_registry
from evaluator import suite
from evaluator.formats import FORMATS, raw_source
from evaluator.suite.retired import message as retired_message
from evaluator.formats.strict_json import DuplicateKey, pairs_hook, reject_constant
from evaluator.formats.strict_json import type_name as _kind
from evaluator.formats.trace import TraceError, parse_trace

if TYPE_CHECKING:
    from evaluator.suite import WorkloadDef

__all__ = ["SCHEMA", "Limits", "BundleError", "Entry", "Bundle", "load_bundle",
           "MAX_ARCHIVE_BYTES", "MAX_TOTAL_UNCOMPRESSED_BYTES", "MAX_FILE_BYTES", "MAX_TRACE_BYTES",
           "MAX_MEMBERS", "MAX_ENTRIES", "MAX_COMPRESSION_RATIO", "MAX_PATH_CHARS", "MAX_PATH_DEPTH",
           "MAX_CHECKED_BYTES", "MAX_VALIDATION_SECONDS"]

SCHEMA = "edgekernelbench/bundle@1"
MiB = 1024 * 1024

NAME_RE = re.compile(r"[A-Za-z0-9._-]{1,64}")
MAX_DESCRIPTION = 2000
MANIFEST = "manifest.json"
MANIFEST_KEYS = ("schema", "name", "description", "entries")
ENTRY_KEYS = ("workload", "pattern", "backend", "format", "file", "trace", "launch")
ARCHIVE_KINDS = "a directory, a .zip archive, or a .tar.gz/.tgz archive"

# The caps of one bundle (the defaults of Limits). Each one is enforced with a message that names
# what is too big and the limit.
MAX_ARCHIVE_BYTES = 20 * MiB  # the uploaded .zip/.tar.gz itself
MAX_TOTAL_UNCOMPRESSED_BYTES = 64 * MiB  # every member's data together, as read
MAX_FILE_BYTES = 2 * MiB  # one file (the manifest, an entry's file, any other file)
MAX_TRACE_BYTES = 4 * MiB  # one trace file
MAX_MEMBERS = 6000  # files and directories in the archive (or directory)
MAX_ENTRIES = 4000  # manifest entries: the whole suite on several backends
MAX_COMPRESSION_RATIO = 100  # per member and for the whole archive, past RATIO_FLOOR_BYTES
MAX_PATH_CHARS = 1024  # one member's path, in characters
MAX_PATH_DEPTH = 32  # one member's path, in components (directories and the name)
# Bytes of entry files and traces that go through a static check or the trace parser, each
# distinct (format, content) once: a file shared by many entries counts once.
MAX_CHECKED_BYTES = 64 * MiB
MAX_VALIDATION_SECONDS = 10.0  # wall clock for the whole validation

# Compression ratios are only judged for data past this size: tiny, very regular files
# (a JSON file of mostly spaces, say) can legitimately compress far better than 100:1.
RATIO_FLOOR_BYTES = 1 * MiB
# At most this many messages go into one BundleError (the rest are counted).
MAX_REPORTED_ERRORS = 200
_CHUNK = 64 * 1024
_DRIVE_RE = re.compile(r"[A-Za-z]:")


@dataclass(frozen=True)
class Limits:
    max_archive_bytes: int = MAX_ARCHIVE_BYTES
    max_total_uncompressed_bytes: int = MAX_TOTAL_UNCOMPRESSED_BYTES
    max_file_bytes: int = MAX_FILE_BYTES
    max_members: int = MAX_MEMBERS
    max_entries: int = MAX_ENTRIES
    max_compression_ratio: float = MAX_COMPRESSION_RATIO
    max_trace_bytes: int = MAX_TRACE_BYTES
    max_path_chars: int = MAX_PATH_CHARS
    max_path_depth: int = MAX_PATH_DEPTH
    max_checked_bytes: int = MAX_CHECKED_BYTES
    max_seconds: float = MAX_VALIDATION_SECONDS


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
    workload: str | None  # exactly one of workload and pattern is set
    backend: str
    format: str
    file: str  # normalised path inside the bundle
    source: str  # the file's content, UTF-8 decoded
    trace: list[dict] | None
    # raw-source formats only: entry point, argument order and launch configuration
    launch: dict | None = None
    pattern: str | None = None  # a pattern id: this kernel for every workload of the pattern

    @property
    def label(self) -> str:
        return f"entry {self.index} ({self.target}, {self.backend})"

    @property
    def target(self) -> str:
        """What the entry is for, as shown: the workload id, or ``pattern <id>``."""
        return self.workload if self.workload is not None else f"pattern {self.pattern}"

    def launch_for(self, w: "WorkloadDef") -> dict | None:
        """The launch to build this entry for workload ``w``: with ``shape_args``, the workload's
        integer parameters go along so the build can pass their values."""
        return raw_source.bind_shape(self.launch, w.params)


@dataclass(frozen=True)
class Bundle:
    name: str
    description: str
    entries: tuple[Entry, ...]
    sha256: str
    schema: str = SCHEMA

    @functools.cached_property
    def _targets(self) -> dict[tuple[str, str, str], Entry]:
        # ("workload" | "pattern", id, backend) -> entry; the loader refuses duplicates
        return {("workload", e.workload, e.backend) if e.workload is not None else ("pattern", e.pattern, e.backend): e
                for e in self.entries}

    def entry_for(self, w: "WorkloadDef", backend: str) -> Entry | None:
        """The entry that evaluates workload ``w`` on ``backend``: one naming the workload, else
        one naming its pattern (``w.pattern.id``: a held-out id's tag is opaque, never parsed)."""
        found = self._targets.get(("workload", w.id, backend))
        return found if found is not None else self._targets.get(("pattern", w.pattern.id, backend))


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


def _q(s: Any) -> str:
    """repr() of a submitted value for a message, cut short past 200 characters."""
    if isinstance(s, str) and len(s) > 200:
        return f"{s[:200]!r}... ({len(s)} characters)"
    return repr(s)


def _seconds(n: float) -> str:
    return f"{n:g} s"


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


def _read_capped(f, cap: int, tick: Callable[[], None] | None = None) -> bytes | None:
    """Read ``f`` to its end, but never more than ``cap + 1`` bytes; None when it holds more.

    ``tick`` (the validation's clock) is called before every chunk."""
    buf = bytearray()
    while True:
        if tick is not None:
            tick()
        chunk = f.read(min(_CHUNK, cap + 1 - len(buf)))
        if not chunk:
            return bytes(buf)
        buf += chunk
        if len(buf) > cap:
            return None


# --------------------------------------------------------------------------- reading members


class _Fatal(Exception):
    """Reading the container cannot go on; the reader's errors say why."""


class _Problems(list):
    """The problems found so far. Only the first :data:`MAX_REPORTED_ERRORS` are kept, the rest
    are counted, so a bundle with a million problems costs no more memory than one with two
    hundred; the problem that stopped validation (``last``) is always kept."""

    def __init__(self) -> None:
        super().__init__()
        self.dropped = 0
        self.last: str | None = None

    @property
    def total(self) -> int:
        return len(self) + self.dropped + (self.last is not None)

    def append(self, message: str) -> None:
        if len(self) < MAX_REPORTED_ERRORS:
            super().append(message)
        else:
            self.dropped += 1

    def extend(self, messages) -> None:
        for m in messages:
            self.append(m)

    def __iadd__(self, messages):
        self.extend(messages)
        return self


@dataclass
class _Text:
    """A file of the bundle as entries use it: decoded once, hashed once."""

    text: str | None
    problem: str | None
    digest: str
    size: int


class _Reader:
    """The files of one bundle, read into memory, with every problem met on the way."""

    def __init__(self, limits: Limits, noun: str, started: float | None = None):
        self.limits = limits
        self.noun = noun  # "archive member" or "bundle path"
        self.errors = _Problems()
        self.files: dict[str, bytes] = {}
        self.dirs: set[str] = set()
        self.rejected: dict[str, str] = {}  # normalised path -> why (already reported)
        self.oversized: dict[str, int | None] = {}  # normalised path -> size (None: unknown, > cap)
        self.names: dict[str, str] = {}  # normalised path -> name as found, for messages
        # Every (non-directory) member's path -> its name as first found; paths that name more
        # than one member -> [count, up to 3 other spellings].
        self.seen: dict[str, str] = {}
        self.dups: dict[str, list] = {}
        self.total = 0
        # Traces may be larger than other files; which file is a trace is known only from the
        # manifest, so reading is capped at the larger limit and sizes are judged afterwards.
        self.read_cap = max(limits.max_file_bytes, limits.max_trace_bytes)
        self.members = 0
        self.deadline = (time.monotonic() if started is None else started) + limits.max_seconds
        # Per-file work done once: decoded text by path, static-check results by (format,
        # sha256), parsed traces by sha256; and the bytes that went through a check or parser.
        self.texts: dict[str, _Text] = {}
        self.checks: dict[tuple[str, str], list[str]] = {}
        self.traces: dict[str, tuple[list[dict] | None, list[str]]] = {}
        self.checked = 0

    def where(self, raw: str) -> str:
        return f"{self.noun} {_q(raw)}"

    def fatal(self, message: str) -> None:
        self.errors.last = message
        raise _Fatal

    def tick(self) -> None:
        """Stop validation once it has run past its wall-clock budget."""
        if time.monotonic() > self.deadline:
            self.fatal(f"validation stopped: the bundle needs more than {_seconds(self.limits.max_seconds)} "
                       f"to check; the limit is {_seconds(self.limits.max_seconds)}")

    def spend(self, nbytes: int) -> None:
        """Count bytes that are about to go through a static check or the trace parser."""
        self.checked += nbytes
        lim = self.limits.max_checked_bytes
        if self.checked > lim:
            self.fatal(f"validation stopped: the entries' files to check add up to more than {_limit(lim)} "
                       f"(each distinct file and format counted once); the limit is {_limit(lim)}")

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
        """The normalised path of a member, or None (reported) when its name is unsafe or too long."""
        self.tick()
        lim = self.limits
        if len(raw) > 4 * lim.max_path_chars:  # not worth normalising
            self.reject(raw, None, f"path is {len(raw)} characters long; the limit is {lim.max_path_chars}")
            return None
        path, problem = normalize_path(raw)
        if problem:
            self.reject(raw, None, problem)
            return None
        if len(path) > lim.max_path_chars:
            self.reject(raw, None, f"path is {len(path)} characters long; the limit is {lim.max_path_chars}")
            return None
        depth = path.count("/") + 1 if path else 0
        if depth > lim.max_path_depth:
            self.reject(raw, None, f"path is nested {depth} levels deep; the limit is {lim.max_path_depth}")
            return None
        return path

    def first(self, raw: str, path: str) -> bool:
        """Count one more (non-directory) member at ``path``; False when the path was seen before.

        A repeated path is refused as a whole: no copy is used, and one message (see
        :meth:`finish`) names it with its number of occurrences."""
        first = self.seen.get(path)
        if first is None:
            self.seen[path] = raw
            return True
        dup = self.dups.get(path)
        if dup is None:
            dup = self.dups[path] = [1, []]
        dup[0] += 1
        if raw != first and raw not in dup[1] and len(dup[1]) < 3:
            dup[1].append(raw)
        return False

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
        """Refuse repeated paths, then files that also serve as a directory of other members."""
        for path, (count, others) in self.dups.items():
            raw = self.seen[path]
            also = f" (also as {', '.join(_q(o) for o in others)})" if others else ""
            self.errors.append(f"{self.where(raw)} appears {count} times{also}: duplicate member "
                               f"(the same path may appear only once)")
            self.rejected[path] = f"duplicate member (it appears {count} times in the archive)"
            self.files.pop(path, None)
            self.oversized.pop(path, None)
        # p is a directory of other members when some member's path starts with p + "/".
        everything = sorted([*self.files, *self.dirs])
        for p in sorted([*self.files, *self.oversized]):
            i = bisect_left(everything, p + "/")
            if i < len(everything) and everything[i].startswith(p + "/"):
                self.reject(self.names.get(p, p), p, "is both a file and a directory")
                self.oversized.pop(p, None)

    def strip_single_folder(self) -> None:
        """Accept an archive whose members all sit under one folder holding manifest.json."""
        if MANIFEST in self.files or MANIFEST in self.rejected or MANIFEST in self.oversized:
            return
        every = set(self.files) | self.dirs | set(self.rejected) | set(self.oversized)
        tops = {p.split("/", 1)[0] for p in every} - {"__MACOSX"}
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

    # ----------------------------------------------------------------- per-file work, done once

    def text(self, path: str) -> _Text:
        """The file at ``path`` (which must be in ``files``) decoded and hashed, once."""
        t = self.texts.get(path)
        if t is None:
            self.tick()
            data = self.files[path]
            text, problem = _decode_utf8(data)
            t = self.texts[path] = _Text(text, problem, hashlib.sha256(data).hexdigest(), len(data))
        return t

    def check(self, fmt: str, checker: Any, t: _Text) -> list[str]:
        """``checker.check(text)`` for this format and content, run once."""
        key = (fmt, t.digest)
        problems = self.checks.get(key)
        if problems is None:
            self.tick()
            self.spend(t.size)
            try:
                problems = [str(p) for p in checker.check(t.text)]
            except Exception as e:  # noqa: BLE001 - a checker bug must not hide the other problems
                problems = [f"internal error while checking format {fmt!r}: {type(e).__name__}: {e}"]
            self.checks[key] = problems
            self.tick()
        return problems

    def trace(self, t: _Text) -> tuple[list[dict] | None, list[str]]:
        """The trace at this content parsed (records, problems), once."""
        got = self.traces.get(t.digest)
        if got is None:
            self.tick()
            self.spend(t.size)
            try:
                got = (parse_trace(t.text, max_bytes=self.limits.max_trace_bytes), [])
            except TraceError as e:
                got = (None, list(e.errors))
            self.traces[t.digest] = got
            self.tick()
        return got


_CD_SIG = b"PK\x01\x02"  # a zip central-directory record
_EOCD_SIG = b"PK\x05\x06"  # a zip end-of-central-directory record


def _zip_directory_records(data: bytes, r: _Reader) -> int | None:
    """How many records zipfile would read from the central directory, counted without building
    them; None when the directory cannot be found (zipfile then reports the damage).

    ``zipfile.ZipFile`` parses the whole directory up front, one Python object per record: a 20
    MiB archive of empty members holds over 400,000 of them. Every record starts with its
    signature, so when the signature occurs at most ``max_members`` times nothing is walked."""
    cap = r.limits.max_members
    if data.count(_CD_SIG) <= cap:
        return None
    # Find the directory the way zipfile does (zipfile._EndRecData: the end record last in the
    # file, else the last signature in the final 64 KiB + 22 bytes; then a zip64 record).
    if len(data) >= 22 and data[-22:-18] == _EOCD_SIG and data[-2:] == b"\0\0":
        pos = len(data) - 22
    else:
        pos = data.rfind(_EOCD_SIG, max(0, len(data) - (1 << 16) - 22))
        if pos < 0 or pos + 22 > len(data):
            return None
    size_cd, offset_cd = struct.unpack_from("<II", data, pos + 12)
    location = pos
    loc = pos - 20
    if loc >= 56 and data[loc:loc + 4] == b"PK\x06\x07":
        rec = loc - 56
        if data[rec:rec + 4] == b"PK\x06\x06":  # zipfile assumes no zip64 extensible data
            size_cd, offset_cd = struct.unpack_from("<QQ", data, rec + 40)
            location = rec
    start = location - size_cd  # zipfile's offset_cd + concat
    if start < 0:
        return None
    end = min(start + size_cd, len(data))
    n, at = 0, start
    while at < end:
        if data[at:at + 4] != _CD_SIG or at + 46 > end:
            break
        name_len, extra_len, comment_len = struct.unpack_from("<HHH", data, at + 28)
        at += 46 + name_len + extra_len + comment_len
        n += 1
        if n % 4096 == 0:
            r.tick()
    return n


def _read_zip(data: bytes, r: _Reader) -> None:
    lim = r.limits
    records = _zip_directory_records(data, r)
    if records is not None and records > lim.max_members:
        r.fatal(f"archive has {records} members; the limit is {lim.max_members}")
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError, struct.error) as e:
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
        special = stat.S_ISLNK(mode) or (ftype and ftype not in (stat.S_IFREG, stat.S_IFDIR))
        if not special and (info.is_dir() or ftype == stat.S_IFDIR):
            r.add_dir(raw, path)
            continue
        if path and not r.first(raw, path):
            continue  # a repeated path: refused in finish(), no copy is read
        if stat.S_ISLNK(mode):
            r.reject(raw, path, "symbolic links are not allowed")
            continue
        if ftype and ftype not in (stat.S_IFREG, stat.S_IFDIR):
            r.reject(raw, path, "special files (devices, FIFOs, sockets) are not allowed")
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
    to_read = [(info, path) for info, path in to_read if path not in r.dups]

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
                content = _read_capped(f, cap, r.tick)
        except (zipfile.BadZipFile, OSError, EOFError, zlib.error, NotImplementedError, RuntimeError,
                ValueError, struct.error) as e:
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


class _Gunzip(io.RawIOBase):
    """The decompressed bytes of gzip data (members concatenated), produced as they are read,
    never more than the caps allow: the whole tar is never held in memory.

    Input goes to zlib in slices of at most _CHUNK bytes: zlib copies its unconsumed input on
    every call, which over the whole archive at once would make reading quadratic."""

    def __init__(self, data: bytes, r: _Reader):
        lim = r.limits
        self.r = r
        # A tar holds headers and padding besides file data; leave room for them.
        total_cap = lim.max_total_uncompressed_bytes + (lim.max_members + 4) * 2048 + 20 * 512
        self.ratio_cap = max(RATIO_FLOOR_BYTES, int(lim.max_compression_ratio * len(data)))
        self.cap = min(total_cap, self.ratio_cap)
        self.produced = 0
        self.d = zlib.decompressobj(wbits=31)
        self.data = memoryview(data)
        self.pos = 0  # input up to here has been handed to zlib
        self.pending: bytes | memoryview = b""  # handed to zlib, not consumed yet
        self.done = False

    def readable(self) -> bool:
        return True

    def _fill(self) -> None:
        if not self.pending and self.pos < len(self.data):
            self.pending = self.data[self.pos:self.pos + _CHUNK]
            self.pos += len(self.pending)

    def readinto(self, b) -> int:
        r, lim = self.r, self.r.limits
        if not len(b):
            return 0
        r.tick()
        try:
            while not self.done:
                self._fill()
                chunk = self.d.decompress(self.pending, len(b))
                self.pending = self.d.unconsumed_tail
                if chunk:
                    self.produced += len(chunk)
                    if self.produced > self.cap:
                        if self.cap == self.ratio_cap:
                            r.fatal(f"archive expands to more than {_size(self.cap)} (ratio over "
                                    f"{_ratio(lim.max_compression_ratio)}): looks like a gzip bomb; the "
                                    f"limit is {_ratio(lim.max_compression_ratio)}")
                        r.fatal(f"archive expands to more than {_limit(lim.max_total_uncompressed_bytes)}; "
                                f"the limit is {_limit(lim.max_total_uncompressed_bytes)}")
                    b[:len(chunk)] = chunk
                    return len(chunk)
                if self.d.eof:
                    rest = self.d.unused_data
                    if not rest.strip(b"\0") and not self.data[self.pos:].tobytes().strip(b"\0"):
                        self.done = True  # trailing zero padding, as gzip itself allows
                        break
                    self.d = zlib.decompressobj(wbits=31)  # another gzip member follows
                    self.pending = rest
                elif not self.pending and self.pos >= len(self.data):
                    r.fatal("archive: the gzip data is truncated")
        except zlib.error as e:
            r.fatal(f"archive: not valid gzip data ({e})")
        return 0


def _read_tgz(data: bytes, r: _Reader) -> None:
    if data[:2] != b"\x1f\x8b":
        r.fatal("archive: not gzip-compressed (a .tar.gz/.tgz bundle must be a gzip-compressed tar)")
    stream = _Gunzip(data, r)
    try:
        # Stream mode ("r|"): members are read in order, each member's data once.
        tf = tarfile.open(fileobj=io.BufferedReader(stream, 4 * _CHUNK), mode="r|")
    except (tarfile.TarError, EOFError, ValueError, UnicodeError) as e:
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
        if m.isdir():
            r.add_dir(raw, path)
            continue
        if path and not r.first(raw, path):
            continue  # a repeated path: refused in finish(), no further copy is read
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
                content = _read_capped(f, cap, r.tick) if f is not None else None
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
    # The rest of the gzip data (past the tar's end) is still checked: trailing garbage or a bad
    # checksum is reported as before, within the same caps.
    while stream.read(4 * _CHUNK):
        pass


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


def _read_dir(root: str, r: _Reader) -> None:
    stack = [("", root)]
    while stack:
        rel, here = stack.pop()
        found = []
        try:
            with os.scandir(here) as it:
                for de in it:  # counted while listing: a directory of a million files stops early
                    r.count_member()
                    found.append(de)
        except OSError as e:
            r.errors.append(f"{r.where(rel or '.')}: cannot list directory ({e.strerror})")
            continue
        found.sort(key=lambda de: de.name)
        for de in found:
            raw = f"{rel}/{de.name}" if rel else de.name
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
                    content = _read_capped(f, cap, r.tick)
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


def _open(path: str, limits: Limits, started: float) -> tuple[_Reader, str]:
    """Read every member of the bundle at ``path``; return the reader and the bundle's sha256."""
    shown = repr(path)
    if os.path.isdir(path):
        if os.path.islink(path):
            raise BundleError(f"bundle {shown}: symbolic links are not allowed")
        r = _Reader(limits, "bundle path", started)
        try:
            _read_dir(path, r)
            r.finish()
        except _Fatal:
            raise _error(r.errors) from None
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
    r = _Reader(limits, "archive member", started)
    try:
        reader(data, r)
        r.finish()
    except _Fatal:
        raise _error(r.errors) from None
    r.strip_single_folder()
    return r, hashlib.sha256(data).hexdigest()


# --------------------------------------------------------------------------- manifest


def _suite_workload_exists(workload_id: str) -> bool:
    try:
        suite.get_workload(workload_id)
    except suite.UnknownWorkload:
        return False
    return True


def _suite_workload_params(workload_id: str) -> Mapping[str, Any] | None:
    try:
        return suite.get_workload(workload_id).params
    except suite.UnknownWorkload:
        return None


def _suite_pattern_params() -> Callable[[str], Sequence[Mapping[str, Any]] | None]:
    """Pattern id -> the parameters of each of its public workloads (None: no such pattern)."""
    by_id = {p.id: p for p in suite.patterns()}
    return lambda pid: [w.params for w in by_id[pid].workloads] if pid in by_id else None


class _Targets:
    """What entries may name, each id looked up once however many entries repeat it."""

    def __init__(self, workload_exists: Callable[[str], bool],
                 pattern_params: Callable[[str], Sequence[Mapping[str, Any]] | None] | None,
                 workload_params: Callable[[str], Mapping[str, Any] | None]):
        self._workload_exists = workload_exists
        self._pattern_params = pattern_params  # None: the suite's, built on first use
        self._workload_params = workload_params
        self._workloads: dict[str, bool] = {}
        # id -> names of its integer parameters (for a pattern: those every listed workload has);
        # None when unknown
        self._pattern_ints: dict[str, frozenset[str] | None] = {}
        self._workload_ints: dict[str, frozenset[str] | None] = {}

    def workload_known(self, workload_id: str) -> bool:
        if workload_id not in self._workloads:
            self._workloads[workload_id] = bool(self._workload_exists(workload_id))
        return self._workloads[workload_id]

    def pattern_ints(self, pattern_id: str) -> frozenset[str] | None:
        if pattern_id not in self._pattern_ints:
            if self._pattern_params is None:
                self._pattern_params = _suite_pattern_params()
            listed = self._pattern_params(pattern_id)
            self._pattern_ints[pattern_id] = None if listed is None else _common_ints(listed)
        return self._pattern_ints[pattern_id]

    def pattern_known(self, pattern_id: str) -> bool:
        return self.pattern_ints(pattern_id) is not None

    def workload_ints(self, workload_id: str) -> frozenset[str] | None:
        if workload_id not in self._workload_ints:
            params = self._workload_params(workload_id)
            self._workload_ints[workload_id] = None if params is None else _common_ints([params])
        return self._workload_ints[workload_id]


def _common_ints(listed: Sequence[Mapping[str, Any]]) -> frozenset[str]:
    """Names that are integer parameters in every one of ``listed`` (shape sizes, not dtypes)."""
    sets = [frozenset(raw_source.int_params(dict(p))) for p in listed]
    return frozenset.intersection(*sets) if sets else frozenset()


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
    r.tick()
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
    pattern_params: Callable[[str], Sequence[Mapping[str, Any]] | None] | None = None,
    workload_params: Callable[[str], Mapping[str, Any] | None] | None = None,
) -> Bundle:
    """Load and check the bundle at ``path`` (a directory, ``.zip``, ``.tar.gz`` or ``.tgz``).

    ``formats`` maps a format name to an object whose ``check(text) -> list[str]`` returns static
    errors for an entry's file (default: ``evaluator.formats.FORMATS``). ``workload_exists`` says
    whether a workload id is in the suite, hidden ones included (default: the suite itself).
    ``pattern_params`` maps a pattern id to the parameters of its listed workloads, or None for
    an unknown pattern; ``workload_params`` gives one workload's parameters, or None (defaults:
    the suite). They decide which patterns an entry may name and which ``shape_args`` it may ask.
    Raises :class:`BundleError` listing every problem found.
    """
    if formats is None:
        formats = FORMATS
    if workload_exists is None:
        workload_exists = _suite_workload_exists
    targets = _Targets(workload_exists, pattern_params, workload_params or _suite_workload_params)

    started = time.monotonic()
    r, digest = _open(os.fspath(path), limits, started)
    try:
        return _load(r, digest, formats, targets)
    except _Fatal:
        raise _error(r.errors) from None


def _load(r: _Reader, digest: str, formats: Mapping[str, Any], targets: _Targets) -> Bundle:
    limits = r.limits
    errors = r.errors
    doc = _parse_manifest(r, errors)
    r.tick()
    if doc is None:
        raise _error(errors)
    if not isinstance(doc, dict):
        errors.append(f"{MANIFEST}: the top level must be a JSON object, got {_kind(doc)}")
        raise _error(errors)

    where = MANIFEST
    for key in doc:
        if key not in MANIFEST_KEYS:
            errors.append(f"{where}: unknown key {_q(key)} (allowed: {', '.join(MANIFEST_KEYS)})")

    schema = doc.get("schema")
    if "schema" not in doc:
        errors.append(f"{where}: missing 'schema' (expected {SCHEMA!r})")
    elif schema != SCHEMA:
        shown = _q(schema) if isinstance(schema, str) else _kind(schema)
        errors.append(f"{where}: unsupported schema {shown}; expected {SCHEMA!r}")

    name = doc.get("name")
    if "name" not in doc:
        errors.append(f"{where}: missing 'name'")
    elif not isinstance(name, str) or not NAME_RE.fullmatch(name):
        shown = _q(name) if isinstance(name, str) else _kind(name)
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
    seen: dict[tuple[str, str, str], int] = {}
    file_refs: set[str] = set()
    for index, spec in enumerate(raw_entries, start=1):
        r.tick()
        entry = _check_entry(index, spec, r, formats, targets, seen, file_refs, errors)
        if entry is not None:
            entries.append(entry)
    r.tick()

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
    """The BundleError for ``errors``: at most MAX_REPORTED_ERRORS of them, then how many more
    there were, then (always) the problem that stopped validation, if one did."""
    dropped = getattr(errors, "dropped", 0)
    last = getattr(errors, "last", None)
    kept = list(errors)
    if len(kept) > MAX_REPORTED_ERRORS:
        dropped += len(kept) - MAX_REPORTED_ERRORS
        kept = kept[:MAX_REPORTED_ERRORS]
    if dropped:
        kept.append(f"... and {dropped} more problems")
    if last is not None:
        kept.append(last)
    return BundleError(kept)


def _bundle_text(
    r: _Reader, raw: Any, what: str, label: str, limit: int, file_refs: set[str], errors: list[str]
) -> tuple[str | None, _Text | None]:
    """``(normalised path, file)`` of a file an entry names; file None (reported) when unusable.

    The file is decoded and hashed once however many entries name it (``_Reader.text``), and
    every entry gets the same ``str``."""
    if not isinstance(raw, str):
        errors.append(f"{label}: {what!r} must be a string (a path inside the bundle), got {_kind(raw)}")
        return None, None
    path, problem = normalize_path(raw)
    shown = _q(raw)
    if problem:
        errors.append(f"{label}: {what} {shown} is not a valid path inside the bundle: {problem}")
        return None, None
    if not path:
        errors.append(f"{label}: {what!r} must not be empty")
        return None, None
    file_refs.add(path)
    if path in r.rejected:
        errors.append(f"{label}: {what} {shown} was rejected: {r.rejected[path]}")
        return path, None
    if path in r.dirs:
        errors.append(f"{label}: {what} {shown} is a directory, not a file")
        return path, None
    if path in r.oversized or (path in r.files and len(r.files[path]) > limit):
        size = r.oversized.get(path) if path in r.oversized else len(r.files[path])
        size_shown = _size(size) if size is not None else f"more than {_limit(r.read_cap)}"
        errors.append(f"{label}: {what} {shown} is {size_shown}; the limit is {_limit(limit)}")
        return path, None
    if path not in r.files:
        errors.append(f"{label}: {what} {shown} is missing from the bundle")
        return path, None
    t = r.text(path)
    if t.problem:
        errors.append(f"{label}: {what} {shown} {t.problem}")
        return path, None
    return path, t


def _check_entry(
    index: int,
    spec: Any,
    r: _Reader,
    formats: Mapping[str, Any],
    targets: _Targets,
    seen: dict[tuple[str, str, str], int],
    file_refs: set[str],
    errors: _Problems,
) -> Entry | None:
    if not isinstance(spec, dict):
        errors.append(f"entry {index}: must be a JSON object, got {_kind(spec)}")
        return None
    n_before = errors.total
    workload, pattern, backend, fmt = (spec.get(k) for k in ("workload", "pattern", "backend", "format"))
    shown = [_show(workload) if isinstance(workload, str) else None,
             f"pattern {_show(pattern)}" if isinstance(pattern, str) else None,
             _show(backend) if isinstance(backend, str) else None]
    shown = [v for v in shown if v is not None]
    label = f"entry {index} ({', '.join(shown)})" if shown else f"entry {index}"

    for key in spec:
        if key not in ENTRY_KEYS:
            errors.append(f"{label}: unknown key {_q(key)} (allowed: {', '.join(ENTRY_KEYS)})")
    if "workload" in spec and "pattern" in spec:
        errors.append(f"{label}: give exactly one of 'workload' (one shape) and 'pattern' (every shape of "
                      f"a pattern), not both")
    elif "workload" not in spec and "pattern" not in spec:
        errors.append(f"{label}: missing 'workload' (or 'pattern', for every shape of a pattern)")
    for key in ("workload", "pattern", "backend", "format", "file"):
        if key not in spec:
            if key not in ("workload", "pattern"):
                errors.append(f"{label}: missing {key!r}")
        elif not isinstance(spec[key], str):
            errors.append(f"{label}: {key!r} must be a string, got {_kind(spec[key])}")

    if isinstance(workload, str):
        if not workload:
            errors.append(f"{label}: 'workload' must not be empty")
        elif (gone := suite.retirement_of(workload)) is not None and targets.workload_known(workload):
            errors.append(f"{label}: {retired_message('workload', workload, gone)}")
        elif not targets.workload_known(workload):
            errors.append(f"{label}: unknown workload {_q(workload)}")
    if isinstance(pattern, str):
        if not pattern:
            errors.append(f"{label}: 'pattern' must not be empty")
        elif (gone := suite.retirement_of(pattern)) is not None and "@" not in pattern:
            errors.append(f"{label}: {retired_message('pattern', pattern, gone)}")
        elif not targets.pattern_known(pattern):
            hint = " (a pattern id has no '@<shape>' part; name one shape with 'workload')" if "@" in pattern else ""
            errors.append(f"{label}: unknown pattern {_q(pattern)}{hint}")
    if isinstance(backend, str) and backend_registry.name_problem(backend):
        errors.append(f"{label}: unknown backend {_q(backend)} (expected "
                      f"{', '.join(repr(b) for b in backend_registry.BACKENDS)} or 'rpc:<key>' with a key of "
                      "1-64 characters of A-Z a-z 0-9 . _ -)")
    target = (("workload", workload) if "pattern" not in spec else
              ("pattern", pattern) if "workload" not in spec else None)
    if target is not None and isinstance(target[1], str) and isinstance(backend, str):
        first = seen.setdefault((*target, backend), index)
        if first != index:
            errors.append(f"{label}: duplicate of entry {first} (the same {target[0]} and backend)")
    if isinstance(fmt, str) and fmt not in formats:
        known = ", ".join(sorted(formats)) or "none"
        errors.append(f"{label}: unknown format {_q(fmt)} (known: {known})")
    elif isinstance(fmt, str):
        f = formats[fmt]
        takes = getattr(f, "takes", None)
        if isinstance(backend, str) and not backend_registry.name_problem(backend) and takes and not takes(backend):
            able = sorted(n for n, g in formats.items() if getattr(g, "takes", None) and g.takes(backend))
            errors.append(f"{label}: backend {backend!r} does not take the {fmt!r} format (it takes: "
                          f"{', '.join(able) or 'none'})")
        why = getattr(f, "not_pattern_level", "")
        if target is not None and target[0] == "pattern" and why:
            able = sorted(n for n, g in formats.items() if not getattr(g, "not_pattern_level", ""))
            errors.append(f"{label}: format {fmt!r} cannot be used in a pattern-level entry yet: {why}; give one "
                          f"'workload' entry per shape (pattern-level formats: {', '.join(able)})")

    path, source = (None, None)
    if "file" in spec and isinstance(spec["file"], str):
        path, source = _bundle_text(r, spec["file"], "file", label, r.limits.max_file_bytes, file_refs, errors)

    # The static check runs once per (format, file content); entries sharing a file share its
    # result. It reads only the text, so neither the workload nor the launch is part of the key.
    if source is not None and isinstance(fmt, str) and fmt in formats:
        errors.extend(f"{label}: {p}" for p in r.check(fmt, formats[fmt], source))

    launch = spec.get("launch")
    if isinstance(fmt, str) and fmt in formats:
        check_launch = getattr(formats[fmt], "check_launch", None)
        if check_launch is None:
            if launch is not None:
                errors.append(f"{label}: 'launch' is only for raw-source formats, not {fmt!r}")
        else:
            # Not cached: a launch object is part of this entry's manifest text, and checking it
            # costs time in proportion to its size, so all launches cost at most a manifest's worth.
            problems = check_launch(launch)
            errors.extend(f"{label}: launch: {p}" for p in problems)
            if not problems and isinstance(launch, dict) and target is not None:
                named = [("'shape_args' names", launch.get("shape_args") or []),
                         ("its size expressions read", sorted(raw_source.size_names(launch)))]
                for what, names in named:
                    if names:
                        errors.extend(f"{label}: launch: {p}" for p in _check_shape_names(names, target, targets, what))

    trace = None
    raw_trace = spec.get("trace")
    if raw_trace is not None:
        _, tfile = _bundle_text(r, raw_trace, "trace", label, r.limits.max_trace_bytes, file_refs, errors)
        if tfile is not None:
            trace, problems = r.trace(tfile)  # parsed once per content; entries share the records
            errors.extend(f"{label}: trace {_q(raw_trace)}: {m}" for m in problems)

    if errors.total > n_before:
        return None
    return Entry(index=index, workload=workload, backend=backend, format=fmt, file=path,
                 source=source.text if source is not None else None,
                 trace=trace, launch=launch, pattern=pattern)


def _check_shape_names(names: list[str], target: tuple[str, Any], targets: _Targets,
                       what: str = "'shape_args' names") -> list[str]:
    """Parameter names a launch uses (``shape_args``, size expressions) against the integer
    parameters of the entry's workload or pattern (nothing to say when the target itself is
    unknown: that is reported already)."""
    kind, ident = target
    ints = targets.pattern_ints(ident) if kind == "pattern" else targets.workload_ints(ident)
    if ints is None:
        return []
    bad = [n for n in names if n not in ints]
    if not bad:
        return []
    where = f"every workload of pattern {_q(ident)}" if kind == "pattern" else f"workload {_q(ident)}"
    which = "is not an integer parameter" if len(bad) == 1 else "are not integer parameters"
    return [f"{what} {', '.join(map(repr, bad))}, which {which} of {where}; its integer parameters "
            f"are {', '.join(sorted(ints)) or 'none'}"]
