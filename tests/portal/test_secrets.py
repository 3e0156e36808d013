"""Secrets an embedded install makes for itself: never a public default.

Settings are read once per process, so each case loads them in a fresh ``python -c`` with its
own EKB_VAR_DIR and neither DATABASE_URL nor CELERY_BROKER_URL (the embedded mode).
"""

import hashlib
import hmac
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PUBLIC_DEFAULT = "embedded-insecure-key-only-for-local-use"  # the key embedded installs used to share
DEPLOYMENT_VARS = ("DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SECRET_KEY", "EKB_VERIFY_SECRET")

SHOW = """
import json, django
django.setup()
from django.conf import settings
from portal.evaluation import verification_seeds
print(json.dumps({"key": settings.SECRET_KEY, "seeds": verification_seeds(7, "cpu-llvm", 4)}))
"""


def load(var_dir: Path, **env) -> dict:
    """The settings' SECRET_KEY and a verified run's seeds, as a fresh embedded process sees them."""
    full = {k: v for k, v in os.environ.items() if k not in DEPLOYMENT_VARS}
    full.update({"EKB_VAR_DIR": str(var_dir), "DJANGO_SETTINGS_MODULE": "config.settings",
                 "PYTHONPATH": str(ROOT)}, **env)
    p = subprocess.run([sys.executable, "-c", SHOW], cwd=ROOT, env=full, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


def seeds_from(secret: str, n: int = 4) -> list[int]:
    return [int.from_bytes(hmac.new(secret.encode(), f"verify:7:cpu-llvm:{i}".encode(),
                                    hashlib.sha256).digest()[:4], "little") for i in range(n)]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_embedded_key_is_generated_private_and_stable(tmp_path):
    first = load(tmp_path)
    key_file = tmp_path / "secrets" / "django-secret-key"
    assert key_file.is_file() and mode(key_file) == 0o600 and mode(key_file.parent) == 0o700
    assert first["key"] == key_file.read_text().strip()
    assert first["key"] != PUBLIC_DEFAULT and len(first["key"]) >= 50
    again = load(tmp_path)
    assert again == first  # the same key and seeds on the next start
    other = load(tmp_path / "elsewhere")
    assert other["key"] != first["key"]  # each install its own


def test_verified_seeds_come_from_their_own_generated_secret(tmp_path):
    a = load(tmp_path / "a")
    verify_file = tmp_path / "a" / "secrets" / "verify-secret"
    assert verify_file.is_file() and mode(verify_file) == 0o600
    secret = verify_file.read_text().strip()
    assert secret and secret != a["key"]  # not the SECRET_KEY
    assert a["seeds"] == seeds_from(secret)
    for public in (PUBLIC_DEFAULT, a["key"], ""):
        assert a["seeds"] != seeds_from(public)
    # a different install (another generated secret) gets different seeds, even with the same
    # SECRET_KEY: the seeds no longer follow a key that may be shared or known
    b = load(tmp_path / "b", DJANGO_SECRET_KEY=a["key"])
    assert b["key"] == a["key"] and b["seeds"] != a["seeds"]


def test_a_configured_verify_secret_is_used_and_nothing_is_generated_for_it(tmp_path):
    one = load(tmp_path / "one", EKB_VERIFY_SECRET="first-verify-secret")
    two = load(tmp_path / "two", EKB_VERIFY_SECRET="second-verify-secret")
    assert one["seeds"] == seeds_from("first-verify-secret")
    assert two["seeds"] == seeds_from("second-verify-secret") != one["seeds"]
    assert not (tmp_path / "one" / "secrets" / "verify-secret").exists()


def test_a_configured_secret_key_writes_no_file(tmp_path):
    got = load(tmp_path, DJANGO_SECRET_KEY="configured-key", EKB_VERIFY_SECRET="v")
    assert got["key"] == "configured-key"
    assert not (tmp_path / "secrets" / "django-secret-key").exists()


def test_a_readable_secret_file_is_made_private_again(tmp_path):
    first = load(tmp_path)
    key_file = tmp_path / "secrets" / "django-secret-key"
    key_file.chmod(0o644)
    key_file.parent.chmod(0o755)
    assert load(tmp_path)["key"] == first["key"]
    assert mode(key_file) == 0o600 and mode(key_file.parent) == 0o700


def test_a_server_install_still_requires_a_configured_key(tmp_path):
    full = {k: v for k, v in os.environ.items() if k not in DEPLOYMENT_VARS}
    full.update({"EKB_VAR_DIR": str(tmp_path), "DATABASE_URL": "postgres://u@127.0.0.1:1/x",
                 "DJANGO_SETTINGS_MODULE": "config.settings", "PYTHONPATH": str(ROOT)})
    p = subprocess.run([sys.executable, "-c", "import django; django.setup()"], cwd=ROOT, env=full,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode != 0 and "DJANGO_SECRET_KEY must be set" in p.stderr
    assert not (tmp_path / "secrets").exists()


@pytest.mark.parametrize("racers", [4])
def test_processes_starting_at_once_agree_on_one_key(tmp_path, racers):
    code = ("import sys; sys.path.insert(0, %r)\n"
            "from pathlib import Path\n"
            "import importlib.util\n"
            "spec = importlib.util.spec_from_file_location('s', %r)\n"
            "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
            "print(m.SECRET_KEY)") % (str(ROOT), str(ROOT / "config" / "settings.py"))
    full = {k: v for k, v in os.environ.items() if k not in DEPLOYMENT_VARS}
    full["EKB_VAR_DIR"] = str(tmp_path)
    procs = [subprocess.Popen([sys.executable, "-c", code], env=full, stdout=subprocess.PIPE, text=True)
             for _ in range(racers)]
    keys = {p.communicate(timeout=120)[0].strip() for p in procs}
    assert len(keys) == 1 and "" not in keys
    assert [f.name for f in (tmp_path / "secrets").iterdir()] == ["django-secret-key"]  # no temp file left
