"""Where the portal's URL and the API token come from: command-line flags, then the environment
(``EKB_URL``, ``EKB_TOKEN``), then the config file ``ekb login`` writes (mode 0600 in the user's
config directory), then the default URL of a local portal."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

DEFAULT_URL = "http://127.0.0.1:8000"
URL_ENV = "EKB_URL"
TOKEN_ENV = "EKB_TOKEN"
CONFIG_DIR_NAME = "ekb"
CONFIG_FILE_NAME = "config.json"
MAX_CONFIG_BYTES = 64 * 1024  # a config file is two short strings


class ConfigError(Exception):
    """The config file cannot be read or written; the message names it."""


@dataclass(frozen=True)
class Settings:
    url: str
    token: str
    url_from: str  # where each came from: "flag", "EKB_URL", the config file's path, "default"
    token_from: str


def config_path() -> Path:
    """``$XDG_CONFIG_HOME/ekb/config.json`` (default ``~/.config``); ``%APPDATA%`` on Windows."""
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        base = Path(os.environ["APPDATA"])
    else:
        base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / CONFIG_DIR_NAME / CONFIG_FILE_NAME


def load(path: Path | None = None) -> dict[str, str]:
    """The stored settings ({} when there is no file)."""
    path = path or config_path()
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise ConfigError(f"cannot read {path}: {e.strerror or e}") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path} is over {MAX_CONFIG_BYTES // 1024} KiB: not a config file ekb wrote")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise ConfigError(f"{path} is not valid JSON ({e}); remove it and run `ekb login` again") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path} must hold a JSON object; remove it and run `ekb login` again")
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def save(url: str, token: str, path: Path | None = None) -> Path:
    """Store the URL and token, readable by this user only (file 0600, folder 0700)."""
    path = path or config_path()
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # created 0600 from the start, so the token is never readable by others, even briefly
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"url": url, "token": token}, f, indent=1)
            f.write("\n")
        os.chmod(path, 0o600)  # an older file keeps its mode through O_TRUNC
    except OSError as e:
        raise ConfigError(f"cannot write {path}: {e.strerror or e}") from None
    return path


def resolve(url: str | None = None, token: str | None = None, path: Path | None = None) -> Settings:
    """The URL and token to use: a flag's value, else the environment's, else the config file's."""
    path = path or config_path()
    stored = load(path)

    def pick(flag: str | None, env: str, key: str, default: str) -> tuple[str, str]:
        if flag:
            return flag, "flag"
        if os.environ.get(env):
            return os.environ[env], env
        if stored.get(key):
            return stored[key], str(path)
        return default, "default"

    u, u_from = pick(url, URL_ENV, "url", DEFAULT_URL)
    t, t_from = pick(token, TOKEN_ENV, "token", "")
    return Settings(normalize_url(u), t.strip(), u_from, t_from)


def normalize_url(url: str) -> str:
    """The portal's base URL without a trailing slash; ValueError for anything but http(s)."""
    url = url.strip().rstrip("/")
    if not url.startswith(("http://", "https://")) or len(url) <= len("https://"):
        raise ValueError(f"the portal URL must start with http:// or https://, not {url!r}")
    if len(url) > 2000:
        raise ValueError("the portal URL is over 2000 characters")
    return url
