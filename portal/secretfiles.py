"""Secrets a deployment makes for itself when none is configured (the Django key of an embedded
install, the verify and held-out secrets): one file each, readable by the owner only.

Django-free: the settings module uses it before any app is loaded.
"""

import os
import secrets
from pathlib import Path


def stored_secret(path: Path) -> str:
    """The random secret kept in ``path``: made on first use (folder 0700, file 0600, written
    whole before it appears, so two processes starting at once agree on one), read back after.
    A file that others may read is made private again."""
    path = Path(path)
    try:
        value = path.read_text().strip()
    except FileNotFoundError:
        value = ""
    if value:
        for p, mode in ((path, 0o600), (path.parent, 0o700)):
            if p.stat().st_mode & 0o077:
                p.chmod(mode)
        return value
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if path.parent.stat().st_mode & 0o077:
        path.parent.chmod(0o700)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(48) + "\n")
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, path)  # fails when another process made it first: theirs is kept
        except FileExistsError:
            if not path.read_text().strip():  # an empty file left by hand: replace it
                os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path.read_text().strip()
