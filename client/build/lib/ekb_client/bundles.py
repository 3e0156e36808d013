"""Bundles on this machine: packing a directory as the portal receives it, unpacking a starter
bundle, and checking one offline with the evaluator's own bundle loader (the check the portal
runs on every upload) when the EdgeKernelBench project is installed."""

from __future__ import annotations

import importlib
import io
import os
import stat
import tempfile
import types
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz")  # what the portal accepts
MiB = 1024 * 1024
# The portal's own caps (evaluator/formats/bundle.py), checked here before anything is sent
MAX_ARCHIVE_BYTES = 20 * MiB
MAX_MEMBERS = 6000
# A starter bundle is a few MiB; these bound what `ekb init` writes whatever the server sends.
MAX_UNPACKED_BYTES = 64 * MiB
MAX_UNPACKED_FILE_BYTES = 4 * MiB
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # the same files give the same archive
LOADER = "evaluator.formats.bundle"


class BundleInputError(Exception):
    """A local bundle (or a place to write one) that cannot be used; the message says why."""


def suffix_of(name: str) -> str | None:
    low = name.lower()
    return next((s for s in ARCHIVE_SUFFIXES if low.endswith(s)), None)


def bundle_bytes(path: Path) -> tuple[str, bytes]:
    """(file name, archive bytes) of a bundle: an archive as it is, a directory zipped with its
    files at the archive's root (manifest.json first)."""
    if not path.exists():
        raise BundleInputError(f"{path}: no such file or directory")
    if path.is_file():
        if suffix_of(path.name) is None:
            raise BundleInputError(f"{path}: a bundle is a directory, a .zip or a .tar.gz archive")
        size = path.stat().st_size
        if size > MAX_ARCHIVE_BYTES:
            raise BundleInputError(f"{path} is {size / MiB:.1f} MiB; the portal takes at most "
                                   f"{MAX_ARCHIVE_BYTES // MiB} MiB")
        return path.name, path.read_bytes()
    if not (path / "manifest.json").is_file():
        raise BundleInputError(f"{path} has no manifest.json at its root")
    files: list[Path] = []
    for f in sorted(path.rglob("*")):
        if f.is_symlink():
            raise BundleInputError(f"{f} is a symbolic link; a bundle holds regular files only")
        if f.is_file():
            files.append(f)
        if len(files) > MAX_MEMBERS:
            raise BundleInputError(f"{path} holds over {MAX_MEMBERS} files; the portal takes at most {MAX_MEMBERS}")
    files.sort(key=lambda f: (f.relative_to(path).as_posix() != "manifest.json", f.relative_to(path).as_posix()))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for f in files:
            info = zipfile.ZipInfo(f.relative_to(path).as_posix(), date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            z.writestr(info, f.read_bytes())
            if buf.tell() > MAX_ARCHIVE_BYTES:
                break
    data = buf.getvalue()
    if len(data) > MAX_ARCHIVE_BYTES:
        raise BundleInputError(f"{path} zips to over {MAX_ARCHIVE_BYTES // MiB} MiB, the portal's limit")
    return path.resolve().name + ".zip", data


def _member_path(name: str) -> PurePosixPath:
    p = PurePosixPath(name)
    if not name or "\\" in name or p.is_absolute() or any(part in ("", ".", "..") for part in p.parts):
        raise BundleInputError(f"the starter bundle holds an unsafe path {name!r}; nothing was written")
    return p


def unpack(data: bytes, dest: Path, *, force: bool = False) -> list[str]:
    """Write the .zip ``data`` under ``dest`` (made if missing; an existing non-empty folder only
    with ``force``). Every path and size is checked before the first file is written."""
    if dest.exists() and not dest.is_dir():
        raise BundleInputError(f"{dest} exists and is not a directory")
    if dest.is_dir() and any(dest.iterdir()) and not force:
        raise BundleInputError(f"{dest} is not empty; choose a new directory or pass --force to overwrite")
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as e:
        raise BundleInputError(f"the starter bundle is not a valid .zip: {e}") from None
    with z:
        members = [i for i in z.infolist() if not i.is_dir()]
        if len(members) > MAX_MEMBERS:
            raise BundleInputError(f"the starter bundle holds {len(members)} files; at most {MAX_MEMBERS}")
        total = 0
        for info in members:
            _member_path(info.filename)
            if info.file_size > MAX_UNPACKED_FILE_BYTES:
                raise BundleInputError(f"{info.filename} is over {MAX_UNPACKED_FILE_BYTES // MiB} MiB unpacked")
            total += info.file_size
        if total > MAX_UNPACKED_BYTES:
            raise BundleInputError(f"the starter bundle unpacks to over {MAX_UNPACKED_BYTES // MiB} MiB")
        written = []
        for info in members:
            target = dest.joinpath(*_member_path(info.filename).parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            with z.open(info) as src:
                content = src.read(MAX_UNPACKED_FILE_BYTES + 1)
            if len(content) > MAX_UNPACKED_FILE_BYTES:  # the header lied about the size
                raise BundleInputError(f"{info.filename} is over {MAX_UNPACKED_FILE_BYTES // MiB} MiB unpacked")
            target.write_bytes(content)
            written.append(info.filename)
    return written


# --------------------------------------------------------------------------- offline validation


class LoaderMissing(Exception):
    """The EdgeKernelBench project (its ``evaluator`` package) is not importable here."""


@dataclass
class Report:
    bundle: str
    valid: bool
    name: str = ""
    entries: int = 0
    backends: list[str] = field(default_factory=list)
    workloads: int = 0
    patterns: int = 0
    errors: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {"bundle": self.bundle, "valid": self.valid, "name": self.name, "entries": self.entries,
                "backends": self.backends, "workloads": self.workloads, "patterns": self.patterns,
                "errors": self.errors}


def _loader() -> types.ModuleType:
    """The evaluator's bundle loader module (LoaderMissing when it is not installed)."""
    # Imported on use: the evaluator is optional (and heavy) for every other command.
    try:
        return importlib.import_module(LOADER)
    except ImportError as e:
        raise LoaderMissing(
            f"offline validation needs the EdgeKernelBench project installed in this Python ({e}). In a "
            "checkout of the project run `make install` (or `pip install -e .`) and use its .venv; or let "
            "the portal check the bundle: `ekb submit` shows every problem it finds.") from None


def validate(path: Path) -> Report:
    """Check ``path`` as the portal checks an upload: the archive's kind and size, then the
    evaluator's loader with the portal's limits (a directory is zipped as `ekb submit` sends it).
    Every problem is in ``errors``; each one names the entry or file it is about."""
    loader = _loader()
    try:
        filename, data = bundle_bytes(path)
    except BundleInputError as e:
        return Report(str(path), False, errors=[str(e)])
    suffix = suffix_of(filename) or ".zip"
    fd, tmp = tempfile.mkstemp(suffix=suffix, prefix="ekb-validate-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        bundle = loader.load_bundle(tmp, limits=loader.Limits())
    except loader.BundleError as e:
        return Report(str(path), False, errors=list(e.errors))
    finally:
        os.unlink(tmp)
    entries = list(bundle.entries)
    return Report(str(path), True, name=bundle.name, entries=len(entries),
                  backends=sorted({e.backend for e in entries}),
                  workloads=sum(e.workload is not None for e in entries),
                  patterns=sum(e.pattern is not None for e in entries))
