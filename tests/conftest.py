import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

# Baseline builds and measured peaks are cached; tests use their own cache so a stale one from a
# developer's machine never leaks in, and the whole session shares one.
os.environ.setdefault("EKB_CACHE_DIR", tempfile.mkdtemp(prefix="ekb-test-cache-"))

# Uploaded bundles (MEDIA_ROOT = EKB_VAR_DIR/media) go to a temporary directory, never into the
# repository's var/. pytest-django imports the settings before this file is read, so the value is
# also written into the loaded settings; the environment variable carries it to the `celery
# worker` processes the integration tests start.
_VAR_DIR = tempfile.mkdtemp(prefix="ekb-test-var-")
os.environ["EKB_VAR_DIR"] = _VAR_DIR
atexit.register(shutil.rmtree, _VAR_DIR, True)
try:
    from django.conf import settings as _settings

    if _settings.configured:
        _settings.MEDIA_ROOT = Path(_VAR_DIR) / "media"
        _settings.STATIC_ROOT = Path(_VAR_DIR) / "static"
except ImportError:  # Django not installed: only the evaluator's tests can run
    pass


@pytest.fixture(scope="session")
def quick_protocol():
    """The real protocol with a short timing budget and limits, so tests stay fast."""
    from evaluator.harness.protocol import Limits, Protocol

    return Protocol(time_budget_s=0.5, min_rounds=5, limits=Limits(build_s=60, check_s=8, time_s=30))
